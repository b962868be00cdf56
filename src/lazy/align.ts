/**
 * Which code line of a snippet is which line of the file: a patience
 * alignment (lines unique on both sides anchor, the longest run of anchors
 * in the same order wins, the gaps between them are aligned the same way),
 * with markers as walls: lines are matched by position (equal first and
 * last lines of a gap) only up to a marker, never across one, because a
 * marker stands for an unknown number of the file's lines.
 *
 * Lines compare by their text with runs of whitespace collapsed and the
 * ends trimmed: models re-indent and re-space the code they copy.
 */
import { distance } from "fastest-levenshtein";
import { firstAtLeast } from "../arrays.ts";
import { anchorBlocks } from "./block-anchors.ts";
import { alignClosers } from "./closing-lines.ts";
import { alignedAfter as alignedLineAfter, alignedBefore as alignedLineBefore, forEachUnplacedSegment as forEachSegment } from "./unplaced-segments.ts";
import { indentWidth } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { fitOneChange } from "./one-change-fit.ts";
import { plausibleRun } from "./plausible-run.ts";
import { blockLinesElsewhere, WEAK_OPENER } from "./weak-opener.ts";
import { wrapped } from "./wrapped-line.ts";

// A whitespace run that is not one plain space: the only lines whose key differs from their trim.
const SPACING = /\s\s|[^\S ]/;

/** A line's comparison key: trimmed, whitespace runs as one space. */
export function lineKey(line: string): string {
  const t = line.trim();
  // Tested before replaced: most lines have single spaces only, and the replace alone took 1.1 s
  // for a 100k-line file's keys (the test and trim, 0.12 s).
  return SPACING.test(t) ? t.replace(/\s+/g, " ") : t;
}

/** A key too common to anchor a place across a marker: `}`, `return;`, `else:`, blank. */
export function isTrivial(key: string): boolean {
  let alnum = 0;
  for (let k = 0; k < key.length && alnum < 3; k++) if (/[A-Za-z0-9_]/.test(key[k] as string)) alnum++;
  return alnum < 3 || KEYWORD_ONLY.test(key);
}

const KEYWORD_ONLY = /^[})\]]*\s*(?:else|try|finally|pass|return|break|continue|end|default|do|begin|then|fi|done|null|None|true|false|nil)\b[\s:;{()\]]*$/;

interface Side {
  keys: readonly string[];
}

export interface Alignment {
  /** Per snippet line, its 0-based file line, or -1. */
  fileLine: Int32Array;
  /** Per snippet line aligned by similarity rather than equal text (a changed line). */
  similar: Uint8Array;
  /** A snippet line that is a line of the file (once in each) but out of the order of the lines around it: code moved or copied. */
  outOfOrder?: { snippetLine: number; fileLine: number };
  /** Every such pair [snippet line, file line], the first one included (copied-lines.ts weighs them). */
  outOfOrderPairs?: readonly (readonly [number, number])[];
}

interface Ctx {
  snip: readonly SnippetLine[];
  sKeys: readonly string[];
  file: Side;
  /** markersBefore[k]: number of marker/removal lines among snippet lines [0, k). */
  markersBefore: Int32Array;
  out: Int32Array;
  outOfOrder?: { snippetLine: number; fileLine: number };
  outOfOrderPairs: [number, number][];
  /** How often each key of a snippet line occurs in the whole file. */
  fileCount: Map<string, number>;
  /** Snippet lines found stray (dropStrayAnchors): never aligned again. */
  banned: Set<number>;
  /** The file lines (ascending) of each key a snippet line has. */
  places: Map<string, number[]>;
}

function markerIn(c: Ctx, s0: number, s1: number): boolean {
  return (c.markersBefore[s1] as number) - (c.markersBefore[s0] as number) > 0;
}

