/**
 * A file's SEARCH/REPLACE blocks, each its own edit of a response, applied
 * in sequence without a new whole text per block (issue 39, item 6).
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
 * 1. One block, no line hint, not un-escaped: its place depends on the text
 *    alone. Found by the exact strategy, once, score 1: no other strategy
 *    ran, no rule chose among places.
 * 2. Every pending edit is more lines away from the place than the block
 *    and its replacement have (plus two): the checks that read around a
 *    place (whole-line tiers, the splice's line ends, "already applied
 *    around the match", which reads as many lines as the replacement has)
 *    read the same lines in both texts. The replacement does not stand near
 *    the place (else the already-applied rule searches the whole text).
 * 3. The find text is nowhere in the lines around a pending edit (its new
 *    text, and the find text's length beyond the lines it touches): every
 *    other exact place in the edited text is then one of the base, where
 *    the strategy found none (one ambiguous place would have failed it).
 *
 * Anything else (a failed block, a fuzzy one, an append, a hint) makes the
 * text whole again, once, and the block runs as before on it: decisions,
 * reports and messages are those of the per-block path (the property test
 * in test/carried-text.test.ts compares them on random responses).
 */
import { standsNear } from "../engine/already-applied.ts";
import type { EditOp } from "../engine/ops.ts";
import type { SearchReplacePayload } from "../formats/search-replace-format.ts";
import { blockOp } from "../formats/search-replace.ts";
import { parseSearchReplace } from "../formats/search-replace-parse.ts";
import type { FileApplyResult, FileEdit, OpOutcome } from "../formats/types.ts";
import type { TextChange } from "../text/common-ends.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { Document } from "../text/document.ts";
import { shareDocument } from "../text/document-pool.ts";
import { unescapeWholeText } from "../text/unescape-whole.ts";

/**
 * Pending edits before the text is made whole: each block searches the
 * lines around every one (a few hundred characters each), and a whole 1 MB
 * text costs ~5 ms, so 64 keep both small.
 */
const MAX_PENDING = 64;
/** Lines around a pending edit longer than this are not searched: the text is made whole instead. */
const MAX_WINDOW = 65_536;

/** Tests turn it off to compare with the per-block path (test/carried-text.test.ts). Not a public API. */
export const carrying = { on: true, carried: 0 };

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
}

/** A block that a result in the base may stand for (rule 1), with what the rules read of it. */
export interface CarriedBlock {
  op: EditOp;
  /** The find text as searched (LF breaks). */
  find: string;
  /** Lines around the place that must not hold a pending edit (rule 2). */
  margin: number;
}

/** The edit's one block, when its place depends on the text alone; else undefined. */
export function carriedBlock(edit: FileEdit): CarriedBlock | undefined {
  if (!carrying.on || edit.format !== "search-replace") return undefined;
  const payload = edit.payload as SearchReplacePayload;
  if (payload.startLine !== undefined) return undefined;
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
  const op = blockOp(block, undefined, undefined, payload.offset);
  if (op.hints.startLine !== undefined) return undefined;
  const find = block.search.replaceAll("\r\n", "\n");
  const lines = (s: string) => countBreaks(s, 0, s.length) + 1;
  return { op, find, margin: Math.max(lines(find), lines(block.replace)) + 2 };
}

/** The one op of a result and its one change, when clean (rule 1); else undefined. */
export function cleanResult(result: FileApplyResult): { op: OpOutcome; change: TextChange } | undefined {
  const op = result.ops.length === 1 ? result.ops[0] : undefined;
  const change = result.changes?.length === 1 ? result.changes[0] : undefined;
  if (!op || !change || result.content === undefined || result.deleted || result.moveTo !== undefined || result.gitMode !== undefined) return undefined;
  if (op.status !== "applied" || op.strategy !== "exact" || op.score !== 1 || op.fuzzy || op.startLine === undefined || op.endLine === undefined) return undefined;
  return { op, change };
}

/** A text as a flat base and the clean edits made since. */
export class CarriedText {
  readonly base: string;
  /** The base's document, kept alive and shared so that each block's `Document.from(base)` finds it. */
  private readonly doc: Document;
  private readonly pending: Pending[] = [];
  /** No CR in the base, and its document's text is the base (no BOM): known once asked. */
  private plain: boolean | undefined;

  constructor(base: string) {
    this.base = base;
    this.doc = Document.from(base);
    shareDocument(this.doc);
  }

