/**
 * `applySearchReplace()`: SEARCH/REPLACE blocks (see search-replace-parse.ts
 * for the grammar) for one file, as ops on the shared applier.
 *
 * - A marker mistake anywhere in the diff text is thrown as PARSE: nothing
 *   is applied, because block boundaries themselves are in doubt.
 * - An empty SEARCH creates the file when it is empty and appends to it
 *   otherwise (Aider's convention, which models trained on it keep), after
 *   the other blocks (see search-replace-append.ts).
 * - A block whose result already stands (a block sent again, SEARCH equal
 *   to REPLACE) is reported in `alreadyApplied`, not in `failed`.
 * - Each block is an op: its `:start_line:` is the hint (a candidate
 *   starting there decides; see match/resolve.ts), overlapping blocks keep
 *   the better match and retry the other in the edited text, and a block
 *   not found or ambiguous gets a second try in the text as edited by the
 *   others (see engine/apply-ops.ts).
 * - Line-number prefixes: when every SEARCH line (and every REPLACE line, or
 *   REPLACE is empty) carries a `12 | ` prefix (a model copying from a
 *   numbered view), the block gets a second reading with the prefixes
 *   stripped, then a third stripped aggressively (`12: `, `12 `), and the
 *   first number is the block's hint unless it has its own.
 * - Several diffs for one file (`[{ content, startLine? }]`, the apply_diff
 *   tool form) apply in sequence, each on the result of the previous. An
 *   item's `startLine` is the hint of its first block. A parse error of one
 *   item fails that item only.
 *
 * The caller decides whether partial success is written: `complete` is
 * false (and `failed` non-empty) when not every block applied, and
 * `content` then holds only the blocks that did.
 */
import { applyOps } from "../engine/apply-ops.ts";
import { withOrigin } from "../engine/op-messages.ts";
import { alreadyAppliedNote } from "./already-applied.ts";
import { appendBlock } from "./search-replace-append.ts";
import type { AppliedOp, EditOp, LineShift, Reading } from "../engine/ops.ts";
import { checkLine, type EngineOptions, optionsObject, type ResolvedOptions, resolveOptions } from "../engine/options.ts";
import type { Vocabulary } from "../match/vocabulary.ts";
import { EditError } from "../errors.ts";
import { checkLimit } from "../limits.ts";
import type { StrategyName } from "../match/types.ts";
import { everyLineHasLineNumbers, firstLineNumber, stripLineNumbers } from "../text/line-numbers.ts";
import { withChange } from "../text/change-list.ts";
import type { TextChange } from "../text/common-ends.ts";
import { unescapeWholeText } from "../text/unescape-whole.ts";
import type { FileDiff } from "./search-replace-files.ts";
import { parseSearchReplace, type SearchReplaceBlock } from "./search-replace-parse.ts";

export interface SearchReplaceOptions extends EngineOptions {
  /**
   * A 1-based line hint for a diff given as text, as an item's `startLine`
   * does for the list form: it overrides the first block's `:start_line:`.
   * @default undefined
   */
  startLine?: number;
  /**
   * Lines of the model's response before the diff text, so that messages
   * and reports give the line of the response the model wrote (the file
   * layer sets it). @default 0
   */
  lineOffset?: number;
}

/** How one block was applied. */
export interface BlockReport {
  /** 0-based order of the block in its diff text. */
  index: number;
  /** 1-based line of the block's SEARCH marker in the diff text (plus `lineOffset`). */
  line: number;
  /** 0-based item of a list input; absent for a diff given as text. */
  diffIndex?: number;
  /** How the block was placed: a matcher, or for an empty SEARCH `create` (empty file) / `append` (end of the file). */
  strategy: StrategyName | "create" | "append";
  /**
   * Matched lines, 1-based inclusive, in the text the block was located in:
   * the file as given, or for a block that needed an earlier block's edit,
   * the file as edited by the blocks before it.
   */
  startLine: number;
  endLine: number;
  /** 1 for exact (after normalisation), lower for similarity matches. */
  score: number;
  /** True when found by a strategy other than exact text: worth a look. */
  fuzzy: boolean;
  /** Lines added minus lines removed. */
  lineDelta: number;
  /** An exact match written otherwise than sent: which named exception (an elision filled, a whole shift undone). */
  exception?: AppliedOp["exception"];
  /** Things to look at although the block applied (lines it wrote twice). */
  warnings?: string[];
  /** How its place was chosen among several where the text fits (its `:start_line:` hint, ...); absent when it fits one. */
  resolvedBy?: AppliedOp["resolvedBy"];
}

