/**
 * A file's SEARCH/REPLACE blocks and str_replace edits, each its own edit of
 * a response, applied in sequence without a new whole text per edit (issue
 * 39, item 6). "Block" below is either.
 *
 * Why: each block is applied to the text the blocks before it gave, and a
 * new string over ~128 kB is flattened into V8's large-object space at
 * ~1.3 ms (200 kB) to ~5 ms (1 MB) each (0.04 ms at 120 kB; no GC flag
 * changes it): 2,000 blocks on a 1 MB file took 7 s of CPU for that alone.
 *
 * How: the text is carried as a flat `base` and the clean edits made since
 * (`pending`, ranges of the base), and the next block is located in the base.
 * Its result there stands for its result in the text with the pending edits
 * (the sequential result, which the per-block path computes) when it is
 * clean and nothing pending can reach it:
 *
 * 1. One block, not un-escaped, one reading (a str_replace edit: read
 *    literally, see `strReplaceBlock`): its place depends on the text alone.
 *    Found by the exact strategy, once, score 1: no other strategy ran, and
 *    no rule chose among places but a str_replace edit's whole-line tiers,
 *    which choose it again among any of the base's places that include it
 *    (rule 3: the edited text's places are such). A block with a line hint
 *    (`:start_line:`) names a line of the edited text. It is located in the
 *    base with the hint on that line's base line (`baseHint`: the lines
 *    from it that the block spans are base lines, no pending edit among
 *    them), and carried when found on the hinted line, or found at the one
 *    place it fits (no `resolvedBy`). On the hinted line, the engine takes
 *    the place at once, whatever else fits (locate-op.ts `exactAtHint`), in
 *    both texts; at its one place, what the hint is read for is the lines
 *    at the hint (rival.ts `rivalAtHint`), the same lines in both texts.
 * 2. The result is written literally (the engine says so: `literal`, every
 *    op an exact match written as sent, exact-literal.ts, or one inside a
 *    line's indentation written as sent, splice.ts `writtenOnItsLine`),
 *    which reads no line but the place's own: whole-line tiers and the
 *    splice's line ends read its lines. No pending edit is on them, nor on
 *    the lines the change is kept pending as (a line deleted with its break
 *    reaches the next line, or the line above at the text's end), and a base
 *    line break stands between it and each. Around it only "already applied
 *    around the match" reads, as many lines each side as the replacement has
 *    more than the match (`reach`): the replacement stands on none of them
 *    (else the already-applied rule searches the whole text), read in the
 *    edited text when a pending edit is among them. A response editing
 *    consecutive lines, top to bottom or bottom to top, is carried. An edit
 *    that deletes lines (no line written) reads whether the text has more
 *    lines than it deletes: both texts must say the same. (Warnings, which
 *    read the lines after the place, are not in a file's report.)
 * 3. Every pending edit is whole lines (from a line's start to a line's
 *    end; an edit inside a line is kept as its line), so that a line of the
 *    edited text is the base's or the edit's, and the find text is nowhere
 *    in a pending edit's new text nor within its own length of it: every
 *    other exact place in the edited text is then one of the base, on the
 *    base's lines, where the strategy found none (one more place would have
 *    made the block ambiguous).
 *
 * Anything else (a failed block, a fuzzy one, an append, a hint) makes the
 * text whole again, once, and the block runs as before on it: decisions,
 * reports and messages are those of the per-block path (the property test
 * in test/carried-text.test.ts compares them on random responses).
 */
import { lastAtMost } from "../arrays.ts";
import { standsNear } from "../engine/already-applied.ts";
import { rivalLinesOfExact } from "../match/rival.ts";
import type { EditOp } from "../engine/ops.ts";
import type { SearchReplacePayload } from "../formats/search-replace-format.ts";
import { blockOp } from "../formats/search-replace.ts";
import { parseSearchReplace } from "../formats/search-replace-parse.ts";
import { replaceOp } from "../formats/str-replace.ts";
import type { StrReplacePayload } from "../formats/str-replace-format.ts";
import type { FileApplyResult, FileEdit, OpOutcome } from "../formats/types.ts";
import type { TextChange } from "../text/common-ends.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { Document } from "../text/document.ts";
import { shareDocument } from "../text/document-pool.ts";
import { unescapeWholeText } from "../text/unescape-whole.ts";

