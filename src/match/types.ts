/**
 * The vocabulary shared by every strategy: the query (the model's find text,
 * prepared once), the candidate (a range of the document with how it was
 * found) and the strategy itself (a pure function from both to candidates).
 */
import type { Document } from "../text/document.ts";

export type StrategyName =
  | "exact"
  | "line-trimmed"
  | "block-anchor"
  | "whitespace-normalized"
  | "whitespace-insensitive"
  | "indentation-flexible"
  | "escape-normalized"
  | "trimmed-boundary"
  | "punctuation-normalized"
  | "line-numbers"
  | "blank-lines"
  | "elided"
  | "context-aware"
  | "fuzzy-block"
  | "multi-occurrence"
  | "compound";

/**
 * How the replacement must be treated to match the way the find text was
 * interpreted: a find that matched only after un-escaping means the model
 * over-escaped both strings, and so on.
 */
export type Rewrite = "unescape" | "unescape-joined" | "strip-line-numbers" | "strip-line-numbers-aggressive" | "punctuation" | "trim-boundary";

/** The model's find text, prepared once. */
export interface Query {
  /** The find text with CRLF turned into LF. */
  readonly text: string;
  /** Its lines; a single trailing line break does not add an empty last line. */
  readonly lines: readonly string[];
  /** Whether `text` ends with a line break (the match then takes the file's break too). */
  readonly endsWithNewline: boolean;
  /** `lines`, each trimmed. */
  readonly trimmed: readonly string[];
}

/** A place in the document where the find text may be. */
export interface Candidate {
  /** Half-open offsets into `Document.text`. */
  start: number;
  end: number;
  /** 0-based first line touched and 0-based line after the last line touched. */
  startLine: number;
  endLine: number;
  strategy: StrategyName;
  /** 1 for an exact (after normalisation) match, lower for similarity matches. */
  score: number;
  /** True when the range is whole lines (start of `startLine` to end of `endLine - 1`, break excluded). */
  lineBased: boolean;
  /** The find text as this strategy read it (after stripping numbers, un-escaping, ...). */
  query: Query;
  /** For each query line, the absolute document line it corresponds to, or -1 (elided, blank). Omitted: line i ↔ startLine + i. */
  alignment?: number[];
  /** What the replacement needs so it reads like the find text did. */
  rewrite?: Rewrite;
}

/** Thresholds and switches of one preset; see cascade.ts for the values. */
export interface StrategyOptions {
  /** BlockAnchor: minimum middle similarity when it found one candidate. */
  blockAnchorSingleThreshold: number;
  /** BlockAnchor: minimum middle similarity when it found several. */
  blockAnchorMultipleThreshold: number;
  /** BlockAnchor: block size may differ from the find text by at most this fraction (Infinity: any). */
  blockAnchorSizeSlack: number;
  /** ContextAware: fraction of non-empty middle lines that must be equal after trimming. */
  contextAwareRatio: number;
  /** ContextAware: minimum whole-block similarity as well (0 disables). */
  contextAwareSimilarity: number;
  /** FuzzyBlock: minimum similarity of the whole block. */
  fuzzyThreshold: number;
  /** Similarity strategies: the best candidate wins over the second only by this margin. */
  ambiguityMargin: number;
}

/** A search cut short by a cap on the places examined (see anchors.ts). */
export interface CapNote {
  /** What was being examined: "windows" (line windows verified) or a strategy's name (pairs scored). */
  what: string;
  examined: number;
  total: number;
}

export interface MatchContext {
  readonly doc: Document;
  readonly options: StrategyOptions;
  /** Offsets of every occurrence of `needle` in the text, memoised per context. */
  occurrences(needle: string): readonly number[];
  /** Records that a search for `q` stopped at a cap; the NOT_FOUND message says so. */
  noteCap(q: Query, note: CapNote): void;
  /** The caps hit while searching for `q`. */
  capsFor(q: Query): readonly CapNote[];
  /**
   * Counts `weight` steps (default 1) of a strategy's loop and, every few
   * hundred, checks the call's time budget (TIMEOUT once it is spent). With
   * the checks between strategies, a budget is overrun by a fraction of one
   * capped search at most. `counted` false: work that a memo of the context
   * may skip (listing a needle's hits once), left out of `steps` so that a
   * search counts the same steps whatever searches of the text came before.
   */
  tick(weight?: number, counted?: boolean): void;
  /** The steps counted by `tick` so far in this context: the work a search did, as the call's allowance for searches beyond exact text counts it (engine/search-allowance.ts). */
  steps(): number;
}

export interface Strategy {
  readonly name: StrategyName;
  /** Exact after normalisation: allowed to serve replaceAll. */
  readonly exact: boolean;
  find(ctx: MatchContext, query: Query): Candidate[];
}
