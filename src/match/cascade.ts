/**
 * The strategy order and thresholds of each preset.
 *
 * `opencode` is the nine-replacer cascade as specified: its order, its
 * BlockAnchor thresholds (0.0 for one candidate, 0.3 for several, middle
 * compared line by line), ContextAware's 50 % rule, and its ambiguity
 * handling (an ambiguous strategy passes to the next).
 *
 * `default` is safer and tolerates more: an ambiguity stops the cascade (a
 * looser strategy never wins over it); strategies for habits the
 * specification misses run before the anchor-based ones; the similarity
 * strategies need real resemblance. Thresholds come from the accuracy
 * benchmark (README, "Presets").
 */
import { blankLines } from "./blank-lines.ts";
import { blockAnchor } from "./block-anchor.ts";
import { compound } from "./compound.ts";
import { contextAware } from "./context-aware.ts";
import { elided } from "./elided.ts";
import { escapeNormalized } from "./escape-normalized.ts";
import { exact } from "./exact.ts";
import { fuzzyBlock } from "./fuzzy-block.ts";
import { indentationFlexible } from "./indentation-flexible.ts";
import { lineNumbers } from "./line-numbers.ts";
import { lineTrimmed } from "./line-trimmed.ts";
import { multiOccurrence } from "./multi-occurrence.ts";
import { punctuationNormalized } from "./punctuation-normalized.ts";
import { trimmedBoundary } from "./trimmed-boundary.ts";
import type { Strategy, StrategyOptions } from "./types.ts";
import { whitespaceInsensitive } from "./whitespace-insensitive.ts";
import { whitespaceNormalized } from "./whitespace-normalized.ts";

export type PresetName = "default" | "opencode";

export interface Preset {
  readonly name: PresetName;
  readonly strategies: readonly Strategy[];
  readonly options: Readonly<StrategyOptions>;
  /** Stop at the first ambiguous strategy instead of trying looser ones. */
  readonly stopOnAmbiguity: boolean;
}

export const PRESETS: Readonly<Record<PresetName, Preset>> = Object.freeze({
  opencode: Object.freeze({
    name: "opencode",
    strategies: [
      exact,
      lineTrimmed,
      blockAnchor,
      whitespaceNormalized,
      indentationFlexible,
      escapeNormalized,
      trimmedBoundary,
      contextAware,
      multiOccurrence,
    ],
    options: Object.freeze({
      blockAnchorSingleThreshold: 0,
      blockAnchorMultipleThreshold: 0.3,
      blockAnchorSizeSlack: Number.POSITIVE_INFINITY,
      contextAwareRatio: 0.5,
      contextAwareSimilarity: 0,
      fuzzyThreshold: 1,
      ambiguityMargin: 0,
    }),
    stopOnAmbiguity: false,
  }),
  default: Object.freeze({
    name: "default",
    strategies: [
      exact,
      lineTrimmed,
      whitespaceNormalized,
      indentationFlexible,
      escapeNormalized,
      trimmedBoundary,
      punctuationNormalized,
      lineNumbers,
      whitespaceInsensitive,
      blankLines,
      elided,
      compound,
      blockAnchor,
      contextAware,
      fuzzyBlock,
      multiOccurrence,
    ],
    options: Object.freeze({
      blockAnchorSingleThreshold: 0.8,
      blockAnchorMultipleThreshold: 0.8,
      blockAnchorSizeSlack: 0.25,
      contextAwareRatio: 0.5,
      contextAwareSimilarity: 0.85,
      fuzzyThreshold: 0.9,
      ambiguityMargin: 0.1,
    }),
    stopOnAmbiguity: true,
  }),
});