/**
 * Pending edits before the text is made whole: each block searches around
 * every one (its find text's length each side), and a whole 1 MB text costs
 * ~5-15 ms (the join, the new document): 256 keep both small.
 */
const MAX_PENDING = 256;

/**
 * The same for a block whose find text is one line: it is looked for in the
 * pending edits' texts through their 4-grams (`grams`), and its place among
 * them by halving, so a response's 2,000 one-line blocks need not make a
 * 1 MB text whole (~7 ms each, and its line hashes anew) every 256 blocks.
 */
const MAX_PENDING_ONE_LINE = 4_096;

/**
 * Characters of the edited text kept each side of a pending edit's new text
 * for `holds`: a find text up to that long is looked for in them, kept
 * until an edit lands that near. Rebuilt for every block, those pieces
 * (up to 256 a block) cost ~0.1 ms a block of three lines (issue 39).
 */
const NEAR = 256;

/** Characters of a gram of `grams`. */
const GRAM = 4;

/**
 * Tests turn it off to compare with the per-block path, and read how many blocks it carried and the most
 * edits pending at once; `near` off, `holds` builds its window anew each time, and `reused` counts the
 * pieces it kept that served again, `ranges` the most changed ranges a file's carried blocks kept for its report,
 * `partsDiffs` the reports diffed from over MAX_CHANGES ranges; `checked` on, each edit made pending is checked
 * apart from its neighbours, on lines of its own that are its range's (test/carried-text.test.ts). Not a public API.
 */
export const carrying = { on: true, carried: 0, deepest: 0, near: true, reused: 0, ranges: 0, partsDiffs: 0, checked: false };

/** A clean edit made since the base: a range of the base, its new text, and its lines. */
interface Pending {
  start: number;
  end: number;
  text: string;
  /** The base lines it replaced, 0-based, half-open. */
  firstLine: number;
  endLine: number;
  /** Lines added less lines removed. */
  lineDelta: number;
  /** The edited text around its new text, NEAR characters each side (fewer at the text's ends), once asked; dropped when an edit lands that near. */
  near?: { text: string; before: number };
}

/** A block that a result in the base may stand for (rule 1), with what the rules read of it. */
export interface CarriedBlock {
  op: EditOp;
  /** The find text as searched (LF breaks). */
  find: string;
  /** Lines each side of the place that the already-applied check reads: the replacement's past the find text's (rule 2). */
  reach: number;
  /** The replacement writes no line: the render reads whether the text has more lines than the place (rule 2). */
  deletes: boolean;
  /** The line of the edited text the block's hint names (1-based), if it has one (rule 1). */
  hint?: number;
  /** Lines of the find text, and of them those not blank. */
  lines: number;
  nonBlank: number;
}

/** A line no text has: a hint there chooses nothing (resolve.ts `pickByHint` reads 40 lines around it), as no hint. */
const NO_LINE = Number.MAX_SAFE_INTEGER;

/** The edit's one block (a SEARCH/REPLACE block, a str_replace edit), when its place depends on the text alone; else undefined. */
export function carriedBlock(edit: FileEdit): CarriedBlock | undefined {
  if (!carrying.on) return undefined;
  if (edit.format === "search-replace") return searchReplaceBlock(edit.payload as SearchReplacePayload);
  if (edit.format === "str-replace") return strReplaceBlock(edit.payload as StrReplacePayload);
  return undefined;
}

function searchReplaceBlock(payload: SearchReplacePayload): CarriedBlock | undefined {
  const whole = unescapeWholeText(payload.diff);
  if (whole.unescaped) return undefined;
  let blocks: ReturnType<typeof parseSearchReplace>;
  try {
    blocks = parseSearchReplace(whole.text);
  } catch {
    return undefined;
  }
  const block = blocks.length === 1 ? blocks[0] : undefined;
  if (!block || block.search.trim() === "") return undefined;
  const op = blockOp(block, undefined, payload.startLine, payload.offset);
  // Line numbers pasted into the SEARCH section make a second reading, the hint their first.
  if (op.readings.length !== 1) return undefined;
  const carried = withReach(op, block.search.replaceAll("\r\n", "\n"), block.replace);
  return op.hints.startLine === undefined ? carried : { ...carried, hint: op.hints.startLine };
}

