/**
 * Stopping the exact search once the answer is certain. A find text of
 * repeated lines (1,700 `}` lines in a file of 200,000) occurs at nearly
 * every line: the exact strategy built ~198,000 candidates per hunk, and ten
 * such hunks took ~7 s of CPU (issue 39 item 6), to end AMBIGUOUS.
 *
 * Which of two or more places the resolver picks (match/resolve.ts) depends
 * on where they all are only through the line hint (the one at, or clearly
 * nearest to, the hinted line), the order hint (the one after the previous
 * edit), an anchor line, the end of the file, a hunk's short context at an
 * edge of the file, and the caller's callback. The hint, the anchor line and
 * the callback can pick any place: an op with one of them is searched in
 * full. For the others the exact search keeps, in document order:
 *
 * - the first MAX_PLACES + 1 places (two or more of them: the op is not lone);
 * - for an ordered op, the first MAX_PLACES + 1 places after the previous
 *   edit (two of them: order decides nothing; all of them: it decides as in
 *   the full search);
 * - every place that ends on the last line, for an op that must end the file
 *   or whose context is cut short at its end (the file-edge rules pick among
 *   those only, so the same one as the full search); the places on the first
 *   line, for context cut short at its start, are among the first kept.
 *
 * When the places kept do not make the answer certain so (`CapPlan.certain`),
 * the op is searched again without the cap: the answer is always the one the
 * full search gives, except that an ambiguity lists the places kept and says
 * there are more. Ten hunks of `}` lines cut short at their end, placed by the
 * file-edge rule, took 4.4-4.9 s of CPU with every place a candidate.
 */

import { withOccurrences } from "../match/derived-context.ts";
import type { Candidate, MatchContext, Strategy } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import type { EditOp } from "./ops.ts";

/** Places of the exact search kept when ambiguity is certain past them (the error lists 20). */
export const MAX_PLACES = 1000;

/** Text searched first for the places of a find text of repeated lines (dense there, if anywhere). */
const PREFIX_CHARS = 64 * 1024;

/** Text searched before the prefix: places too sparse there to fill the prefix send the op to the shared finder. */
const SAMPLE_CHARS = 4 * 1024;

/** Lines of context a diff tool writes on each side (resolve.ts's boundary rule reads fewer as an edge of the file). */
const BOUNDARY_CONTEXT = 3;

/** What the capped search of one op must keep, and whether the places it kept decide as all of them would. */
export interface CapPlan {
  strategies: Strategy[];
  /** Whether the exact search left places out. */
  capped(): boolean;
  /** Whether the resolver's answer from `pool` (the capped exact search's candidates, filtered) is the full search's. */
  certain(pool: readonly Candidate[]): boolean;
}

/**
 * The capped exact search for `op`, or undefined when a rule that can pick
 * any place applies (a line hint, an anchor line, replaceAll, a callback).
 */
export function planCap(op: EditOp, hintLine: number | undefined, asks: boolean, prevEnd: number, strategies: readonly Strategy[]): CapPlan | undefined {
  const h = op.hints;
  if (hintLine !== undefined || h.after !== undefined || h.replaceAll || asks) return undefined;
  const c = h.context;
  const shortStart = c !== undefined && c.leading < BOUNDARY_CONTEXT && c.trailing >= BOUNDARY_CONTEXT;
  const shortEnd = c !== undefined && c.trailing < BOUNDARY_CONTEXT && c.leading >= BOUNDARY_CONTEXT;
  return cappedExact(strategies, { after: h.inOrder ? prevEnd : undefined, tail: h.endOfFile === true || shortEnd, firstLine: shortStart });
}

interface Wanted {
  /** 0-based line after the previous edit, for an ordered op. */
  after: number | undefined;
  /** Keep the places that end on the last line. */
  tail: boolean;
  /** The places on the first line decide. */
  firstLine: boolean;
}

/** What one capped search kept, and what it could not say. */
interface Kept {
  /** The places after the previous edit were left out past the ones kept. */
  afterCut: boolean;
  /** Uncertain whatever the pool: the first line's or the last line's places were not all kept. */
  unsure: boolean;
}