export interface SearchReplaceResult {
  /** The content with every block in `applied`: partial when `complete` is false. */
  content: string;
  /** Applied blocks, in the order they were applied (file order). */
  applied: BlockReport[];
  /** One error per block that was not applied, in the order the blocks were written. */
  failed: EditError[];
  /**
   * Blocks whose result already stands in the file (sent again after they
   * were applied, or a SEARCH equal to its REPLACE): code ALREADY_APPLIED,
   * saying where. Not failures: nothing was changed for them.
   */
  alreadyApplied: EditError[];
  /** Every block applied (`failed` is empty). */
  complete: boolean;
  /** The diff text had no real line breaks and was un-escaped (`\n` written literally). */
  unescaped?: boolean;
}

/** A diff as text, or several diffs for the same file applied in sequence. */
export type SearchReplaceInput = string | readonly FileDiff[];

export function searchReplaceVocabulary(): Vocabulary {
  return {
    find: "the SEARCH text",
    replacement: "REPLACE",
    moreContext: "Include more surrounding lines in the SEARCH text",
    disambiguate: (s) => {
      if (s.hint !== undefined) {
        return `. The hint :start_line:${s.hint} does not decide: a hint picks a place when the place starts at that line, or when it is within ${s.hintWindow} lines of it and every other place is much farther away.`;
      }
      // A hint that names the line a place starts on decides, however close the places are.
      return ", or add a `:start_line:N` line (N: the line where the SEARCH text starts) right after `<<<<<<< SEARCH`.";
    },
    emptyFind: "The SEARCH section is empty.",
    emptyFindAt: (after) => `The SEARCH section is empty (insert after line ${after})`,
  };
}

const VOCABULARY = Object.freeze(searchReplaceVocabulary());

/** Line-number readings of a block, standard then aggressive, when both sections qualify. */
function numberedReadings(block: SearchReplaceBlock): Reading[] {
  const out: Reading[] = [];
  for (const aggressive of [false, true]) {
    const replaceOk = block.replace.trim() === "" || everyLineHasLineNumbers(block.replace, aggressive);
    if (!replaceOk || !everyLineHasLineNumbers(block.search, aggressive)) continue;
    const find = stripLineNumbers(block.search, aggressive);
    const replace = block.replace.trim() === "" ? block.replace : stripLineNumbers(block.replace, aggressive);
    // Stripping nothing away, or everything, is no reading at all.
    if (find.trim() === "" || out.some((r) => r.find === find)) continue;
    out.push({ find, replace, stripped: true });
  }
  return out;
}

function labelOf(block: SearchReplaceBlock, line: number, diffIndex: number | undefined, offset: number): string {
  if (diffIndex !== undefined) return `Diff ${diffIndex + 1}, block ${block.index + 1} (line ${block.line} of that diff)`;
  // In a response each file's blocks are numbered apart; the response line is what the model can find.
  return offset > 0 ? `The block at line ${line} of the response` : `Block ${block.index + 1} (line ${line} of the diff)`;
}

/** The op of one block; `override` (an item's or the caller's startLine) replaces its own hint. */
export function blockOp(block: SearchReplaceBlock, diffIndex: number | undefined, override: number | undefined, offset: number): EditOp {
  const numbered = numberedReadings(block);
  const hint = override ?? block.startLine ?? (numbered.length > 0 ? firstLineNumber(block.search) : undefined);
  const line = block.line + offset;
  return {
    readings: [{ find: block.search, replace: block.replace }, ...numbered],
    hints: { wholeLines: true, ...(hint === undefined || hint === 0 ? {} : { startLine: hint }) },
    origin: { index: block.index, line, ...(diffIndex !== undefined && { diffIndex }), label: labelOf(block, line, diffIndex, offset) },
    overlap: "retry",
    requireChange: true,
  };
}