/**
 * A str_replace edit is read literally (one reading, no hint: str-replace.ts),
 * so rule 1 holds for it as for a block, but for what its format reads
 * beyond the engine's place: no new text holding the old
 * (`coveredByReplacement` reads every occurrence of the old text in the
 * whole text); no insert. A lone CR (not of a CRLF, which the engine reads
 * as LF) would put a CR in a pending edit's text, which the whole text's
 * document reads otherwise. An edit replacing every occurrence
 * (`replaceAll`) is carried too, each place its own change kept pending
 * apart (`cleanResult`, `carry`): by rule 3 the edited text holds the base's
 * places and no other, and rule 2 keeps each away from the pending edits.
 * 2,000 such edits on a 1 MB file made a new whole text each: ~9.6 s (one
 * place each), ~22 s (two places far apart).
 */
function strReplaceBlock(payload: StrReplacePayload): CarriedBlock | undefined {
  const { oldString, newString } = payload;
  if (payload.insertLine !== undefined || typeof oldString !== "string" || typeof newString !== "string") return undefined;
  const find = oldString.replaceAll("\r\n", "\n");
  const loneCr = find.includes("\r") || newString.replaceAll("\r\n", "\n").includes("\r");
  if (find.trim() === "" || loneCr || newString.includes(oldString)) return undefined;
  return withReach(replaceOp(oldString, newString, payload.replaceAll === true ? { replaceAll: true } : {}), find, newString);
}

/** `find` as searched (LF breaks), and what rule 2 reads around the place. */
function withReach(op: EditOp, find: string, replace: string): CarriedBlock {
  const found = countBreaks(find, 0, find.length) + 1;
  const written = countBreaks(replace, 0, replace.length) + 1;
  const nonBlank = find.split("\n").filter((l) => l.trim() !== "").length;
  return { op, find, reach: Math.max(0, written - found), deletes: replace === "", lines: found, nonBlank };
}

/**
 * The one op of a result and its changes, one a place, when clean (rule 1);
 * else undefined. A replaceAll edit of more places than the engine gives
 * apart (splice.ts `MAX_PARTS`) has one change for all: kept pending, it
 * would keep most of the file pending (strReplaceBlock).
 */
export function cleanResult(result: FileApplyResult): { op: OpOutcome; changes: readonly TextChange[] } | undefined {
  const op = result.ops.length === 1 ? result.ops[0] : undefined;
  const changes = result.changes;
  if (!op || !changes || changes.length !== (op.places ?? 1)) return undefined;
  if (result.content === undefined || result.literal !== true || result.deleted || result.moveTo !== undefined || result.gitMode !== undefined) return undefined;
  if (op.status !== "applied" || op.strategy !== "exact" || op.score !== 1 || op.fuzzy || op.startLine === undefined || op.endLine === undefined) return undefined;
  return { op, changes };
}

/** A change as whole lines of the base, and those lines (0-based, half-open). */
type WholeChange = TextChange & { firstLine: number; endLine: number };

/** Where a change of a carried op stands among the pending edits: the index it goes in at, and the shifts of its lines and offsets. */
interface Placed {
  change: TextChange;
  /** The change as whole lines of the base, as it is kept pending (`wholeLines`). */
  whole: WholeChange;
  at: number;
  lineShift: number;
  shift: number;
}

/** A text as a flat base and the clean edits made since. */
export class CarriedText {
  readonly base: string;
  /** The base's document, kept alive and shared so that each block's `Document.from(base)` finds it. */
  private readonly doc: Document;
  private readonly pending: Pending[] = [];
  /** Where each pending edit starts in the edited text, and the edited text's length. */
  private at: number[] = [];
  /** Where each pending edit's lines start in the edited text (0-based), and the lines added less removed by all. */
  private lineAt: number[] = [];
  private lineDelta = 0;
  /** The GRAM-character substrings of every pending edit's text, hashed: a text missing one of a find text's holds none of it. */
  private readonly grams = new Set<number>();
  private total: number;
  /** No CR in the base, and its document's text is the base (no BOM): known once asked. */
  private plain: boolean | undefined;

