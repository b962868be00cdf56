/**
 * The neutral edit operation every format parses into, and the report the
 * shared applier gives back for every format. A parser knows its grammar;
 * everything after it (locate, resolve, overlap, splice, messages) is the
 * same code for every format.
 */
import type { EditError } from "../errors.ts";
import type { OpHints, ResolvedBy } from "../match/hints.ts";
import type { StrategyName } from "../match/types.ts";
import type { TextChange } from "../text/common-ends.ts";
import type { LiteralException } from "./exact-literal.ts";

export type { TextChange };

export type { OpHints, ResolvedBy };

/** One way of reading an op: as written, or with line-number prefixes stripped. */
export interface Reading {
  /** The text to find (LF line breaks). */
  find: string;
  /** What goes in its place. */
  replace: string;
  /** Line-number prefixes were stripped from both sides (a numbered view pasted in). */
  stripped?: boolean;
  /**
   * The op is made of whole lines (a diff hunk): its old and new sides as
   * lines. `find`/`replace` are then the lines joined with "\n". Present,
   * the op only matches whole lines of the file, and an empty `replace`
   * list deletes the lines (where "" as text would be one empty line).
   */
  lines?: { find: readonly string[]; replace: readonly string[] };
  /** A looser reading (a diff's hunk with outer context dropped, as patch's fuzz): only places found exactly (after whitespace normalisation) count. */
  looser?: boolean;
}

/** Where the op came from, for reports and messages. */
export interface OpOrigin {
  /** 0-based position of the op in its input (block, hunk, edit). */
  index: number;
  /** 1-based line of the model's response (or diff text) where the op starts. */
  line: number;
  /** 0-based item of a list input (the apply_diff tool's list form). */
  diffIndex?: number;
  /** "Block 3 (line 40)": the start of every message about this op; "" for a lone str_replace. */
  label: string;
}

/**
 * What to do when this op's matched range overlaps another op's:
 * - merge: combine line by line when the two agree, CONFLICT otherwise (diff hunks);
 * - retry: the better match stays, this one is located again in the edited text (SEARCH/REPLACE);
 * - conflict: CONFLICT.
 */
export type OverlapPolicy = "merge" | "retry" | "conflict";

export interface EditOp {
  /** Readings to try in order; the first is the op as written. A later one is tried only when the earlier found nothing. */
  readings: readonly Reading[];
  /**
   * A second reading of the same lines used for splicing when its old side
   * equals more lines of the matched region exactly (a diff whose context
   * lines lost their prefix: ` x` may be the file's line ` x`, not `x`).
   */
  spliceReading?: Reading;
  hints: OpHints;
  origin: OpOrigin;
  overlap: OverlapPolicy;
  /** Final newline the file must have after this op (a diff's differing `\ No newline` markers). */
  finalNewline?: boolean;
  /** A sentence added when the op is not found (what the parser read leniently and may have misread). */
  notFoundNote?: string;
  /** Fail this op with NO_CHANGE when applying it changes nothing. */
  requireChange: boolean;
}

/** How one op was applied. Lines are 1-based inclusive lines of the text it was applied to. */
export interface AppliedOp {
  op: EditOp;
  strategy: StrategyName | "create" | "line-hint";
  startLine: number;
  endLine: number;
  score: number;
  /** Found by a strategy that is not exact text: worth a look. */
  fuzzy: boolean;
  /** Places replaced (replaceAll), else 1. */
  count: number;
  /** Lines added minus lines removed. */
  lineDelta: number;
  /** What chose among several candidates, when there were several. */
  resolvedBy?: ResolvedBy;
  /** Merged with an overlapping op before applying. */
  merged: boolean;
  /** Located in the text as edited by the ops applied before it (second try). */
  retried: boolean;
  /** An exact match written otherwise than sent: the named exception (exact-literal.ts). */
  exception?: LiteralException;
  /** Things the model should look at although the op applied (lines it wrote twice). */
  warnings?: string[];
}

export interface FailedOp {
  op: EditOp;
  error: EditError;
}

/** An applied edit in the line coordinates of the text it was applied to: lines [start, end) became end - start + delta lines. */
export interface LineShift {
  start: number;
  end: number;
  delta: number;
}

/** The one report of the shared applier, for every format. */
export interface EditReport {
  /** The content with every applied op. */
  content: string;
  /** `content` as one change of the text handed in, when the ops were spliced (absent after a line edit or a retry). */
  change?: TextChange;
  /** `change` as its splices, ranges of the text handed in in order, when one op made a few (a replaceAll edit's places). */
  parts?: TextChange[];
  /**
   * With `change`: every op was written as sent by an exact match, reading no line of the text but its place's
   * (splice.ts `Splice.literal`; a line edit's exactLines): fs/carried-text.ts carries only such results.
   */
  literal?: true;
  /** Applied ops, in file order (retried ones after). */
  applied: AppliedOp[];
  /** Failed ops, in input order. */
  failed: FailedOp[];
  /** Every op applied. */
  complete: boolean;
  /** The edits made, in order, including those handed in: maps lines of the original to the result. */
  shifts: LineShift[];
}

/** The report of an op placed without a match (a new file's content, lines inserted at a line or appended). */
export function placedOp(op: EditOp, strategy: "create" | "line-hint", startLine: number, endLine: number, lineDelta: number): AppliedOp {
  return { op, strategy, startLine, endLine, score: 1, fuzzy: false, count: 1, lineDelta, merged: false, retried: false };
}

/** "Fuzzy" is defined once: anything but an exact text match or a placement needing no match. */
export function isFuzzy(strategy: AppliedOp["strategy"]): boolean {
  return strategy !== "exact" && strategy !== "multi-occurrence" && strategy !== "create" && strategy !== "line-hint";
}