function blockReport(a: AppliedOp): BlockReport {
  const { origin } = a.op;
  return {
    index: origin.index,
    line: origin.line,
    ...(origin.diffIndex !== undefined && { diffIndex: origin.diffIndex }),
    strategy: a.strategy as BlockReport["strategy"],
    startLine: a.startLine,
    endLine: a.endLine,
    score: a.score,
    fuzzy: a.fuzzy,
    lineDelta: a.lineDelta,
    ...(a.exception && { exception: a.exception }),
    ...(a.warnings && { warnings: a.warnings }),
    ...(a.resolvedBy && { resolvedBy: a.resolvedBy }),
  };
}

function checkItems(diffText: unknown): readonly FileDiff[] | string {
  if (typeof diffText === "string") return diffText;
  if (!Array.isArray(diffText)) {
    throw new EditError("INVALID_INPUT", `diffText must be a string or a list of { content, startLine? }, got ${diffText === null ? "null" : typeof diffText}.`);
  }
  if (diffText.length === 0) throw new EditError("INVALID_INPUT", "The list of diffs is empty: there is nothing to apply.");
  diffText.forEach((item: unknown, d) => {
    const content = typeof item === "object" && item !== null ? (item as { content?: unknown }).content : undefined;
    if (typeof content !== "string") {
      throw new EditError("INVALID_INPUT", `Diff ${d + 1} must be an object with a string "content" (the SEARCH/REPLACE text).`, { diffIndex: d });
    }
    checkLine((item as { startLine?: unknown }).startLine, `Diff ${d + 1}'s startLine`);
  });
  return diffText as readonly FileDiff[];
}

interface State {
  /** The text the blocks are applied to, and what they have made of it. */
  read: string;
  content: string;
  /** `content` as ranges of `read` (text/change-list.ts), while every block said what it changed. */
  changes: TextChange[] | undefined;
  /** Every block applied was written as sent by an exact match (EditReport.literal). */
  literal: boolean;
  shifts: LineShift[];
  applied: BlockReport[];
  failed: EditError[];
  alreadyApplied: EditError[];
}

/** A block whose result already stands (see already-applied.ts), its message led by the block's label. */
function alreadyAppliedOf(error: EditError, op: EditOp): EditError | undefined {
  const note = alreadyAppliedNote(error, "block");
  return note && withOrigin(note, op);
}

/**
 * A block that asks for no change: REPLACE is SEARCH, or SEARCH with
 * trailing spaces added (a tokenizer habit, never an intent; removing them
 * may be one, so that is still an edit). Whatever the file holds, there is
 * nothing to do, and refusing it would only make the model send it again.
 */
function changesNothing(block: SearchReplaceBlock): boolean {
  if (block.search === block.replace) return true;
  const find = block.search.split("\n");
  const repl = block.replace.split("\n");
  return find.length === repl.length && repl.every((r, k) => {
    const f = find[k] as string;
    return r === f || (r.length > f.length && r.trimEnd() === f.trimEnd());
  });
}