  constructor(base: string) {
    this.base = base;
    this.total = base.length;
    this.doc = Document.from(base);
    shareDocument(this.doc);
  }

  /** Whether a base result may stand for another: the base has no CR (offsets are the raw text's) and room for one more edit. */
  get open(): boolean {
    return this.openFor(undefined);
  }

  /** `open`, for a block whose find text is `find`, with room for `count` edits: one of one line has more (MAX_PENDING_ONE_LINE). */
  openFor(find: string | undefined, count = 1): boolean {
    this.plain ??= !this.base.includes("\r") && this.doc.raw === this.doc.text;
    const room = find !== undefined && !find.includes("\n") ? MAX_PENDING_ONE_LINE : MAX_PENDING;
    return this.pending.length + count <= room && this.plain;
  }

  get empty(): boolean {
    return this.pending.length === 0;
  }

  /**
   * The line to locate hinted `block` at in the base (rule 1): the base's
   * line of the hinted line of the edited text, when the lines from it that
   * the block spans are lines of the edited text, and base lines in one
   * stretch (no pending edit wrote one or stands between two; a line deleted
   * above the first does not). Else no line (NO_LINE): the hinted lines are
   * then past the end, or a pending edit's among them, where the find text
   * is not (rule 3), so the hint in the edited text chooses nothing either;
   * what else the engine reads there is whether those lines hold the find
   * text's grown (an exact match's rival, read for finds of two lines or
   * more only: rival.ts): when they do, undefined (not carried).
   */
  baseHint(block: CarriedBlock): number | undefined {
    const line = block.hint as number;
    const window = this.window(line - 1, line - 2 + block.lines);
    if (window !== undefined || block.nonBlank < 2) return window ?? NO_LINE;
    if (block.find.endsWith("\n")) return undefined;
    const model = block.find.split("\n");
    const start = this.editedLineStart(line - 1);
    if (start === undefined) return NO_LINE;
    const { lines } = this.linesAround(start, 0, model.length);
    return rivalLinesOfExact((j) => lines[j], model) ? undefined : NO_LINE;
  }

  /** Where line `line` (0-based) of the edited text starts in it, or undefined past its end. */
  private editedLineStart(line: number): number | undefined {
    if (line < 0 || line >= this.doc.lineCount + this.lineDelta) return undefined;
    const k = lastAtMost(this.lineAt, line);
    const p = this.pending[k];
    if (!p) return this.doc.lineStart(line);
    const from = this.lineAt[k] as number;
    // Its lines in the edited text: the line is one of them (a line of its text), or a base line below it.
    const end = from + p.endLine - p.firstLine + p.lineDelta;
    if (line >= end) return this.doc.lineStart(line - (end - p.endLine)) + (this.at[k] as number) + p.text.length - p.end;
    let at = 0;
    for (let j = from; j < line; j++) at = p.text.indexOf("\n", at) + 1;
    return (this.at[k] as number) + at;
  }

  /** The base line (1-based) of line `first` (0-based) of the edited text, when lines `first` to `last` are base lines in one stretch. */
  private window(first: number, last: number): number | undefined {
    if (first < 0 || last >= this.doc.lineCount + this.lineDelta) return undefined;
    // The last pending edit whose lines in the edited text start at or before the window's last line.
    const k = lastAtMost(this.lineAt, last);
    const p = this.pending[k];
    if (!p) return first + 1;
    // Its lines in the edited text end by the window's first line: the window is below it, moved by it and those above.
    const end = (this.lineAt[k] as number) + p.endLine - p.firstLine + p.lineDelta;
    if (end > first) return undefined;
    return first - (end - p.endLine) + 1;
  }

