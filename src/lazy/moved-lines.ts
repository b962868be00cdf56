/**
 * Code moved within what a snippet shows. A snippet line that is a line of
 * the file out of the order of the lines around it is explained when that
 * file line stands in a gap between two aligned lines of one run of code
 * (no marker between them in the snippet): the merge replaces the gap, so
 * the snippet shows the line's old place gone and its new place written
 * (an `if`/`else` whose branches were swapped). Only where the gap is short
 * and either both lines around it are held by context (each in a run of two
 * non-blank lines aligned with consecutive file lines, one not trivial) or
 * every line the gap deletes stands elsewhere in the snippet as new (a pure
 * move: nothing lost). An anchor alone may itself be a copy (a new import
 * block repeating `from x import Mul`), and then the gap is no deletion at
 * all (bench:lazy: 10 wrong merges without these conditions).
 *
 * The alignment keeps the longest run of lines in order, which for a block
 * moved past a shorter one is the block: then the other reading (the block's
 * lines banned as anchors, so the shorter run aligns) is tried, and taken
 * when it explains every line out of order and the first did not.
 */
import { type Alignment, alignSnippet, isTrivial, lineKey } from "./align.ts";
import { isBlank } from "./blocks.ts";
import { uniqueHeader } from "./held-header.ts";
import type { SnippetLine } from "./markers.ts";

// The gap's own length, new lines not counted: a longer one is a deletion checked elsewhere, not a move.
const NEAR_GAP = 20;

/** Whether the run of lines aligned consecutively from snippet line `s` (direction `dir`) holds two non-blank lines, one not trivial. */
function held(snip: readonly SnippetLine[], al: Alignment, s: number, dir: 1 | -1): boolean {
  let lines = 0;
  let strong = false;
  for (let k = s; k >= 0 && k < snip.length; k += dir) {
    const line = snip[k] as SnippetLine;
    if (line.kind !== "code" || al.fileLine[k] !== (al.fileLine[s] as number) + (k - s)) break;
    if (isBlank(line.text)) continue;
    lines++;
    strong ||= !isTrivial(lineKey(line.text));
  }
  return lines >= 2 && strong;
}

/** Whether every non-blank file line in (a, b) is the text of a snippet code line aligned nowhere. */
function pureMove(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], a: number, b: number): boolean {
  const fresh = new Set<string>();
  snip.forEach((l, s) => {
    if (l.kind === "code" && (al.fileLine[s] as number) < 0) fresh.add(lineKey(l.text));
  });
  for (let g = a + 1; g < b; g++) if (!isBlank(fileLines[g] as string) && !fresh.has(lineKey(fileLines[g] as string))) return false;
  return true;
}

/** Whether file line `f` lies in a short gap, held or a pure move, between two aligned snippet lines with no marker between them. */
export function replacedByGap(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], f: number): boolean {
  let prev = -1;
  for (let s = 0; s < snip.length; s++) {
    if ((snip[s] as SnippetLine).kind === "marker") {
      prev = -1;
      continue;
    }
    const g = al.fileLine[s] as number;
    if (g < 0) continue;
    const pf = prev >= 0 ? (al.fileLine[prev] as number) : -1;
    if (prev >= 0 && pf < f && f < g) {
      // A header the file has once holds the body after it alone (held-header.ts), not the code before the next one.
      const before = held(snip, al, prev, -1) || (!al.similar[prev] && uniqueHeader(snip, fileLines, prev));
      return g - pf - 1 <= NEAR_GAP && ((before && held(snip, al, s, 1)) || pureMove(snip, al, fileLines, pf, g));
    }
    prev = s;
  }
  return false;
}

/**
 * Whether the snippet's lines next to moved line `s` (and any moved lines
 * it runs with) are also the file's lines next to its old place `f`, while
 * the alignment put them elsewhere: then the snippet fits the old place as
 * well as the new one (a file with a block twice), and the move is a guess.
 */
function fitsOldPlace(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], s: number, f: number): boolean {
  for (const dir of [1, -1] as const) {
    for (let k = dir; s + k >= 0 && s + k < snip.length && f + k >= 0 && f + k < fileLines.length; k += dir) {
      const line = snip[s + k] as SnippetLine;
      if (line.kind !== "code" || lineKey(line.text) !== lineKey(fileLines[f + k] as string)) break;
      const g = al.fileLine[s + k] as number;
      if (g >= 0 && g !== f + k && !isBlank(line.text)) return true;
    }
  }
  return false;
}

/** The out-of-order pairs [snippet line, file line] whose file line the merge does not replace, or that fit their old place too. */
export function unexplainedMoves(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): (readonly [number, number])[] {
  return (al.outOfOrderPairs ?? []).filter(([s, f]) => !replacedByGap(snip, al, fileLines, f) || fitsOldPlace(snip, al, fileLines, s, f));
}

/**
 * The aligned non-blank snippet lines that stand against any of `pairs`
 * (snippet line, file line): before it in the snippet and after it in the
 * file, or the reverse; each with its file line (`old`). The lines another
 * reading of the snippet bans.
 */
export function linesAgainst(snip: readonly SnippetLine[], al: Alignment, pairs: readonly (readonly [number, number])[]): { banned: Set<number>; old: Map<number, number> } {
  const banned = new Set<number>();
  const old = new Map<number, number>();
  for (let s = 0; s < snip.length; s++) {
    const f = al.fileLine[s] as number;
    if (f < 0 || isBlank((snip[s] as SnippetLine).text)) continue;
    if (pairs.some(([ms, mf]) => (s - ms) * (f - mf) < 0)) {
      banned.add(s);
      old.set(s, f);
    }
  }
  return { banned, old };
}

/**
 * The alignment, or the other reading of a move when only that one explains
 * every line out of order: the lines of the first that stand against the
 * unexplained ones (before them in the snippet, after them in the file, or
 * the reverse) banned, each of them then a moved line whose old place the
 * merge replaces. `held`: lines `al` was aligned with banned, banned in the other reading too.
 */
export function preferMoves(snip: readonly SnippetLine[], al: Alignment, fileKeys: readonly string[], fileLines: readonly string[], held: ReadonlySet<number> = new Set()): Alignment {
  const moved = unexplainedMoves(snip, al, fileLines);
  if (moved.length === 0) return al;
  const { banned, old } = linesAgainst(snip, al, moved);
  if (banned.size === 0) return al;
  const other = alignSnippet(snip, fileKeys, fileLines, new Set([...banned, ...held]));
  for (const [s, f] of old) if ((other.fileLine[s] as number) >= 0 || !replacedByGap(snip, other, fileLines, f) || fitsOldPlace(snip, other, fileLines, s, f)) return al;
  return unexplainedMoves(snip, other, fileLines).length === 0 ? other : al;
}
