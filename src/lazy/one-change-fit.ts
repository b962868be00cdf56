/**
 * A segment none of whose lines is aligned yet, every line of it a line the
 * file has in several places (`return self`, `brac = ...`), is placed where
 * it reads as the file's lines with one change in them: a head of the
 * file's consecutive lines, the snippet's other lines in place of a few of
 * the file's (none: an insertion; none in the snippet: a deletion), then a
 * tail of the file's consecutive lines. A careful reader places it so when
 * exactly one place between the aligned lines around the segment reads
 * that way (readings that overlap are one place: the one keeping the most
 * lines, then replacing the fewest, is taken). A place where the segment's
 * lines stand as written is one where the snippet changes nothing: when the
 * segment is the snippet's only code and stands so in one place, the one
 * place where it reads as a change is what it means (bench:lazy: a fix
 * made to one of two copies of a function, shown again for the other);
 * else such a place leaves the segment to be refused. The patience
 * alignment finds no unique line to anchor such a segment, and the chains
 * of block-anchors.ts need lines the file lacks to split it into runs.
 */
import { isTrivial } from "./align.ts";
import { MAX_PLACES, SEEN, TAKEN } from "./block-anchors.ts";
import type { SnippetLine } from "./markers.ts";
import { alignedAfter, alignedBefore, forEachUnplacedSegment } from "./unplaced-segments.ts";

// block-anchors.ts's bounds: places are counted with up to twice the new lines plus SEEN of the
// file's lines replaced (so another reading nearby makes the segment ambiguous), and the one place
// is taken only when it replaces at most TAKEN more lines than the snippet puts there; with more
// than MAX_PLACES places for the segment's first line, none is taken.

interface Fit {
  /** File line of the head's first line. */
  at: number;
  /** Snippet lines of the head (from the segment's first non-blank line) and of the tail (up to its last). */
  head: number;
  tail: number;
  /** File lines between the head and the tail (the ones the change replaces). */
  gap: number;
  /** Non-blank lines of the head and the tail. */
  kept: number;
}

/** Pins each unplaced segment that reads as one change at one place only. */
export function fitOneChange(snip: readonly SnippetLine[], sKeys: readonly string[], fileKeys: readonly string[], places: ReadonlyMap<string, readonly number[]>, out: Int32Array): void {
  forEachUnplacedSegment(snip, out, (s, e) => {
    let a = s;
    while (a < e && sKeys[a] === "") a++;
    let b = e;
    while (b > a && sKeys[b - 1] === "") b--;
    if (b - a < 2) return;
    const lo = alignedBefore(out, s);
    const hi = alignedAfter(out, e, fileKeys.length);
    const starts = (places.get(sKeys[a] as string) ?? []).filter((f) => f >= lo && f < hi);
    if (starts.length === 0 || starts.length > MAX_PLACES) return;
    const fits: Fit[] = [];
    let unchanged = 0;
    for (const at of starts) {
      const fit = fitAt(sKeys, fileKeys, a, b, at, hi);
      if (fit === "unchanged") unchanged++;
      else if (fit) fits.push(fit);
    }
    // Where the segment stands as written, the snippet changes nothing: a change at one other place is
    // what it means only when it is the snippet's one run of code (else it may be context of another's change).
    if (unchanged > 1 || (unchanged === 1 && !onlySegment(snip, s, e))) return;
    const fit = onePlace(fits);
    if (!fit || fit.gap > b - a - fit.head - fit.tail + TAKEN) return;
    // The segment's blank lines at its ends are the file's around the place, or the reading is not the change's
    // (a blank line before `cols = ...` that the file has after it: a line put in after the blank, not one deleted).
    const end = fit.at + fit.head + fit.gap + fit.tail;
    if (!blanksAt(fileKeys, fit.at - (a - s), a - s) || !blanksAt(fileKeys, end, e - b)) return;
    for (let k = 0; k < fit.head; k++) out[a + k] = fit.at + k;
    for (let k = 0; k < fit.tail; k++) out[b - fit.tail + k] = fit.at + fit.head + fit.gap + k;
  });
}

/**
 * The segment's lines [a, b) read at file line `at` as head, change, tail:
 * the longest head, then the longest tail after the fewest lines replaced;
 * "unchanged" when all of them stand there; undefined when no tail stands
 * within reach, or head and tail hold no line but trivial ones.
 */
function fitAt(sKeys: readonly string[], fileKeys: readonly string[], a: number, b: number, at: number, hi: number): Fit | "unchanged" | undefined {
  let head = 0;
  while (a + head < b && at + head < hi && fileKeys[at + head] === sKeys[a + head]) head++;
  if (a + head === b) return "unchanged";
  for (let tail = b - a - head; tail >= 1; tail--) {
    const added = b - a - head - tail;
    for (let gap = added === 0 ? 1 : 0; gap <= 2 * added + SEEN; gap++) {
      const from = at + head + gap;
      if (from + tail > hi) break;
      if (!standsAt(sKeys, fileKeys, b - tail, b, from)) continue;
      if (!telling(sKeys, a, a + head) && !telling(sKeys, b - tail, b)) return undefined;
      return { at, head, tail, gap, kept: code(sKeys, a, a + head) + code(sKeys, b - tail, b) };
    }
  }
  return undefined;
}

/** Whether snippet lines [s, e) hold all of its code but blank lines. */
function onlySegment(snip: readonly SnippetLine[], s: number, e: number): boolean {
  return snip.every((l, k) => (k >= s && k < e) || l.kind !== "code" || l.text.trim() === "");
}

/**
 * The one fit, where all fits lie at one place: readings that overlap are
 * one place read two ways (`});` `});` `}` read from its first or its second
 * line), and the one that keeps the most of the segment's lines is taken
 * (a tie: the reading is unsure). Fits at two separate places: none.
 */
function onePlace(fits: readonly Fit[]): Fit | undefined {
  const span = (f: Fit): [number, number] => [f.at, f.at + f.head + f.gap + f.tail];
  // Better: more of the segment's code lines kept, then fewer of the file's replaced (the smaller change).
  const better = (f: Fit, g: Fit) => f.kept > g.kept || (f.kept === g.kept && f.gap < g.gap);
  let best: Fit | undefined;
  for (const f of fits) if (!best || better(f, best)) best = f;
  if (!best) return undefined;
  const [from, to] = span(best);
  for (const f of fits) {
    if (f === best) continue;
    const [a, b] = span(f);
    if (a >= to || b <= from || !better(best, f)) return undefined;
  }
  return best;
}

/** Whether file lines [f, f + n) are all blank (and in the file). */
function blanksAt(fileKeys: readonly string[], f: number, n: number): boolean {
  for (let k = f; k < f + n; k++) if (k < 0 || k >= fileKeys.length || fileKeys[k] !== "") return false;
  return true;
}

function standsAt(sKeys: readonly string[], fileKeys: readonly string[], from: number, to: number, f: number): boolean {
  for (let k = from; k < to; k++) if (fileKeys[f + k - from] !== sKeys[k]) return false;
  return true;
}

function code(sKeys: readonly string[], from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (sKeys[k] !== "") n++;
  return n;
}

/** Whether snippet keys [from, to) hold a line that is not trivial (`}`, `return`, blank). */
function telling(sKeys: readonly string[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (sKeys[k] !== "" && !isTrivial(sKeys[k] as string)) return true;
  return false;
}