  /**
   * `op` and `change`, a clean result of `block` in the base, as the result
   * in the text with the pending edits (lines and offsets moved by those
   * above it), when rules 2 and 3 hold; else undefined. The edit is then
   * pending too. A hinted block was located with its hint at `baseHint`.
   */
  carry(block: CarriedBlock, op: OpOutcome, changes: readonly TextChange[], baseHint?: number): { op: OpOutcome; changes: TextChange[] } | undefined {
    const first = (op.startLine as number) - 1;
    // Placed by a rule that chose among several places, but for the hint on the place's line (rule 1).
    if (op.resolvedBy !== undefined && (block.hint === undefined || baseHint !== first + 1)) return undefined;
    if (!this.openFor(block.find, changes.length)) return undefined;
    const one = changes.length === 1;
    const lines = this.changeLines(op, changes);
    if (!lines) return undefined;
    const placed: Placed[] = [];
    for (const l of lines) {
      const whole = this.wholeLines(l.first, l.end, l.change, !one);
      // Places of one edit apart as pending edits are: a line deleted with its break reaches the next place's line.
      const before = placed.at(-1);
      if (before && !apart(before.whole, whole)) return undefined;
      const p = this.place(l.first, l.end, l.change, whole);
      if (!p) return undefined;
      placed.push(p);
    }
    if (one && this.standsNear(block, placed[0] as Placed, first, op.endLine as number)) return undefined;
    // Deleting lines: whether the text has more lines than it deletes (line-edits.ts, the text left empty) is read in both.
    const removed = (op.endLine as number) - first;
    if (block.deletes && this.doc.lineCount > removed !== this.doc.lineCount + this.lineDelta > removed) return undefined;
    if (this.mayHold(block.find)) return undefined;
    carrying.carried++;
    // In order, each below those before it: its index is where it stood, past them.
    for (const [k, p] of placed.entries()) this.insert(p.at + k, p.whole);
    const top = placed[0] as Placed;
    const bottom = placed.at(-1) as Placed;
    return {
      op: { ...op, startLine: first + 1 + top.lineShift, endLine: (op.endLine as number) + bottom.lineShift },
      changes: placed.map((p) => ({ start: p.change.start + p.shift, end: p.change.end + p.shift, text: p.change.text })),
    };
  }

  /**
   * Where `change` of one place, on lines `first` to `end` (0-based, half-open), kept pending as `whole`, stands
   * among the pending edits, when rule 2 holds: none on the place's lines or `whole`'s, a base line break
   * between `whole` and each.
   */
  private place(first: number, end: number, change: TextChange, whole: WholeChange): Placed | undefined {
    const pending = this.pending;
    // Pending edits are apart and in order, so those wholly above the place's lines and `whole`'s are the first `at`
    // (found by halving); the next one is the nearest below it, and the shifts above are where that one starts less
    // where it started.
    const above = Math.min(first, whole.firstLine);
    let at = 0;
    let hi = pending.length;
    while (at < hi) {
      const mid = (at + hi) >> 1;
      if ((pending[mid] as Pending).endLine <= above) at = mid + 1;
      else hi = mid;
    }
    const next = pending[at];
    if (next && Math.max(end, whole.endLine) > next.firstLine) return undefined;
    // A line break of the base between it and each neighbour, so that a line of the edited text is the base's or
    // one edit's (rule 3): a change ending at an empty line's break meets the next line's (the lines alone allow it).
    const prev = pending[at - 1];
    if ((prev && !apart(prev, whole)) || (next && !apart(whole, next))) return undefined;
    const lineShift = next ? (this.lineAt[at] as number) - next.firstLine : this.lineDelta;
    const shift = next ? (this.at[at] as number) - next.start : this.total - this.base.length;
    return { change, whole, at, lineShift, shift };
  }

  /**
   * Each change of `op` with its lines (0-based, half-open): one place, the
   * op's; several (a replaceAll edit's), each change's own, in order, or
   * undefined when two share a line (each is kept pending apart). Several
   * take the line the engine gave with each, else are counted from one to
   * the next, not asked of the document, whose line lookups walk from the
   * last one asked (two places 12,500 lines apart, 2,000 times: ~140 ms of
   * a 1 MB input).
   */
  private changeLines(op: OpOutcome, changes: readonly TextChange[]): { change: TextChange; first: number; end: number }[] | undefined {
    if (changes.length === 1) return [{ change: changes[0] as TextChange, first: (op.startLine as number) - 1, end: op.endLine as number }];
    const b = this.base;
    const out: { change: TextChange; first: number; end: number }[] = [];
    for (const change of changes) {
      const prev = out.at(-1);
      // The engine's line when it gave one (apply-ops.ts: counted, two places 12,500 lines apart cost ~70 ms of 2,000 edits).
      const first = change.line ?? (prev ? prev.first + countBreaks(b, prev.change.start, change.start) : this.doc.lineAt(change.start));
      if (prev && first < prev.end) return undefined;
      out.push({ change, first, end: first + countBreaks(b, change.start, Math.max(change.start, change.end - 1)) + 1 });
    }
    return out;
  }