function applyBlocks(state: State, blocks: readonly SearchReplaceBlock[], diffIndex: number | undefined, override: number | undefined, offset: number, opts: ResolvedOptions): void {
  const ops: EditOp[] = [];
  const appends: EditOp[] = [];
  blocks.forEach((block, k) => {
    const op = blockOp(block, diffIndex, k === 0 ? override : undefined, offset);
    if (block.search.trim() === "") appends.push(op);
    else if (changesNothing(block)) state.alreadyApplied.push(withOrigin(new EditError("ALREADY_APPLIED", "SEARCH and REPLACE are the same text, so the block changes nothing; nothing to do."), op));
    else ops.push(op);
  });
  if (ops.length > 0) {
    const report = applyOps(state.content, ops, { opts, vocab: VOCABULARY, shifts: state.shifts });
    if (report.applied.length > 0) state.changes = state.changes && report.change ? withChange(state.read, state.changes, report.change) : undefined;
    if (report.applied.length > 0 && !report.literal) state.literal = false;
    state.content = report.content;
    state.shifts = report.shifts;
    for (const a of report.applied) state.applied.push(blockReport(a));
    for (const f of report.failed) {
      const done = alreadyAppliedOf(f.error, f.op);
      if (done) state.alreadyApplied.push(done);
      else state.failed.push(f.error);
    }
  }
  for (const op of appends) {
    const r = appendBlock(state.content, op);
    if (r.error) {
      (r.error.code === "ALREADY_APPLIED" ? state.alreadyApplied : state.failed).push(r.error);
      continue;
    }
    state.content = r.content;
    state.literal = false;
    // An append renders the file's last lines again: told apart from the rest, only by reading both texts whole.
    state.changes = undefined;
    state.applied.push({ ...blockReport(r.report), strategy: r.report.strategy === "create" ? "create" : "append" });
  }
}

/**
 * Applies SEARCH/REPLACE blocks to `content`. Throws EditError PARSE when a
 * diff given as text does not parse, INVALID_INPUT for bad arguments; every
 * per-block problem (NO_CHANGE, NOT_FOUND, AMBIGUOUS, CONFLICT) is
 * returned in `failed`, prefixed with the block it concerns and
 * with `detail.index` set. `complete` says whether every block applied.
 */
export function applySearchReplace(content: string, diffText: SearchReplaceInput, options: SearchReplaceOptions = {}): SearchReplaceResult {
  return applySearchReplaceWithChanges(content, diffText, options).result;
}

/** `applySearchReplace`, and what it changed as ranges of `content` when every block said so (for the file layer; not exported by the package). */
export function applySearchReplaceWithChanges(
  content: string,
  diffText: SearchReplaceInput,
  options: SearchReplaceOptions = {},
): { result: SearchReplaceResult; changes?: TextChange[]; literal?: true } {
  if (typeof content !== "string") {
    throw new EditError("INVALID_INPUT", `content must be a string, got ${content === null ? "null" : typeof content}.`);
  }
  const input = checkItems(diffText);
  const o = optionsObject<SearchReplaceOptions>(options);
  const opts = resolveOptions(o);
  const startLine = checkLine(o.startLine, "startLine");
  const offset = checkLine(o.lineOffset, "lineOffset") ?? 0;
  if (typeof input === "string") checkLimit("maxResponseSize", input.length, opts.limits);
  else for (const item of input) checkLimit("maxResponseSize", item.content.length, opts.limits);
  const state: State = { read: content, content, changes: [], literal: true, shifts: [], applied: [], failed: [], alreadyApplied: [] };
  let unescaped = false;

  if (typeof input === "string") {
    const whole = unescapeWholeText(input);
    unescaped = whole.unescaped;
    applyBlocks(state, parseSearchReplace(whole.text), undefined, startLine, offset, opts);
  } else {
    input.forEach((item, d) => {
      let blocks: SearchReplaceBlock[];
      try {
        blocks = parseSearchReplace(unescapeWholeText(item.content).text);
      } catch (error) {
        if (!(error instanceof EditError)) throw error;
        state.failed.push(new EditError(error.code, `Diff ${d + 1}: ${error.message}`, { ...error.detail, diffIndex: d }));
        return;
      }
      applyBlocks(state, blocks, d, checkLine(item.startLine, "startLine"), 0, opts);
    });
  }
  const failed = state.failed
    .map((error, order) => ({ error, order }))
    .sort(
      (a, b) =>
        Number(a.error.detail.diffIndex ?? 0) - Number(b.error.detail.diffIndex ?? 0) ||
        Number(a.error.detail.index ?? 0) - Number(b.error.detail.index ?? 0) ||
        a.order - b.order,
    )
    .map((f) => f.error);
  return {
    result: { content: state.content, applied: state.applied, failed, alreadyApplied: state.alreadyApplied, complete: failed.length === 0, ...(unescaped && { unescaped }) },
    ...(state.changes && { changes: state.changes, ...(state.literal && { literal: true as const }) }),
  };
}