/** Up to `max` occurrences of `needle` at or after `from`, scanning `[from, to)` only, and whether the window was cut short of more. */
function scan(text: string, needle: string, from: number, to: number, max: number): number[] {
  const window = text.slice(0, Math.min(text.length, to + needle.length));
  const out: number[] = [];
  for (let p = window.indexOf(needle, from); p !== -1 && out.length < max; p = window.indexOf(needle, p + 1)) out.push(p);
  return out;
}

/** The first `max` occurrences at or after `from`: in a window where repeated lines have them, else cut from the shared finder's list. */
function firstFrom(ctx: MatchContext, needle: string, from: number, max: number): { places: number[]; cut: boolean } {
  // A sample first: a find text that is not of repeated lines has few places in it, and the window's scan
  // would be wasted on every op of a call (2,000 blocks: ~0.4 s of CPU for 64 kB each).
  const sample = scan(ctx.doc.text, needle, from, from + SAMPLE_CHARS, max + 1);
  const near = sample.length * (PREFIX_CHARS / SAMPLE_CHARS) <= max ? sample : scan(ctx.doc.text, needle, from, from + PREFIX_CHARS, max + 1);
  if (near.length > max) return { places: near.slice(0, max), cut: true };
  const all = ctx.occurrences(needle);
  let lo = 0;
  for (let hi = all.length; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if ((all[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return { places: all.slice(lo, lo + max), cut: all.length - lo > max };
}

/** The places whose end falls on the last line (or its break). */
function lastLinePlaces(doc: Document, needle: string): { places: number[]; cut: boolean } {
  const count = doc.lineCount;
  const from = Math.max(0, doc.lineStart(Math.max(0, count - 1)) - 1 - needle.length);
  const places = scan(doc.text, needle, from, doc.text.length, MAX_PLACES + 1);
  return { places, cut: places.length > MAX_PLACES };
}

/** Sorted union of sorted lists of offsets. */
function union(lists: readonly (readonly number[])[]): number[] {
  const all = new Set<number>();
  for (const list of lists) for (const p of list) all.add(p);
  return [...all].sort((a, b) => a - b);
}

/**
 * The exact strategy with the places of the whole find text cut as `want`
 * says; other needles (and other strategies) are searched as ever.
 */
function cappedExact(strategies: readonly Strategy[], want: Wanted): CapPlan {
  let hit = false;
  let kept: Kept = { afterCut: false, unsure: false };
  const placesOf = (ctx: MatchContext, needle: string): readonly number[] => {
    const head = firstFrom(ctx, needle, 0, MAX_PLACES + 1);
    hit = head.cut;
    if (!head.cut) return head.places;
    const doc = ctx.doc;
    const lists: number[][] = [head.places];
    kept = { afterCut: false, unsure: false };
    if (want.after !== undefined && want.after > 0) {
      const after = firstFrom(ctx, needle, doc.hasLine(want.after) ? doc.lineStart(want.after) : doc.text.length, MAX_PLACES + 1);
      lists.push(after.places);
      kept.afterCut = after.cut;
    }
    if (want.tail) {
      const tail = lastLinePlaces(doc, needle);
      lists.push(tail.places);
      if (tail.cut) kept.unsure = true;
    }
    // The first line's places all kept: the last one kept lies past it.
    if (want.firstLine && (head.places[head.places.length - 1] as number) <= doc.lineEnd(0)) kept.unsure = true;
    return lists.length === 1 ? head.places : union(lists);
  };
  const wrap = (s: Strategy): Strategy =>
    s.name !== "exact"
      ? s
      : {
          name: s.name,
          exact: s.exact,
          find(ctx, q) {
            return s.find(
              withOccurrences(ctx, (needle) => (needle === q.text ? placesOf(ctx, needle) : ctx.occurrences(needle))),
              q,
            );
          },
        };
  return {
    strategies: strategies.map(wrap),
    capped: () => hit,
    certain(pool) {
      // A lone place among those kept may be one of many in the full list.
      if (!hit || kept.unsure || pool.length < 2) return false;
      if (want.after === undefined) return true;
      // Order decides as in the full search: two places after the previous edit, or all of them kept.
      let after = 0;
      for (const c of pool) if (c.startLine >= want.after) after++;
      return after >= 2 || !kept.afterCut;
    },
  };
}