  /**
   * Whether the block's replacement stands around its one place, lines `first` to `end` of the base, placed as
   * `p` (rule 2): read in the base, or in the edited text when a pending edit is within `reach` lines of it.
   */
  private standsNear(block: CarriedBlock, p: Placed, first: number, end: number): boolean {
    const place = { startLine: first, endLine: end };
    const prev = this.pending[p.at - 1];
    const next = this.pending[p.at];
    const near = block.reach > 0 && ((prev && prev.endLine > first - block.reach) || (next && next.firstLine < end + block.reach));
    if (!near) return standsNear({ doc: this.doc }, block.op, place);
    const { lines, at } = this.linesAround(this.doc.lineStart(first) + p.shift, block.reach, end - first + block.reach);
    const view = { line: (k: number) => lines[k] ?? "", hasLine: (k: number) => k >= 0 && k < lines.length };
    return standsNear({ doc: view }, block.op, { startLine: at, endLine: at + end - first });
  }

  /**
   * Lines of the edited text: up to `above` before the line that starts at
   * `pos`, and up to `count` from it (fewer at the text's ends, where the
   * text has no more); `at`, the index of the line at `pos` among them.
   */
  private linesAround(pos: number, above: number, count: number): { lines: string[]; at: number } {
    let before: string[] = [];
    for (let w = 256; ; w *= 4) {
      const from = Math.max(0, pos - w);
      // The piece after the last break (at `pos`) is empty; the first is part of a line unless the text starts there,
      // and is left out by taking the last `above` of more.
      const pieces = this.slice(from, pos).split("\n").slice(0, -1);
      if (from === 0 || pieces.length > above) {
        before = pieces.slice(Math.max(0, pieces.length - above));
        break;
      }
    }
    let after: string[] = [];
    for (let w = 256; ; w *= 4) {
      const to = Math.min(this.total, pos + w);
      const pieces = this.slice(pos, to).split("\n");
      if (to === this.total) {
        // A final break ends the last line; no line follows it.
        after = (pieces.at(-1) === "" ? pieces.slice(0, -1) : pieces).slice(0, count);
        break;
      }
      if (pieces.length > count) {
        after = pieces.slice(0, count);
        break;
      }
    }
    return { lines: [...before, ...after], at: before.length };
  }

  /**
   * Whether `find` may stand in the edited text over a pending edit's new
   * text (rule 3): false means its exact places in the edited text are
   * those of the base away from the pending edits.
   */
  mayHold(find: string): boolean {
    // A find text of one line overlaps a pending edit's new text only inside one of its lines, and that text is
    // whole lines of the edited text: its own text holds the place (1,995 one-line blocks, each checked against
    // up to 256 pending edits, spent ~0.3 s of CPU building their neighbourhoods).
    if (!find.includes("\n")) {
      if (!this.gramsHold(find)) return false;
      for (const p of this.pending) if (p.text.includes(find)) return true;
      return false;
    }
    // An occurrence over a pending edit's text has one of its lines inside a line of that text (the edited text's
    // lines are the base's or one edit's), whose 4-grams are then all in `grams`: with no such line, none is (2,000
    // blocks of two lines, each checked against up to 256 pending edits: ~0.15 s of CPU).
    if (!find.split("\n").some((line) => this.gramsHold(line))) return false;
    for (let k = 0; k < this.pending.length; k++) if (this.holds(k, find)) return true;
    return false;
  }

  /**
   * Starts carrying from the base: `op` and `changes` are the sequential
   * result (nothing pending), now pending; false (nothing pending) when two
   * of a replaceAll edit's places share a line.
   */
  start(op: OpOutcome, changes: readonly TextChange[]): boolean {
    const lines = this.changeLines(op, changes);
    if (!lines) return false;
    const wholes = lines.map((l) => this.wholeLines(l.first, l.end, l.change, changes.length > 1));
    for (let k = 1; k < wholes.length; k++) if (!apart(wholes[k - 1] as WholeChange, wholes[k] as WholeChange)) return false;
    for (const [k, whole] of wholes.entries()) this.insert(k, whole);
    return true;
  }

