/**
 * Runs a preset's cascade and turns its candidates into one answer: a
 * unique range, all ranges for replaceAll, or an EditError (AMBIGUOUS with
 * every candidate, NOT_FOUND with the closest text).
 */
import { EditError } from "../errors.ts";
import type { Document } from "../text/document.ts";
import { createContext } from "./anchors.ts";
import { PRESETS, type PresetName } from "./cascade.ts";
import { createQuery } from "./query.ts";
import { ambiguityError, notFoundError } from "./report.ts";
import { findRival } from "./rival.ts";
import type { Candidate, StrategyName, StrategyOptions } from "./types.ts";

export interface LocateOptions {
  /** Which cascade to run. @default "default" */
  preset?: PresetName;
  /** Return every occurrence found by the first exact-after-normalisation strategy that finds any. @default false */
  replaceAll?: boolean;
  /** 1-based line where the model believes the text starts; chooses between equal candidates when one is clearly nearest. @default undefined */
  startLine?: number;
  /** Lines around `startLine` within which a candidate counts as near. @default 40 */
  hintWindow?: number;
  /** Minimum similarity for the similarity fallback (FuzzyBlock). @default preset's value (0.9 for default) */
  fuzzyThreshold?: number;
  /** Overrides of the preset's other thresholds, for measuring them (bench/accuracy/sweep.ts). @default {} */
  thresholds?: Partial<StrategyOptions>;
}

export interface Located {
  /** One candidate, or every occurrence under replaceAll. */
  candidates: Candidate[];
  strategy: StrategyName;
  /** Strategies run, in order, up to the one that matched. */
  tried: StrategyName[];
}

const DEFAULT_HINT_WINDOW = 40;

/** Distinct ranges, in document order. */
function distinct(cands: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of [...cands].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const key = `${c.start}:${c.end}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(c);
    }
  }
  return out;
}

/**
 * The candidate nearest to the hinted line, when it is clearly the nearest:
 * within the window, and every other candidate at least twice the window
 * (and four times as far) away. Otherwise undefined: the hint does not decide.
 */
export function pickByHint(cands: readonly Candidate[], startLine: number, window = DEFAULT_HINT_WINDOW): Candidate | undefined {
  const byDistance = cands
    .map((c) => ({ c, d: Math.abs(c.startLine + 1 - startLine) }))
    .sort((a, b) => a.d - b.d);
  const [near, next] = byDistance;
  if (!near || near.d > window) return undefined;
  if (next && next.d < Math.max(2 * window, 4 * near.d)) return undefined;
  return near.c;
}

function nonOverlapping(cands: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  let end = -1;
  for (const c of cands) {
    if (c.start < end) continue;
    out.push(c);
    end = c.end;
  }
  return out;
}

export function locate(doc: Document, find: string, options: LocateOptions = {}): Located {
  const preset = PRESETS[options.preset ?? "default"];
  if (!preset) throw new EditError("INVALID_INPUT", `Unknown preset "${String(options.preset)}". Use "default" or "opencode".`);
  const strategyOptions: StrategyOptions = { ...preset.options, ...options.thresholds };
  if (options.fuzzyThreshold !== undefined) strategyOptions.fuzzyThreshold = options.fuzzyThreshold;
  const ctx = createContext(doc, strategyOptions);
  const q = createQuery(find);
  const replaceAll = options.replaceAll ?? false;
  const tried: StrategyName[] = [];
  let ambiguous: { strategy: StrategyName; cands: Candidate[] } | undefined;

  for (const strategy of preset.strategies) {
    if (strategy.name === "multi-occurrence" && !replaceAll) continue;
    if (replaceAll && !strategy.exact) continue;
    tried.push(strategy.name);
    const cands = distinct(strategy.find(ctx, q));
    if (cands.length === 0) continue;
    if (replaceAll) return { candidates: nonOverlapping(cands), strategy: strategy.name, tried };
    if (cands.length === 1) {
      const rival = preset.stopOnAmbiguity && cands[0] ? findRival(ctx, q, cands[0]) : undefined;
      if (!rival) return { candidates: cands, strategy: strategy.name, tried };
      throw ambiguityError(doc, strategy.name, [...cands, rival].sort((a, b) => a.start - b.start), false);
    }
    const hinted = options.startLine === undefined ? undefined : pickByHint(cands, options.startLine, options.hintWindow);
    if (hinted) return { candidates: [hinted], strategy: strategy.name, tried };
    ambiguous ??= { strategy: strategy.name, cands };
    if (preset.stopOnAmbiguity) break;
  }
  if (ambiguous) throw ambiguityError(doc, ambiguous.strategy, ambiguous.cands, true);
  throw notFoundError(ctx, q, tried);
}
