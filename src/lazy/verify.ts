/**
 * Checks of an alignment before anything is written: where a reading of the
 * snippet is only one of several, the merge is refused rather than guessed.
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { isTrivial, lineKey } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { looksChanged, quoteLine } from "./merge.ts";
import { wordsWithin } from "./shared-words.ts";

/** The nearest non-blank line from `s` in direction `dir`, or -1 at a marker or the snippet's end. */
function edgeLine(snip: readonly SnippetLine[], s: number, dir: 1 | -1): number {
  for (let k = s; k >= 0 && k < snip.length; k += dir) {
    const line = snip[k] as SnippetLine;
    if (line.kind !== "code") return -1;
    if (!isBlank(line.text)) return k;
  }
  return -1;
}

/**
 * The code next to a marker is what the marker's extent is told by. When that
 * line is a line of the file but was not placed (its places were all taken to
 * be elsewhere), the segment was anchored by some other line, often new code
 * that repeats a line of the file, and the marker's extent is a guess
 * (bench:lazy: most wrong merges had such an edge). Refused, naming the line
 * and where the file has it.
 */
export function checkMarkerEdges(snip: readonly SnippetLine[], al: Alignment, fileIndex: ReadonlyMap<string, number[]>): void {
  // With no marker at all, the snippet's own first and last lines are its edges.
  const edges: [number, number][] = [];
  if (!snip.some((l) => l.kind !== "code")) edges.push([edgeLine(snip, 0, 1), -1], [edgeLine(snip, snip.length - 1, -1), snip.length]);
  for (let m = 0; m < snip.length; m++) {
    if ((snip[m] as SnippetLine).kind === "marker") edges.push([edgeLine(snip, m - 1, -1), m], [edgeLine(snip, m + 1, 1), m]);
  }
    for (const [s, m] of edges) {
      if (s < 0 || (al.fileLine[s] as number) >= 0) continue;
      const line = snip[s] as SnippetLine;
      const places = fileIndex.get(lineKey(line.text));
      if (!places) continue;
      const shown = places.slice(0, 20).map((p) => p + 1);
      throw new EditError(
        "AMBIGUOUS",
        `The line at snippet line ${s + 1} (${quoteLine(line.text)}), ${m >= 0 && m < snip.length ? `next to the marker at snippet line ${m + 1}` : "at the snippet's edge"}, is a line of the file (line${shown.length > 1 ? "s" : ""} ${shown.join(", ")}${places.length > 20 ? ", ..." : ""}) but fits none of them between the code around it, so where the marker ends is unclear. Include more unchanged lines around it, copied exactly.`,
        { segment: s + 1, candidates: shown.map((p) => ({ startLine: p, endLine: p })) },
      );
    }
}

/**
 * New lines at the snippet's start before its first aligned line (or at its
 * end after the last), with no marker there: the file's lines beyond are
 * kept, so a new first line that looks like the file line just before the
 * aligned one (`from a import b, c` for `from a import b`) may be that line
 * changed or a line added above it; the snippet does not say which.
 */
export function checkSnippetEnds(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (const dir of [1, -1] as const) {
    const s = edgeLine(snip, dir === 1 ? 0 : snip.length - 1, dir);
    if (s < 0 || (al.fileLine[s] as number) >= 0) continue;
    let a = s;
    while (a >= 0 && a < snip.length && (snip[a] as SnippetLine).kind === "code" && (al.fileLine[a] as number) < 0) a += dir;
    if (a < 0 || a >= snip.length || (snip[a] as SnippetLine).kind !== "code") continue;
    let f = (al.fileLine[a] as number) - dir;
    while (f >= 0 && f < fileLines.length && isBlank(fileLines[f] as string)) f -= dir;
    if (f < 0 || f >= fileLines.length) continue;
    const line = snip[s] as SnippetLine;
    const key = lineKey(line.text);
    const fk = lineKey(fileLines[f] as string);
    if (key.length < 6 || key === fk || (!looksChanged(key, fk) && !wordsWithin(key, fk))) continue;
    throw new EditError(
      "AMBIGUOUS",
      `The new line at snippet line ${s + 1} (${quoteLine(line.text)}) looks like file line ${f + 1} (${quoteLine(fileLines[f] as string)}) just ${dir === 1 ? "before" : "after"} where the snippet starts: it may be that line changed, or a line added beside it. Show the unchanged line on its other side, or put "// ... existing code ..." there.`,
      { segment: s + 1, candidates: [{ startLine: f + 1, endLine: f + 1 }] },
    );
  }
}

