/**
 * Lines out of order read as copies of lines the merge keeps. A snippet
 * line that is a line of the file, out of the order of the lines around it
 * (align.ts), is either code moved (moved-lines.ts) or new code repeating a
 * line the file has elsewhere (`except Exception as exc:` copied from the
 * function above). The snippet says which: when the file's line stands
 * where a marker keeps the file (or before or after everything the snippet
 * shows), the merge keeps it there, so the snippet's line can only be new.
 *
 * That reading rests on which lines were anchored, and the run of lines in
 * order may itself be the copies (a body copied into a new method, the
 * real place's lines taken for new ones). So the other reading is built
 * too (the anchored lines standing against the ones out of order banned,
 * as moved-lines.ts does for moves) and each is weighed: a reading holds
 * when every line it leaves out of order is a move the merge makes or a
 * copy of a line it keeps (no definition header: a file defines a name
 * once), every banned line is such a copy or move (or the file's line, word
 * for word, elsewhere), it takes some line that can tell a place, and no
 * gap it deletes cuts the start of another block. One reading holding is
 * taken. Both holding: the one whose copies are only added lines where the
 * other's replace lines of the file (a function's lines written into its
 * twin over its own, against lines added to the twin); both only adding,
 * the one taking more of the snippet's lines for the file's; else neither
 * (refused as out of order, as before).
 *
 * bench:lazy: 117 refusals as out of order became right merges, none wrong
 * (without the other reading, 4 wrong; without the block cut, 2; taking the
 * reading with more lines when both replace lines, a twin merged wrong in
 * test/lazy-copies.test.ts).
 */
import { type Alignment, alignSnippet, isTrivial, lineKey } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import { readHeader } from "./definitions.ts";
import { enclosedByItsRun } from "./enclosed-copy.ts";
import type { SnippetLine } from "./markers.ts";
import { markerLimits } from "./merge.ts";
import { linesAgainst, preferMoves, replacedByGap, unexplainedMoves } from "./moved-lines.ts";

type Pair = readonly [number, number];

/**
 * Whether the merge by `al` keeps file line `f` where it is: `f` is aligned
 * with no line, and lies before the first aligned line, after the last, or
 * between two aligned lines with a marker between them in the snippet
 * (short of the block end where that marker's kept lines may stop).
 */
export function keptByMerge(snip: readonly SnippetLine[], al: Alignment, limits: ReadonlyMap<number, number>, f: number): boolean {
  let prev = -1;
  let marker = false;
  let removal = false;
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    if (line.kind !== "code") {
      marker ||= line.kind === "marker";
      removal ||= line.kind === "removal";
      continue;
    }
    const g = al.fileLine[s] as number;
    if (g < 0) continue;
    if (g === f) return false;
    if (g > f) {
      if (prev < 0) return true;
      if (!marker) return false;
      for (let m = prev + 1; m < s; m++) if ((limits.get(m) ?? Number.POSITIVE_INFINITY) <= f) return false;
      return true;
    }
    prev = s;
    marker = false;
    removal = false;
  }
  // After the last aligned line the file is kept, unless a removal note there deletes it.
  return !removal;
}

/** Whether snippet line `s` reads as new code repeating file line `f`: no definition header (but one its run encloses, enclosed-copy.ts), and `f` kept. */
function keptCopy(snip: readonly SnippetLine[], al: Alignment, limits: ReadonlyMap<number, number>, [s, f]: Pair): boolean {
  return (readHeader((snip[s] as SnippetLine).text) === undefined || enclosedByItsRun(snip, al, s)) && keptByMerge(snip, al, limits, f);
}

/** The other reading: the lines of `al` that stand against the pairs (before them in the snippet, after them in the file, or the reverse) banned, with their file lines. */
function otherReading(snip: readonly SnippetLine[], al: Alignment, pairs: readonly Pair[], fileKeys: readonly string[], fileLines: readonly string[], held: ReadonlySet<number>): { al: Alignment; old: Map<number, number> } | undefined {
  const { banned, old } = linesAgainst(snip, al, pairs);
  if (banned.size === 0) return undefined;
  return { al: alignSnippet(snip, fileKeys, fileLines, new Set([...banned, ...held])), old };
}

/** How many snippet lines that can tell a place (not blank, not trivial) the reading takes for the file's lines, word for word. */
function linesTaken(snip: readonly SnippetLine[], al: Alignment): number {
  let n = 0;
  for (let s = 0; s < snip.length; s++) if ((al.fileLine[s] as number) >= 0 && !al.similar[s] && !isTrivial(lineKey((snip[s] as SnippetLine).text))) n++;
  return n;
}

/** The indentation of the nearest non-blank file line from `f` on in direction `dir` (infinite past the file's end). */
function codeDepth(fileLines: readonly string[], f: number, dir: 1 | -1): number {
  for (let g = f; g >= 0 && g < fileLines.length; g += dir) if (!isBlank(fileLines[g] as string)) return indentWidth(fileLines[g] as string);
  return Number.POSITIVE_INFINITY;
}

/**
 * Whether a gap the reading deletes (file lines between two aligned lines,
 * blank ones too, with no marker between) holds a line shallower than the
 * code on both sides of it and than every new line written there: the
 * start of another block cut off. verify.ts refuses the same between two
 * non-blank lines; a blank line aligned beside the gap hid it there
 * (bench:lazy: a reading that deleted a `def __mul__` line after a blank).
 */