  /**
   * `change` as whole lines of the base (rule 3), and those lines (0-based,
   * half-open): as it is when it runs from a line's start to a line's end
   * (its lines `from` to `to`, its place's), else widened to them, the
   * base's characters around it kept (a str_replace edit of part of a line,
   * a line deleted with its break). Margins keep it apart from the others:
   * it reaches one line past its place's at most, below them (a change that
   * ends where a line starts).
   */
  private wholeLines(from: number, to: number, change: TextChange, startsOnFrom: boolean): WholeChange {
    const b = this.base;
    const startsLine = change.start === 0 || b.charCodeAt(change.start - 1) === 10;
    const endsLine = change.end === b.length || b.charCodeAt(change.end) === 10;
    // A change starting at an empty line's break (a last line deleted with the break before it) starts on that line.
    if (startsLine && endsLine) return { ...change, firstLine: b.charCodeAt(change.start) === 10 ? this.doc.lineAt(change.start) : from, endLine: to };
    const start = startsLine ? change.start : b.lastIndexOf("\n", change.start - 1) + 1;
    const next = endsLine ? change.end : b.indexOf("\n", change.end);
    const end = next === -1 ? b.length : next;
    const text = b.slice(start, change.start) + change.text + b.slice(change.end, end);
    // Counted from `from` when the change starts on it (a replaceAll edit's places, far apart: the document's lookups walk).
    const firstLine = startsOnFrom ? from : this.doc.lineAt(start);
    return { start, end, text, firstLine, endLine: startsOnFrom ? from + countBreaks(b, start, end) + 1 : this.doc.lineAt(end) + 1 };
  }

  /** `change`, whole lines of the base (`wholeLines`), pending at index `k`. */
  private insert(k: number, change: WholeChange): void {
    if (carrying.checked) this.check(k, change);
    const lines = countBreaks(this.base, change.start, change.end);
    const firstLine = change.firstLine;
    const lineDelta = countBreaks(change.text, 0, change.text.length) - lines;
    this.pending.splice(k, 0, { start: change.start, end: change.end, text: change.text, firstLine, endLine: change.endLine, lineDelta });
    // The edits before k keep their places; the new one starts after their shift, and those after move by its own.
    const at = this.at;
    const lineAt = this.lineAt;
    const prev = this.pending[k - 1];
    const before = prev ? (at[k - 1] as number) - prev.start + prev.text.length - (prev.end - prev.start) : 0;
    const linesBefore = prev ? (lineAt[k - 1] as number) - prev.firstLine + prev.lineDelta : 0;
    const delta = change.text.length - (change.end - change.start);
    at.splice(k, 0, change.start + before);
    lineAt.splice(k, 0, firstLine + linesBefore);
    for (let j = k + 1; j < at.length; j++) {
      at[j] = (at[j] as number) + delta;
      lineAt[j] = (lineAt[j] as number) + lineDelta;
    }
    this.total += delta;
    this.lineDelta += lineDelta;
    this.forgetNear(k);
    if (this.pending.length > carrying.deepest) carrying.deepest = this.pending.length;
    this.addGrams(change.text);
  }

  /**
   * Throws unless `change`, to go in at `k`, stands after the edit before it and before the one after, on lines
   * of its own, and its lines are those of its range in the base.
   */
  private check(k: number, change: WholeChange): void {
    const prev = this.pending[k - 1];
    const next = this.pending[k];
    if ((prev && !apart(prev, change)) || (next && !apart(change, next))) throw new Error(`pending edit ${JSON.stringify(change)} meets another at ${k}`);
    const lines = this.doc.lineAt(Math.max(change.start, change.end - 1)) + 1 - this.doc.lineAt(change.start);
    if (this.doc.lineAt(change.start) !== change.firstLine || (change.end > change.start && change.endLine - change.firstLine < lines)) {
      throw new Error(`pending edit ${JSON.stringify(change)} is not on lines ${change.firstLine}-${change.endLine}`);
    }
  }