/** The shallowest new line strictly between snippet lines `a` and `b`, in the file's indentation (less `shift`); infinite when none. */
function freshDepth(snip: readonly SnippetLine[], a: number, b: number, shift: number): number {
  let depth = Number.POSITIVE_INFINITY;
  for (let k = a + 1; k < b; k++) {
    const t = (snip[k] as SnippetLine).text;
    if (!isBlank(t)) depth = Math.min(depth, indentWidth(t) - shift);
  }
  return depth;
}

/**
 * Two neighbouring aligned lines of one segment (no marker and no new line
 * between) delete the file lines between them. When one of those lines is shallower than
 * both (`def b():` between two lines of function bodies), the deletion cuts
 * across a block boundary: the snippet's lines were matched in two different
 * blocks (a repeated `return x`), far more often than a model deletes the
 * top of a block by leaving it out. New lines between do not excuse it when
 * every one is deeper than the deleted line (bench:lazy, sympy-16106: a body
 * line added, the `def` above it deleted).
 */
export function checkGapStructure(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  let prev = -1;
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    if (line.kind !== "code") {
      prev = -1;
      continue;
    }
    const f = al.fileLine[s] as number;
    if (f < 0 || isBlank(line.text)) continue;
    if (prev >= 0) {
      const pf = al.fileLine[prev] as number;
      const depth = Math.min(indentWidth(fileLines[pf] as string), indentWidth(fileLines[f] as string));
      // New lines between may be the changed block start itself, unless all are deeper than it (a body line, not a `def`).
      const fresh = freshDepth(snip, prev, s, indentWidth(line.text) - indentWidth(fileLines[f] as string));
      for (let g = pf + 1; g < f; g++) {
        const t = fileLines[g] as string;
        if (isBlank(t) || indentWidth(t) >= depth || indentWidth(t) >= fresh) continue;
        throw new EditError(
          "CONFLICT",
          `Between snippet line ${prev + 1} and snippet line ${s + 1} (${quoteLine(line.text)}) the merge would delete file lines ${pf + 2}-${f}, which include line ${g + 1} (${quoteLine(t)}), the start of another block${fresh < Number.POSITIVE_INFINITY ? ", and every new line between is deeper than it" : ""}: the lines around it were matched in two different blocks. Include more unchanged lines, or a marker where code is left out.`,
          { segment: s + 1, candidates: [{ startLine: pf + 2, endLine: f }] },
        );
      }
    }
    prev = s;
  }
}

/** The first word of a line (`if`, `return`), or its first character. */
function leadWord(t: string): string {
  return /^\s*(\w+|\S)/.exec(t)?.[1] ?? "";
}

/**
 * Whether new snippet lines `s0..s1` (exclusive) read line for line as file
 * lines `f0..f1` changed or kept: a changed line keeps its indentation (from
 * snippet line `s`, at file line `p`) and its first word, or looks changed
 * (`if (x < 0) == True:` and `if x.is_number and x < 0:` share little text).
 */
function readsAsChanged(snip: readonly SnippetLine[], s0: number, s1: number, fileLines: readonly string[], f0: number, f1: number, [s, p]: [number, number]): boolean {
  if (s1 - s0 !== f1 - f0 || s1 <= s0) return false;
  const shift = indentWidth((snip[s] as SnippetLine).text) - indentWidth(fileLines[p] as string);
  let changed = 0;
  for (let k = 0; k < s1 - s0; k++) {
    const t = (snip[s0 + k] as SnippetLine).text;
    const u = fileLines[f0 + k] as string;
    const [a, b] = [lineKey(t), lineKey(u)];
    if (a === b) continue;
    if (a === "" || b === "") return false;
    if (!looksChanged(a, b) && (indentWidth(t) - shift !== indentWidth(u) || leadWord(t) !== leadWord(u))) return false;
    changed++;
  }
  return changed > 0;
}

/**
 * A repeated line next to a marker (`return rv`) is placed at one of its
 * places, and the new lines after it are inserted there; when at an earlier
 * place (later, for a line before a marker) within the marker's reach the
 * same new lines read line for line as the file's lines changed, that is a
 * second reading the snippet fits as well (bench:lazy, sympy-17139: the
 * changed lines were inserted after the last `return rv`). Refused, naming
 * the line and both places.
 */