function cutsBlock(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): boolean {
  let prev = -1;
  let fresh = Number.POSITIVE_INFINITY;
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    if (line.kind !== "code") {
      prev = -1;
      fresh = Number.POSITIVE_INFINITY;
      continue;
    }
    const f = al.fileLine[s] as number;
    if (f < 0) {
      if (!isBlank(line.text)) fresh = Math.min(fresh, indentWidth(line.text));
      continue;
    }
    if (prev >= 0) {
      const pf = al.fileLine[prev] as number;
      // The new lines' depth in the file's terms: shifted as the aligned line after them is.
      const shift = isBlank(line.text) ? 0 : indentWidth(line.text) - indentWidth(fileLines[f] as string);
      const depth = Math.min(codeDepth(fileLines, pf, -1), codeDepth(fileLines, f, 1), fresh - shift);
      for (let g = pf + 1; g < f; g++) if (!isBlank(fileLines[g] as string) && indentWidth(fileLines[g] as string) < depth) return true;
    }
    prev = s;
    fresh = Number.POSITIVE_INFINITY;
  }
  return false;
}

/** The snippet lines a reading takes for copies, or undefined when it does not hold (see the header); `old`: its banned lines and the file lines the other reading gave them. */
function copiesOf(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], old: ReadonlyMap<number, number>): number[] | undefined {
  if (linesTaken(snip, al) === 0 || cutsBlock(snip, al, fileLines)) return undefined;
  // Where each marker's kept lines stop; computed on a copy (markerLimits pairs closing lines in place).
  const limits = markerLimits(snip, { ...al, fileLine: al.fileLine.slice() }, fileLines);
  const copies: number[] = [];
  for (const p of unexplainedMoves(snip, al, fileLines)) {
    if (!keptCopy(snip, al, limits, p)) return undefined;
    copies.push(p[0]);
  }
  for (const [s, f] of old) {
    // Aligned again word for word (a repeated line placed by its neighbours): the file's line in this
    // reading. Aligned as another line changed, it is not: the file has it as it is at its old place.
    if ((al.fileLine[s] as number) >= 0) {
      if (al.similar[s]) return undefined;
      continue;
    }
    if (replacedByGap(snip, al, fileLines, f)) continue;
    if (!keptCopy(snip, al, limits, [s, f])) return undefined;
    copies.push(s);
  }
  return copies;
}

/** Whether each copy is written where the merge deletes no line of code: next to a marker, or between two aligned lines that stand together in the file (blank lines between). */
function insertsOnly(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], copies: readonly number[]): boolean {
  return copies.every((s) => {
    let p = s - 1;
    while (p >= 0 && (snip[p] as SnippetLine).kind === "code" && (al.fileLine[p] as number) < 0) p--;
    let n = s + 1;
    while (n < snip.length && (snip[n] as SnippetLine).kind === "code" && (al.fileLine[n] as number) < 0) n++;
    if (p < 0 || n >= snip.length || (snip[p] as SnippetLine).kind !== "code" || (snip[n] as SnippetLine).kind !== "code") return true;
    for (let g = (al.fileLine[p] as number) + 1; g < (al.fileLine[n] as number); g++) if (!isBlank(fileLines[g] as string)) return false;
    return true;
  });
}

/**
 * The alignment to merge by: moved-lines.ts's reading, or where lines stay
 * out of order, the one reading of the two that holds (its copies then no
 * longer counted out of order); otherwise that reading as it is, for the
 * merge to refuse. `held`: lines `aligned` was aligned with banned (edge-reading.ts), banned in every other reading too.
 */
export function preferReading(snip: readonly SnippetLine[], aligned: Alignment, fileKeys: readonly string[], fileLines: readonly string[], held: ReadonlySet<number> = new Set()): Alignment {
  const al = preferMoves(snip, aligned, fileKeys, fileLines, held);
  const moved = al.outOfOrder ? unexplainedMoves(snip, al, fileLines) : [];
  if (moved.length === 0) return al;
  const other = otherReading(snip, al, moved, fileKeys, fileLines, held);
  const first = copiesOf(snip, al, fileLines, new Map());
  const second = other && copiesOf(snip, other.al, fileLines, other.old);
  let pick: Alignment;
  if (first && second && other) {
    // Both hold: the one whose copies are only added lines, where the other's replace lines of the file.
    const a = insertsOnly(snip, al, fileLines, first);
    const b = insertsOnly(snip, other.al, fileLines, second);
    const [m, n] = [linesTaken(snip, al), linesTaken(snip, other.al)];
    // Both only add lines: the one that takes more of the snippet's lines for the file's (as the run in order does).
    if (a !== b) pick = a ? al : other.al;
    // The other reading puts every line where the first does: the two agree.
    else if (al.fileLine.every((f, s) => other.al.fileLine[s] === f)) pick = al;
    else if (a && m !== n) pick = m > n ? al : other.al;
    else return al;
  } else if (first) pick = al;
  else if (second && other) pick = other.al;
  else return al;
  const { outOfOrder: _first, outOfOrderPairs: _pairs, ...read } = pick;
  return read;
}