  /** Whether a base result may stand for another: the base has no CR (offsets are the raw text's) and room for one more edit. */
  get open(): boolean {
    this.plain ??= !this.base.includes("\r") && this.doc.raw === this.doc.text;
    return this.pending.length < MAX_PENDING && this.plain;
  }

  get empty(): boolean {
    return this.pending.length === 0;
  }

  /**
   * `op` and `change`, a clean result of `block` in the base, as the result
   * in the text with the pending edits (lines and offsets moved by those
   * above it), when rules 2 and 3 hold; else undefined. The edit is then
   * pending too.
   */
  carry(block: CarriedBlock, op: OpOutcome, change: TextChange): { op: OpOutcome; change: TextChange } | undefined {
    const first = (op.startLine as number) - 1;
    const end = op.endLine as number;
    let lineShift = 0;
    let shift = 0;
    let at = 0;
    for (const [k, p] of this.pending.entries()) {
      if (p.endLine + block.margin <= first) {
        lineShift += p.lineDelta;
        shift += p.text.length - (p.end - p.start);
        at = k + 1;
      } else if (end + block.margin > p.firstLine) return undefined;
    }
    if (standsNear({ doc: this.doc }, block.op, { startLine: first, endLine: end })) return undefined;
    if (this.pending.some((_, k) => this.holds(k, block.find))) return undefined;
    carrying.carried++;
    const lines = countBreaks(this.base, change.start, change.end);
    this.pending.splice(at, 0, {
      start: change.start,
      end: change.end,
      text: change.text,
      firstLine: first,
      endLine: end,
      lineDelta: countBreaks(change.text, 0, change.text.length) - lines,
    });
    return {
      op: { ...op, startLine: first + 1 + lineShift, endLine: end + lineShift },
      change: { start: change.start + shift, end: change.end + shift, text: change.text },
    };
  }

  /** Starts carrying from the base: `op` and `change` are the sequential result (nothing pending), now pending. */
  start(op: OpOutcome, change: TextChange): void {
    const first = (op.startLine as number) - 1;
    const end = op.endLine as number;
    const lines = countBreaks(this.base, change.start, change.end);
    this.pending.push({ ...change, firstLine: first, endLine: end, lineDelta: countBreaks(change.text, 0, change.text.length) - lines });
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

  /** Whether `find` occurs in the edited text over the lines pending edit `k` touches, or within `find`'s length of them (rule 3). */
  private holds(k: number, find: string): boolean {
    const p = this.pending[k] as Pending;
    // The pending edit's place in the edited text.
    let shift = 0;
    for (let i = 0; i < k; i++) {
      const q = this.pending[i] as Pending;
      shift += q.text.length - (q.end - q.start);
    }
    const a = p.start + shift;
    const b = a + p.text.length;
    const total = this.base.length + this.pending.reduce((n, q) => n + q.text.length - (q.end - q.start), 0);
    // Read a little around it first, more only for long lines.
    for (let reach = find.length + 256; reach <= MAX_WINDOW + find.length; reach *= 4) {
      const from = Math.max(0, a - reach);
      const to = Math.min(total, b + reach);
      const around = this.slice(from, to);
      // The lines it touches: from the break before `a` to the break at or after `b`.
      const before = a === from ? -1 : around.lastIndexOf("\n", a - from - 1);
      const after = around.indexOf("\n", b - from);
      const lo = (before === -1 ? 0 : before + 1) - find.length;
      const hi = (after === -1 ? around.length : after) + find.length;
      if ((lo < 0 && from > 0) || (hi > around.length && to < total)) continue;
      return around.slice(Math.max(0, lo), Math.min(around.length, hi)).includes(find);
    }
    return true;
  }

  /** Characters [from, to) of the edited text. */
  private slice(from: number, to: number): string {
    const pieces: string[] = [];
    let t = 0;
    let b = 0;
    const take = (text: string, textFrom: number, length: number) => {
      const lo = Math.max(from, t);
      const hi = Math.min(to, t + length);
      if (lo < hi) pieces.push(text.slice(textFrom + lo - t, textFrom + hi - t));
      t += length;
    };
    for (const p of this.pending) {
      if (t >= to) break;
      take(this.base, b, p.start - b);
      take(p.text, 0, p.text.length);
      b = p.end;
    }
    if (t < to) take(this.base, b, this.base.length - b);
    return pieces.join("");
  }
}
