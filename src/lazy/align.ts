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
import type { SnippetLine } from "./markers.ts";

/** A line's comparison key: trimmed, whitespace runs as one space. */
export function lineKey(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/** A key too common to anchor a place across a marker: `}`, `return;`, `else:`, blank. */
function isTrivial(key: string): boolean {
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
}

interface Ctx {
  snip: readonly SnippetLine[];
  sKeys: readonly string[];
  file: Side;
  /** markersBefore[k]: number of marker/removal lines among snippet lines [0, k). */
  markersBefore: Int32Array;
  out: Int32Array;
}

function markerIn(c: Ctx, s0: number, s1: number): boolean {
  return (c.markersBefore[s1] as number) - (c.markersBefore[s0] as number) > 0;
}

/** Indices (into `pairs`) of a longest run increasing in file line, pairs sorted by snippet line. */
function longestIncreasing(pairs: readonly [number, number][]): number[] {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const f = (pairs[k] as [number, number])[1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] as number] as [number, number])[1] < f) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1] as number;
    tails[lo] = k;
  }
  const out: number[] = [];
  for (let k = tails.length ? (tails[tails.length - 1] as number) : -1; k !== -1; k = prev[k] as number) out.push(k);
  return out.reverse();
}

/** Pairs of lines whose key occurs once in each range. */
function uniquePairs(c: Ctx, s0: number, s1: number, f0: number, f1: number, allowTrivial: boolean): [number, number][] {
  const inSnippet = new Map<string, number>();
  for (let s = s0; s < s1; s++) {
    if ((c.snip[s] as SnippetLine).kind !== "code") continue;
    const k = c.sKeys[s] as string;
    if (k === "" || (!allowTrivial && isTrivial(k))) continue;
    inSnippet.set(k, inSnippet.has(k) ? -1 : s);
  }
  if (inSnippet.size === 0) return [];
  const inFile = new Map<string, number>();
  for (let f = f0; f < f1; f++) {
    const k = c.file.keys[f] as string;
    const s = inSnippet.get(k);
    if (s === undefined || s === -1) continue;
    inFile.set(k, inFile.has(k) ? -1 : f);
  }
  const pairs: [number, number][] = [];
  for (const [k, s] of inSnippet) {
    const f = inFile.get(k);
    if (s !== -1 && f !== undefined && f !== -1) pairs.push([s, f]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}

/**
 * Aligns snippet lines [s0, s1) with file lines [f0, f1). `leftBound`: the
 * lines before both ranges are aligned with each other (so equal first lines
 * pair); `rightBound` likewise after.
 */
function alignRange(c: Ctx, s0: number, s1: number, f0: number, f1: number, leftBound: boolean, rightBound: boolean, depth: number): void {
  const code = (s: number) => (c.snip[s] as SnippetLine).kind === "code";
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
  const run = longestIncreasing(pairs).map((k) => pairs[k] as [number, number]);
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
const SIMILAR = 0.7;

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
        if (c.sKeys[u] === "" || similarity(c.sKeys[u] as string, c.file.keys[f] as string) < SIMILAR) break;
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
        if (c.sKeys[u] === "" || similarity(c.sKeys[u] as string, c.file.keys[f] as string) < SIMILAR) break;
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
function alignLoneSegments(c: Ctx, similar: Uint8Array, fileCount: number): void {
  const n = c.snip.length;
  for (let s = 0; s < n; s++) {
    if (c.snip[s]?.kind !== "code") continue;
    let e = s;
    while (e < n && c.snip[e]?.kind === "code") e++;
    let any = false;
    for (let k = s; k < e && !any; k++) any = (c.out[k] as number) >= 0;
    const first = c.sKeys.findIndex((k, i) => i >= s && i < e && k !== "");
    if (!any && first !== -1) {
      let lo = 0;
      for (let k = s - 1; k >= 0; k--) if ((c.out[k] as number) >= 0) { lo = (c.out[k] as number) + 1; break; }
      let hi = fileCount;
      for (let k = e; k < n; k++) if ((c.out[k] as number) >= 0) { hi = c.out[k] as number; break; }
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
    s = e;
  }
}

export function alignSnippet(snip: readonly SnippetLine[], fileKeys: readonly string[]): Alignment {
  const n = snip.length;
  const markersBefore = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) markersBefore[k + 1] = (markersBefore[k] as number) + ((snip[k] as SnippetLine).kind === "code" ? 0 : 1);
  const c: Ctx = { snip, sKeys: snip.map((l) => lineKey(l.text)), file: { keys: fileKeys }, markersBefore, out: new Int32Array(n).fill(-1) };
  alignRange(c, 0, n, 0, fileKeys.length, false, false, 0);
  const similar = new Uint8Array(n);
  alignChangedEdges(c, similar, fileKeys.length);
  alignLoneSegments(c, similar, fileKeys.length);
  return { fileLine: c.out, similar };
}