export function checkRepeatedEdges(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], fileIndex: ReadonlyMap<string, number[]>): void {
  for (let m = 0; m < snip.length; m++) {
    if ((snip[m] as SnippetLine).kind !== "marker") continue;
    for (const dir of [1, -1] as const) {
      const s = edgeLine(snip, m + dir, dir);
      if (s < 0) continue;
      const f = al.fileLine[s] as number;
      const places = fileIndex.get(lineKey((snip[s] as SnippetLine).text));
      if (f < 0 || !places || places.length < 2) continue;
      // The new lines beyond the edge line, up to the next aligned line.
      let a = s + dir;
      while (a >= 0 && a < snip.length && (snip[a] as SnippetLine).kind === "code" && (al.fileLine[a] as number) < 0) a += dir;
      if (a < 0 || a >= snip.length || (snip[a] as SnippetLine).kind !== "code") continue;
      const fa = al.fileLine[a] as number;
      // The marker's reach: back to the nearest aligned line on its other side.
      let b = m - dir;
      while (b >= 0 && b < snip.length && (al.fileLine[b] as number) < 0) b -= dir;
      const bound = b >= 0 && b < snip.length ? (al.fileLine[b] as number) : dir === 1 ? -1 : fileLines.length;
      for (const p of places) {
        if (p === f || (dir === 1 ? p <= bound || p >= f : p >= bound || p <= f)) continue;
        const fits = dir === 1 ? readsAsChanged(snip, s + 1, a, fileLines, p + 1, fa, [s, p]) : readsAsChanged(snip, a + 1, s, fileLines, fa + 1, p, [s, p]);
        if (!fits) continue;
        const line = snip[s] as SnippetLine;
        throw new EditError(
          "AMBIGUOUS",
          `The line at snippet line ${s + 1} (${quoteLine(line.text)}), next to the marker at snippet line ${m + 1}, is at file lines ${f + 1} and ${p + 1}: at line ${f + 1} the new lines ${dir === 1 ? "after" : "before"} it are added, at line ${p + 1} they would be the file's lines there changed, and the snippet fits both. Include more unchanged lines around it, copied exactly.`,
          { segment: s + 1, candidates: [f, p].map((x) => ({ startLine: x + 1, endLine: x + 1 })) },
        );
      }
    }
  }
}

/**
 * A line next to a marker read as a file line changed, when the file line
 * just on the marker's side of it is the snippet's line word for word: the
 * marker may end there, the line kept and the ones after it changed
 * (bench:lazy, sympy-16106: `mrow = ...createElement('mrow')` read as the
 * `brac = ...createElement('mfenced')` below it changed, the file's own
 * `mrow` line kept, so doubled). Refused, naming the line and both places.
 */
export function checkChangedEdges(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (let m = 0; m < snip.length; m++) {
    if ((snip[m] as SnippetLine).kind !== "marker") continue;
    for (const dir of [1, -1] as const) {
      const s = edgeLine(snip, m + dir, dir);
      if (s < 0 || !al.similar[s]) continue;
      const f = al.fileLine[s] as number;
      let g = f - dir;
      while (g >= 0 && g < fileLines.length && isBlank(fileLines[g] as string)) g -= dir;
      const line = snip[s] as SnippetLine;
      const key = lineKey(line.text);
      // A brace or `end` line is everywhere; and a line aligned with its own text (only its indentation changed) is no other line changed.
      if (f < 0 || g < 0 || g >= fileLines.length || isTrivial(key) || lineKey(fileLines[f] as string) === key || lineKey(fileLines[g] as string) !== key) continue;
      throw new EditError(
        "AMBIGUOUS",
        `The line at snippet line ${s + 1} (${quoteLine(line.text)}), next to the marker at snippet line ${m + 1}, reads as file line ${f + 1} (${quoteLine(fileLines[f] as string)}) changed, but file line ${g + 1} beside it is that line exactly: the marker may end there instead. Include more unchanged lines around it, copied exactly.`,
        { segment: s + 1, candidates: [f, g].map((x) => ({ startLine: x + 1, endLine: x + 1 })) },
      );
    }
  }
}