  private addGrams(text: string): void {
    for (let i = 0; i + GRAM <= text.length; i++) this.grams.add(gramAt(text, i));
  }

  /** False when a GRAM-character substring of `find` is in no pending edit's text (then `find` is in none); true when it may be. */
  private gramsHold(find: string): boolean {
    if (find.length < GRAM) return true;
    for (let i = 0; i + GRAM <= find.length; i++) if (!this.grams.has(gramAt(find, i))) return false;
    return true;
  }

  /** The whole text: the base with every pending edit, one string. */
  text(): string {
    if (this.pending.length === 0) return this.base;
    const pieces: string[] = [];
    let from = 0;
    for (const p of this.pending) {
      pieces.push(this.base.slice(from, p.start), p.text);
      from = p.end;
    }
    pieces.push(this.base.slice(from));
    return pieces.join("");
  }

  /** Whether `find` occurs in the edited text over pending edit `k`'s new text or within its own length of it (rule 3). */
  private holds(k: number, find: string): boolean {
    const p = this.pending[k] as Pending;
    const a = this.at[k] as number;
    const b = a + p.text.length;
    const n = find.length;
    if (n > NEAR || !carrying.near) return this.slice(Math.max(0, a - n), Math.min(this.total, b + n)).includes(find);
    // The same window, inside the piece kept around the edit: an occurrence starting in it and ending by its end.
    const from = Math.max(0, a - NEAR);
    if (p.near) carrying.reused++;
    p.near ??= { text: this.slice(from, Math.min(this.total, b + NEAR)), before: a - from };
    const { text, before } = p.near;
    const lo = Math.max(0, before - n);
    const at = text.indexOf(find, lo);
    return at !== -1 && at + n <= Math.min(text.length, before + p.text.length + n);
  }

  /**
   * Drops the pieces kept around the pending edits that the new edit `k`
   * (its place in the edited text now in `at`) lands within NEAR characters
   * of: the text around them changed. Others keep theirs (an edit further
   * off moves their characters, it does not change them).
   */
  private forgetNear(k: number): void {
    const pending = this.pending;
    const at = this.at;
    const start = at[k] as number;
    const end = start + (pending[k] as Pending).text.length;
    for (let j = k - 1; j >= 0; j--) {
      const p = pending[j] as Pending;
      if ((at[j] as number) + p.text.length + NEAR < start) break;
      delete p.near;
    }
    for (let j = k + 1; j < pending.length; j++) {
      if ((at[j] as number) - NEAR > end) break;
      delete (pending[j] as Pending).near;
    }
  }

  /** Characters [from, to) of the edited text. */
  private slice(from: number, to: number): string {
    const pending = this.pending;
    const at = this.at;
    // The first pending edit that ends after `from`.
    let lo = 0;
    let hi = pending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((at[mid] as number) + (pending[mid] as Pending).text.length > from) hi = mid;
      else lo = mid + 1;
    }
    let out = "";
    let t = from;
    for (let j = lo; t < to; ) {
      const p = pending[j];
      if (p && t >= (at[j] as number)) {
        const o = t - (at[j] as number);
        const n = Math.min(p.text.length - o, to - t);
        out += p.text.slice(o, o + n);
        t += n;
        j++;
        continue;
      }
      // In the base, before pending edit j (or after the last): its offset there is t less the shift so far.
      const shift = p ? (at[j] as number) - p.start : this.total - this.base.length;
      const n = Math.min(p ? (at[j] as number) : this.total, to) - t;
      out += this.base.slice(t - shift, t - shift + n);
      t += n;
    }
    return out;
  }
}

/**
 * Whether pending edit `a` ends before `b` starts, on lines of its own, with a line break of the base between
 * them: a line of the edited text is then the base's or one edit's (rule 3).
 */
function apart(a: { end: number; endLine: number }, b: { start: number; firstLine: number }): boolean {
  return a.end < b.start && a.endLine <= b.firstLine;
}

/** A hash of `s[i, i + GRAM)` (equal substrings, equal hashes; a collision only costs a scan). */
function gramAt(s: string, i: number): number {
  let h = 0;
  for (let k = i; k < i + GRAM; k++) h = (Math.imul(h, 31) + s.charCodeAt(k)) | 0;
  return h;
}