/** Pairs of lines whose key occurs once in each range. */
function uniquePairs(c: Ctx, s0: number, s1: number, f0: number, f1: number, allowTrivial: boolean): [number, number][] {
  const inSnippet = new Map<string, number>();
  for (let s = s0; s < s1; s++) {
    if ((c.snip[s] as SnippetLine).kind !== "code" || c.banned.has(s)) continue;
    const k = c.sKeys[s] as string;
    // Across a marker, a `}` or `x();` anchors only when it is the file's only such line.
    if (k === "" || (!allowTrivial && isTrivial(k) && c.fileCount.get(k) !== 1)) continue;
    inSnippet.set(k, inSnippet.has(k) ? -1 : s);
  }
  if (inSnippet.size === 0) return [];
  // Counted through the file's index of the snippet's keys, not by scanning the file range: a
  // marker's range can be most of a 100k-line file, and the recursion meets it once per gap.
  const pairs: [number, number][] = [];
  for (const [k, s] of inSnippet) {
    if (s === -1) continue;
    const places = c.places.get(k);
    if (!places) continue;
    const lo = firstAtLeast(places, f0);
    if (lo < places.length && (places[lo] as number) < f1 && (lo + 1 >= places.length || (places[lo + 1] as number) >= f1)) pairs.push([s, places[lo] as number]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

/**
 * Aligns snippet lines [s0, s1) with file lines [f0, f1). `leftBound`: the
 * lines before both ranges are aligned with each other (so equal first lines
 * pair); `rightBound` likewise after.
 */
function alignRange(c: Ctx, s0: number, s1: number, f0: number, f1: number, leftBound: boolean, rightBound: boolean, depth: number): void {
  const code = (s: number) => (c.snip[s] as SnippetLine).kind === "code" && !c.banned.has(s);
  if (leftBound) {
    while (s0 < s1 && f0 < f1 && code(s0) && c.sKeys[s0] === c.file.keys[f0]) c.out[s0++] = f0++;
  }
  if (rightBound) {
    while (s1 > s0 && f1 > f0 && code(s1 - 1) && c.sKeys[s1 - 1] === c.file.keys[f1 - 1]) c.out[--s1] = --f1;
  }
  if (s0 >= s1 || f0 >= f1 || depth > 64) return;
  const walled = markerIn(c, s0, s1);
  const pairs = uniquePairs(c, s0, s1, f0, f1, !walled && leftBound && rightBound);
  if (pairs.length === 0) return;
  const kept = plausibleRun(pairs, (a, b) => markerIn(c, a, b));
  if (kept.length < pairs.length) {
    const keptSet = new Set(kept);
    pairs.forEach((p, i) => {
      if (!keptSet.has(i)) c.outOfOrderPairs.push(p);
    });
    const [s, f] = c.outOfOrderPairs[0] as [number, number];
    c.outOfOrder ??= { snippetLine: s, fileLine: f };
  }
  const run = kept.map((k) => pairs[k] as [number, number]);
  let ps = s0;
  let pf = f0;
  let bound = leftBound;
  for (const [s, f] of run) {
    c.out[s] = f;
    alignRange(c, ps, s, pf, f, bound, true, depth + 1);
    ps = s + 1;
    pf = f + 1;
    bound = true;
  }
  alignRange(c, ps, s1, pf, f1, true, rightBound, depth + 1);
}

/** Similarity of two keys in [0, 1]. */
export function similarity(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  return n === 0 ? 1 : 1 - distance(a, b) / n;
}

// Below this, a changed line is not taken for the line it replaces: measured on bench:lazy
// (0.6 let `return a` stand for `return b + c` in short lines).
export const SIMILAR = 0.7;

/**
 * Whether snippet line `s` is a line of the file, word for word, at a place
 * whose neighbour on side `dir` is the snippet line's neighbour there: then
 * the snippet may show that place unchanged (a block the file has twice,
 * the other copy changed) as well as a change of the similar line beside
 * its aligned neighbour, and it is not taken for the change (bench:lazy: 17
 * wrong merges changed `return self._eval_scalar_mul(other)` into the
 * `rmul` line the file has, after the same `try:`, in its other copy of the
 * block). A line the file has elsewhere in other company is still paired:
 * taking every such line for the file's cost 64 right merges.
 */
function standsElsewhere(c: Ctx, s: number, dir: 1 | -1): boolean {
  const places = c.places.get(c.sKeys[s] as string);
  if (!places) return false;
  const near = c.sKeys[s + dir];
  return near !== undefined && near !== "" && places.some((g) => c.file.keys[g + dir] === near);
}

/**
 * Unaligned lines next to an aligned one, with a marker on their other side,
 * paired with the file lines in the same position when they are similar: the
 * changed first line of a body (`def f(x, y):` for `def f(x):`) before a
 * marker is that line changed, not a new line before it.
 */
function alignChangedEdges(c: Ctx, similar: Uint8Array, fileCount: number): void {
  const n = c.snip.length;
  const used = new Set<number>();
  for (let s = 0; s < n; s++) if ((c.out[s] as number) >= 0) used.add(c.out[s] as number);
  for (let s = 0; s < n; s++) {
    if (c.snip[s]?.kind !== "code" || (c.out[s] as number) < 0) continue;
    // Forward: after an aligned line, unaligned lines up to a marker.
    let f = (c.out[s] as number) + 1;
    let t = s + 1;
    while (t < n && c.snip[t]?.kind === "code" && c.out[t] === -1) t++;
    if (t < n && c.snip[t]?.kind !== "code") {
      for (let u = s + 1; u < t && f < fileCount && !used.has(f); u++, f++) {
        if (c.sKeys[u] === "" || standsElsewhere(c, u, -1) || similarity(c.sKeys[u] as string, c.file.keys[f] as string) < SIMILAR) break;
        c.out[u] = f;
        similar[u] = 1;
        used.add(f);
      }
    }
  }
  for (let s = n - 1; s >= 0; s--) {
    if (c.snip[s]?.kind !== "code" || (c.out[s] as number) < 0) continue;
    let f = (c.out[s] as number) - 1;
    let t = s - 1;
    while (t >= 0 && c.snip[t]?.kind === "code" && c.out[t] === -1) t--;
    if (t >= 0 && c.snip[t]?.kind !== "code") {
      for (let u = s - 1; u > t && f >= 0 && !used.has(f); u--, f--) {
        if (c.sKeys[u] === "" || standsElsewhere(c, u, 1) || similarity(c.sKeys[u] as string, c.file.keys[f] as string) < SIMILAR) break;
        c.out[u] = f;
        similar[u] = 1;
        used.add(f);
      }
    }
  }
}

/** The first word of a key, for finding a changed line among lines that start the same way. */
function firstWord(key: string): string {
  return /^[^A-Za-z0-9_$]*[A-Za-z0-9_$]*/.exec(key)?.[0] ?? "";
}

/**
 * A segment none of whose lines is in the file (its one known line changed:
 * `bar(y) {` for `bar() {` before a marker) placed by its first line when
 * exactly one file line between its aligned neighbours starting with the
 * same word is similar, clearly more than any other; the rest of the
 * segment is then aligned after it.
 */
function alignLoneSegments(c: Ctx, similar: Uint8Array): void {
  forEachUnplacedSegment(c, (s, e) => {
    const first = c.sKeys.findIndex((k, i) => i >= s && i < e && k !== "");
    if (first !== -1) {
      const lo = alignedBefore(c, s);
      const hi = alignedAfter(c, e);
      const key = c.sKeys[first] as string;
      const word = firstWord(key);
      let best = -1;
      let bestScore = 0;
      let second = 0;
      for (let f = lo; f < hi && word !== "" && !isTrivial(key); f++) {
        const fk = c.file.keys[f] as string;
        if (!fk.startsWith(word) || Math.abs(fk.length - key.length) > key.length / 2) continue;
        const score = similarity(key, fk);
        if (score > bestScore) {
          second = bestScore;
          bestScore = score;
          best = f;
        } else if (score > second) second = score;
      }
      if (best >= 0 && bestScore >= SIMILAR && bestScore - second >= 0.1) {
        c.out[first] = best;
        similar[first] = 1;
        alignRange(c, first + 1, e, best + 1, hi, true, false, 1);
      }
    }
  });
}

/** Calls `fn(s, e)` for each run [s, e) of snippet code lines between markers of which no line is aligned yet. */
function forEachUnplacedSegment(c: Ctx, fn: (s: number, e: number) => void): void {
  forEachSegment(c.snip, c.out, fn);
}

/** The file line after the last aligned snippet line before snippet line `s` (0 when none). */
function alignedBefore(c: Ctx, s: number): number {
  return alignedLineBefore(c.out, s);
}

/** The file line of the first aligned snippet line from snippet line `e` on (the file's length when none). */
function alignedAfter(c: Ctx, e: number): number {
  return alignedLineAfter(c.out, e, c.file.keys.length);
}

// A line at least this similar (or `widened`) may be the changed one: such a second place makes the segment's place unsure.
const NEAR_SIMILAR = 0.5;

/** Whether the longer key is the shorter with text put in at one point (`## Usage` -> `## Usage (new)`). */
function widened(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let p = 0;
  while (p < short.length && short[p] === long[p]) p++;
  let q = 0;
  while (q < short.length - p && short[short.length - 1 - q] === long[long.length - 1 - q]) q++;
  return p + q >= short.length;
}

/**
 * A segment still unplaced (its lines of the file stand in several places)
 * that is one changed line among lines of the file: placed where that line
 * reads as a file line changed (similar, or the line with text put in:
 * `## Usage (new)`; any place where it is half similar counts as another
 * candidate), with at least one non-blank line of context, and
 * every other line of the segment is the file's line at the same offset,
 * when exactly one place between the aligned lines around the segment
 * fits (bench:lazy: a Go `var err error // edited` in a function whose
 * lines stand twice, but for the changed line's neighbours).
 */
function alignChangedInside(c: Ctx, similar: Uint8Array): void {
  forEachUnplacedSegment(c, (s, e) => placeByChangedLine(c, similar, s, e));
}

function placeByChangedLine(c: Ctx, similar: Uint8Array, s: number, e: number): void {
  const lo = alignedBefore(c, s);
  const hi = alignedAfter(c, e);
  let changed = -1;
  for (let k = s; k < e; k++) {
    if (c.sKeys[k] === "" || c.fileCount.has(c.sKeys[k] as string)) continue;
    // More than one line the file does not have: not one changed line.
    if (changed >= 0) return;
    changed = k;
  }
  // Context that is blank lines only tells no place (bench:lazy scores such a snippet unplaceable).
  let context = false;
  for (let k = s; k < e && !context; k++) context = k !== changed && c.sKeys[k] !== "";
  if (changed < 0 || !context) return;
  const key = c.sKeys[changed] as string;
  if (isTrivial(key)) return;
  const word = firstWord(key);
  const found: number[] = [];
  for (let f = lo + (changed - s); f + (e - changed) <= hi && found.length < 2 && word !== ""; f++) {
    const fk = c.file.keys[f] as string;
    // Counted with a wide net (half similar, or the same words with text put in), taken only similar.
    if (!fk.startsWith(word) || (similarity(key, fk) < NEAR_SIMILAR && !widened(key, fk) && !wrapped(key, fk))) continue;
    let same = true;
    for (let k = s; k < e && same; k++) same = k === changed || c.sKeys[k] === c.file.keys[f + (k - changed)];
    if (same) found.push(f);
  }
  const fk = c.file.keys[found[0] as number] as string;
  if (found.length !== 1 || (similarity(key, fk) < SIMILAR && !widened(key, fk) && !wrapped(key, fk))) return;
  const f = found[0] as number;
  for (let k = s; k < e; k++) c.out[k] = f + (k - changed);
  similar[changed] = 1;
}

/** Whether file lines [f, f + keys.length) have these keys. */
function blockAtFile(c: Ctx, keys: readonly string[], f: number): boolean {
  for (let k = 0; k < keys.length; k++) if (c.file.keys[f + k] !== keys[k]) return false;
  return true;
}

// How far from its segment's aligned lines a run of context may stand: the
// changed lines between them, twice over, plus this (a deletion is often
// longer than what replaces it).
const CONTEXT_REACH = 12;

/**
 * A segment's first lines after a marker are context whose lines occur
 * elsewhere too (`except ValueError:`, `return None`), then a change, then
 * lines that aligned: the context stands in the file just before the
 * change's old lines, so its longest head that occurs as a block of file
 * lines close before the aligned part is placed at the nearest such block.
 * The same for a segment's last lines before a marker. Without this they
 * would be written as new lines, and the marker would keep their originals:
 * every context line doubled.
 */
function alignContextRuns(c: Ctx): void {
  const n = c.snip.length;
  for (let s = 0; s < n; s++) {
    if (c.snip[s]?.kind !== "code") continue;
    let e = s;
    while (e < n && c.snip[e]?.kind === "code") e++;
    let first = -1;
    let last = -1;
    for (let k = s; k < e; k++) {
      if ((c.out[k] as number) < 0) continue;
      if (first === -1) first = k;
      last = k;
    }
    if (first > s) alignHead(c, s, first);
    if (last !== -1 && last < e - 1) alignTail(c, last, e);
    s = e;
  }
}

function meaningful(c: Ctx, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isTrivial(c.sKeys[k] as string)) return true;
  return false;
}

/** Whether snippet lines [run0, run0+n) equal the aligned snippet lines [al0, al0+n), which stand on consecutive file lines. */
function slides(c: Ctx, run0: number, al0: number, n: number): boolean {
  if (n === 0 || al0 < 0 || al0 + n > c.snip.length) return false;
  const f0 = c.out[al0] as number;
  for (let k = 0; k < n; k++) {
    if (c.out[al0 + k] !== f0 + k || c.sKeys[run0 + k] !== c.sKeys[al0 + k] || c.snip[al0 + k]?.kind !== "code") return false;
  }
  return al0 + n <= c.snip.length && (run0 + n <= al0 || run0 >= al0 + n);
}

/**
 * Whether snippet lines [a, b) stand as a block of file lines a little
 * before file line `fa` (not before `lo`): then a head that repeats the
 * segment's first aligned lines (`}`, `else {`, then `}`, `if (...) {`)
 * is those file lines, with any lines between them deleted, and no slide:
 * sliding wrote the repeat as new (bench:lazy: 3 wrong merges wrote a
 * second `else {}` where a line of the first was deleted).
 */
function standsBefore(c: Ctx, a: number, b: number, fa: number, lo: number): boolean {
  const keys = c.sKeys.slice(a, b);
  for (let f = fa - keys.length; f >= Math.max(lo, fa - keys.length - CONTEXT_REACH); f--) if (blockAtFile(c, keys, f)) return true;
  return false;
}

/** standsBefore for a segment's tail: snippet lines [a, b) a little after file line `fl` (ending before `hi`). */
function standsAfter(c: Ctx, a: number, b: number, fl: number, hi: number): boolean {
  const keys = c.sKeys.slice(a, b);
  for (let f = fl + 1; f + keys.length <= hi && f <= fl + 1 + CONTEXT_REACH; f++) if (blockAtFile(c, keys, f)) return true;
  return false;
}

function alignHead(c: Ctx, s: number, first: number): void {
  const fa = c.out[first] as number;
  const lo = alignedBefore(c, s);
  const run = first - s;
  if (blankEdge(c, s, 1, fa - 1, lo - 1)) return;
  // Slide: when the head repeats the segment's first aligned lines (`}` and a blank line, then a new
  // function, then `}` and a blank line), the head is those file lines and the repeat is new: the
  // reading that deletes nothing.
  // A slide of blank lines only, with code after them in the head, is the fallback: that code may be
  // context the file has just before the change (a blank line, `x = f()`, then the changed line), and
  // placing it is the reading that tells the change (bench:lazy: the slide left such context unplaced).
  let deferred = 0;
  for (let h = Math.min(run, 8); h >= 1 && !standsBefore(c, s, first, fa, lo); h--) {
    if (!slides(c, s, first, h)) continue;
    if (blankKeys(c, s, s + h) && meaningful(c, s + h, first)) {
      deferred = h;
      break;
    }
    slideHead(c, s, first, h, lo);
    return;
  }
  // The segment's first aligned lines may be trivial (`}`, a blank line) that the alignment paired
  // with the file's lines before its first real anchor: the head may end among them instead.
  let strong = first;
  while (strong + 1 < c.snip.length && c.out[strong + 1] === (c.out[strong] as number) + 1 && isTrivial(c.sKeys[strong] as string)) strong++;
  const fs = c.out[strong] as number;
  for (let h = Math.min(run, 40); h >= 1; h--) {
    // Over a deferred slide, blank lines alone place nothing: they stand everywhere.
    if ((!meaningful(c, s, s + h) && h > 2) || (deferred > 0 && blankKeys(c, s, s + h))) continue;
    const keys = c.sKeys.slice(s, s + h);
    // Never the whole run among them: then the trivial lines are all there is.
    let near = -1;
    for (let f = fs - h; h < run && f >= Math.max(lo, fa - h + 1) && near < 0; f--) if (blockAtFile(c, keys, f)) near = f;
    let far = -1;
    const reach = (run - h) * 2 + CONTEXT_REACH;
    for (let f = fa - h; f >= Math.max(lo, fa - h - reach) && far < 0; f--) if (blockAtFile(c, keys, f)) far = f;
    if (near < 0 && far < 0) continue;
    // The smaller change: the far place deletes the code between it and the aligned part; the near
    // one writes the trivial lines it ends among as new (they close the new lines: a new function's `}`).
    const passed: number[] = [];
    for (let k = first; k < strong; k++) if ((c.out[k] as number) < near + h) passed.push(k);
    const useNear = near >= 0 && (far < 0 || codeLines(c, far + h, fa) > passed.filter((k) => c.sKeys[k] !== "").length);
    // Over a slide of blank lines, only a place that makes the new lines replace code: where they
    // would only be inserted, the head may as well be new lines that repeat the file's (a second
    // `return x` a model wrote), and the slide leaves that to be refused.
    if (deferred > 0 && !replaces(c, codeLines(c, (useNear ? near : far) + h, useNear ? (c.out[strong] as number) : fa), s + h, first)) break;
    for (const k of useNear ? passed : []) c.out[k] = -1;
    for (let k = 0; k < h; k++) c.out[s + k] = (useNear ? near : far) + k;
    return;
  }
  if (deferred > 0) slideHead(c, s, first, deferred, lo);
}

/**
 * Whether a place for context over a deferred slide makes the snippet's new
 * lines [a, b) replace the `deleted` code lines it skips: some, and no more
 * than the new lines (more would be a deletion the snippet does not show).
 */
function replaces(c: Ctx, deleted: number, a: number, b: number): boolean {
  let added = 0;
  for (let k = a; k < b; k++) if (c.sKeys[k] !== "") added++;
  return deleted > 0 && deleted <= added;
}

/** Whether snippet keys [a, b) are all blank. */
function blankKeys(c: Ctx, a: number, b: number): boolean {
  for (let k = a; k < b; k++) if (c.sKeys[k] !== "") return false;
  return true;
}

/** The head's first `h` lines take the place of the segment's first `h` aligned lines, which become new. */
function slideHead(c: Ctx, s: number, first: number, h: number, lo: number): void {
  const fa = c.out[first] as number;
  for (let k = 0; k < h; k++) c.out[first + k] = -1;
  // A slide of blank lines only, in a longer blank run (two blank lines before a new function, one
  // after it): the run is the file's blank lines that end where the slide does, when the file has them.
  const blank = blankRun(c, s, 1);
  const from = fa + h - blank;
  if (blank > h && c.sKeys[s + h - 1] === "" && from >= lo && codeLines(c, from, fa + h) === 0) {
    for (let k = 0; k < blank; k++) c.out[s + k] = from + k;
    return;
  }
  for (let k = 0; k < h; k++) c.out[s + k] = fa + k;
}

/**
 * A segment's edge next to a marker that is a run of more than two blank
 * lines (the tail: aligned lines, maybe new lines, blank lines, marker; the
 * head mirrored) is the file's run of blank lines next to the aligned part
 * when that run is as long. The search for context blocks skips runs of
 * trivial lines longer than two, and placed two of them at the file run's
 * start, writing the third as new (bench:lazy: 3 wrong merges added a
 * blank line before a function). `s`: the snippet run's line next to the
 * marker; `from`: the file line next to the aligned part; `stop`: where
 * the file's run may not reach.
 */
function blankEdge(c: Ctx, s: number, dir: 1 | -1, from: number, stop: number): boolean {
  const blank = blankRun(c, s, dir);
  const inner = s + blank * dir;
  if (blank <= 2 || c.snip[inner]?.kind !== "code") return false;
  let n = 0;
  for (let f = from; f !== stop && f >= 0 && f < c.file.keys.length && c.file.keys[f] === ""; f -= dir) n++;
  if (n !== blank) return false;
  // Snippet line s + k*dir (k from the marker) on the file run's line counted from its far end.
  for (let k = 0; k < blank; k++) c.out[s + k * dir] = from - (blank - 1 - k) * dir;
  return true;
}

/** How many blank code lines of the snippet run from `s` in direction `dir`. */
function blankRun(c: Ctx, s: number, dir: 1 | -1): number {
  let n = 0;
  for (let k = s; k >= 0 && k < c.snip.length && c.snip[k]?.kind === "code" && c.sKeys[k] === ""; k += dir) n++;
  return n;
}

/** Non-blank file lines in [a, b). */
function codeLines(c: Ctx, a: number, b: number): number {
  let n = 0;
  for (let f = a; f < b; f++) if (c.file.keys[f] !== "") n++;
  return n;
}

function alignTail(c: Ctx, last: number, e: number): void {
  const fl = c.out[last] as number;
  const hi = alignedAfter(c, e);
  const run = e - last - 1;
  if (blankEdge(c, e - 1, -1, fl + 1, hi)) return;
  let deferred = 0;
  for (let h = Math.min(run, 8); h >= 1 && !standsAfter(c, last + 1, e, fl, hi); h--) {
    if (!slides(c, e - h, last - h + 1, h)) continue;
    if (blankKeys(c, e - h, e) && meaningful(c, last + 1, e - h)) {
      deferred = h;
      break;
    }
    slideTail(c, last, e, h, hi);
    return;
  }
  // As in alignHead: the segment's last aligned lines may be trivial ones after its last real anchor.
  let strong = last;
  while (strong - 1 >= 0 && c.out[strong - 1] === (c.out[strong] as number) - 1 && isTrivial(c.sKeys[strong] as string)) strong--;
  const fs = c.out[strong] as number;
  for (let h = Math.min(run, 40); h >= 1; h--) {
    if ((!meaningful(c, e - h, e) && h > 2) || (deferred > 0 && blankKeys(c, e - h, e))) continue;
    const keys = c.sKeys.slice(e - h, e);
    let near = -1;
    for (let f = fs + 1; h < run && f <= Math.min(hi - h, fl) && near < 0; f++) if (blockAtFile(c, keys, f)) near = f;
    let far = -1;
    const reach = (run - h) * 2 + CONTEXT_REACH;
    for (let f = fl + 1; f <= Math.min(hi - h, fl + 1 + reach) && far < 0; f++) if (blockAtFile(c, keys, f)) far = f;
    if (near < 0 && far < 0) continue;
    const passed: number[] = [];
    for (let k = strong + 1; k <= last; k++) if ((c.out[k] as number) >= near) passed.push(k);
    const useNear = near >= 0 && (far < 0 || codeLines(c, fl + 1, far) > passed.filter((k) => c.sKeys[k] !== "").length);
    if (deferred > 0 && !replaces(c, codeLines(c, useNear ? (c.out[strong] as number) + 1 : fl + 1, useNear ? near : far), last + 1, e - h)) break;
    for (const k of useNear ? passed : []) c.out[k] = -1;
    for (let k = 0; k < h; k++) c.out[e - h + k] = (useNear ? near : far) + k;
    return;
  }
  if (deferred > 0) slideTail(c, last, e, deferred, hi);
}

/** As slideHead, at the segment's end: its last `h` lines take the place of its last `h` aligned ones. */
function slideTail(c: Ctx, last: number, e: number, h: number, hi: number): void {
  const at = c.out[last - h + 1] as number;
  for (let k = 0; k < h; k++) c.out[last - h + 1 + k] = -1;
  const blank = blankRun(c, e - 1, -1);
  if (blank > h && c.sKeys[e - h] === "" && at + blank <= hi && codeLines(c, at, at + blank) === 0) {
    for (let k = 0; k < blank; k++) c.out[e - blank + k] = at + k;
    return;
  }
  for (let k = 0; k < h; k++) c.out[e - h + k] = at + k;
}

/**
 * Aligned runs grown over the equal lines next to them (blank lines, `}`),
 * up to a marker or the next aligned line: a blank line the snippet shows
 * next to its context is the file's, not a new one.
 */
function extendRuns(c: Ctx): void {
  const n = c.snip.length;
  const fileCount = c.file.keys.length;
  let nextFile = new Int32Array(n + 1).fill(fileCount);
  for (let s = n - 1; s >= 0; s--) nextFile[s] = (c.out[s] as number) >= 0 ? (c.out[s] as number) : (nextFile[s + 1] as number);
  for (let s = 0; s + 1 < n; s++) {
    const f = c.out[s] as number;
    if (f < 0 || c.snip[s + 1]?.kind !== "code" || (c.out[s + 1] as number) >= 0) continue;
    if (f + 1 < (nextFile[s + 1] as number) && c.sKeys[s + 1] === c.file.keys[f + 1]) c.out[s + 1] = f + 1;
  }
  let prevFile = -1;
  const prev = new Int32Array(n).fill(-1);
  for (let s = 0; s < n; s++) {
    prev[s] = prevFile;
    if ((c.out[s] as number) >= 0) prevFile = c.out[s] as number;
  }
  for (let s = n - 1; s > 0; s--) {
    const f = c.out[s] as number;
    if (f < 0 || c.snip[s - 1]?.kind !== "code" || (c.out[s - 1] as number) >= 0) continue;
    if (f - 1 > (prev[s - 1] as number) && c.sKeys[s - 1] === c.file.keys[f - 1]) {
      c.out[s - 1] = f - 1;
    }
  }
  nextFile = new Int32Array(0);
}

/** The nearest line before `k` indented less than it (its block's opener), or -1; at most `reach` lines back. */
function parentOf(texts: (k: number) => string | undefined, k: number, reach: number): number {
  const line = texts(k) as string;
  const depth = indentWidth(line);
  for (let j = k - 1; j >= 0 && j >= k - reach; j--) {
    const t = texts(j);
    if (t === undefined || t.trim() === "") continue;
    if (indentWidth(t) < depth) return j;
  }
  return -1;
}

/**
 * A lone aligned line (no equal neighbour beside it in both texts) inside a
 * block the file does not have there: `this.items = [];` in a new `clear()`
 * is not the constructor's line of the same text. Its opener in the snippet
 * is new and unlike the file line's opener, or is another line of the file:
 * the line is new code that happens to repeat a line. An opener only half
 * like the file's (below WEAK_OPENER) whose block's other lines stand only
 * elsewhere in the file is another place's block (weak-opener.ts).
 */
function dropStrayAnchors(c: Ctx, fileLines: readonly string[]): boolean {
  const before = c.banned.size;
  const n = c.snip.length;
  const snipText = (k: number) => (c.snip[k]?.kind === "code" ? c.snip[k]?.text : undefined);
  const neighbour = (s: number, dir: 1 | -1): number => {
    for (let k = s + dir; k >= 0 && k < n; k += dir) {
      if (c.snip[k]?.kind !== "code") return -1;
      if (c.sKeys[k] !== "") return k;
    }
    return -1;
  };
  for (let s = 0; s < n; s++) {
    const f = c.out[s] as number;
    if (f < 0 || c.sKeys[s] === "" || isTrivial(c.sKeys[s] as string)) continue;
    const held = (k: number, dir: 1 | -1) => k >= 0 && (c.out[k] as number) >= 0 && !isTrivial(c.sKeys[k] as string) && Math.abs((c.out[k] as number) - f) <= 2 && Math.sign((c.out[k] as number) - f) === dir;
    if (held(neighbour(s, -1), -1) || held(neighbour(s, 1), 1)) continue;
    const ps = parentOf(snipText, s, 400);
    if (ps < 0) continue;
    const pf = parentOf((k) => fileLines[k], f, 400);
    const po = c.out[ps] as number;
    const near = po >= 0 || pf < 0 ? 0 : similarity(c.sKeys[ps] as string, c.file.keys[pf] as string);
    const stray = po >= 0 ? po !== pf : pf < 0 || near < 0.5 || (near < WEAK_OPENER && blockLinesElsewhere(c.snip, c.sKeys, c.places, isTrivial, ps, s, fileLines, pf));
    if (stray) c.banned.add(s);
  }
  return c.banned.size > before;
}

/** `banned`: snippet lines never to anchor (moved-lines.ts: the other reading of code moved). */
export function alignSnippet(snip: readonly SnippetLine[], fileKeys: readonly string[], fileLines: readonly string[], banned: ReadonlySet<number> = new Set()): Alignment {
  const n = snip.length;
  const markersBefore = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) markersBefore[k + 1] = (markersBefore[k] as number) + ((snip[k] as SnippetLine).kind === "code" ? 0 : 1);
  const sKeys = snip.map((l) => lineKey(l.text));
  const wanted = new Set(sKeys);
  const fileCount = new Map<string, number>();
  const places = new Map<string, number[]>();
  for (let f = 0; f < fileKeys.length; f++) {
    const k = fileKeys[f] as string;
    if (!wanted.has(k)) continue;
    fileCount.set(k, (fileCount.get(k) ?? 0) + 1);
    const list = places.get(k);
    if (list) list.push(f);
    else places.set(k, [f]);
  }
  const c: Ctx = { snip, sKeys, file: { keys: fileKeys }, markersBefore, out: new Int32Array(n).fill(-1), outOfOrderPairs: [], fileCount, banned: new Set(banned), places };
  // Stray anchors are banned and the alignment redone: the lines matched next to them go with them.
  for (let round = 0; round < 3; round++) {
    c.out.fill(-1);
    c.outOfOrder = undefined;
    c.outOfOrderPairs = [];
    alignRange(c, 0, n, 0, fileKeys.length, false, false, 0);
    if (!dropStrayAnchors(c, fileLines)) break;
  }
  const similar = new Uint8Array(n);
  alignChangedEdges(c, similar, fileKeys.length);
  alignLoneSegments(c, similar);
  alignChangedInside(c, similar);
  anchorBlocks(snip, sKeys, fileKeys, c.out);
  fitOneChange(snip, sKeys, fileKeys, places, c.out);
  alignClosers(snip, sKeys, fileKeys, fileLines, c.out);
  alignContextRuns(c);
  extendRuns(c);
  return { fileLine: c.out, similar, ...(c.outOfOrder && { outOfOrder: c.outOfOrder, outOfOrderPairs: c.outOfOrderPairs }) };
}
