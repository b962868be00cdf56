/**
 * Line diffs with a bounded cost. jsdiff's Myers diff costs about D² path
 * steps for D differing lines, with allocation each (measured: a 2,500-line
 * rewrite with D capped at 1,000: 150 ms; a full rewrite of 10,000 lines
 * took 19–25 s, createPatch of a 20k-line rewrite 105 s).
 *
 * So: the common first and last lines are cut; a small remainder is diffed
 * exactly by Myers' algorithm over typed arrays (`shortestEdit`: 120 lines of
 * JSON against a shifted window took 0.2–2 ms with jsdiff, which the
 * similarity strategies pay per scored block); a large one gets jsdiff with
 * an edit-length cap, and past the cap
 * a patience split — lines that occur once on each side, kept in order,
 * become fixed points and each gap between them is diffed the same way. What
 * is left with no fixed point is paired line by line when both sides have
 * as many lines, else one change (all removed, then all added).
 * Always a correct diff; past the cap it may be longer than the shortest.
 */
import { type ChangeObject, diffArrays } from "diff";
import { longestIncreasing } from "../arrays.ts";

/** Ranges this small (old + new lines) are diffed exactly, whatever their edit length. */
const EXACT_UP_TO = 1_000;
/** Edit-length cap for larger ranges: measured ~20 ms on 20k + 20k lines. */
const MAX_EDIT_LENGTH = 100;
/** Patience splits nested deeper than this give the coarse answer (bounds the recursion). */
const MAX_DEPTH = 40;

export type LineChange<T> = ChangeObject<T[]>;

class Builder<T> {
  readonly out: LineChange<T>[] = [];
  push(value: T[], kind: "same" | "removed" | "added"): void {
    if (value.length === 0) return;
    const added = kind === "added";
    const removed = kind === "removed";
    const last = this.out[this.out.length - 1];
    if (last && last.added === added && last.removed === removed) {
      for (const v of value) last.value.push(v);
      last.count = last.value.length;
      return;
    }
    this.out.push({ value: [...value], count: value.length, added, removed });
  }
}

function diffRange<T>(a: readonly T[], b: readonly T[], ka: string[], kb: string[], a0: number, a1: number, b0: number, b1: number, out: Builder<T>, depth: number): void {
  let s = 0;
  while (a0 + s < a1 && b0 + s < b1 && ka[a0 + s] === kb[b0 + s]) s++;
  out.push(a.slice(a0, a0 + s), "same");
  a0 += s;
  b0 += s;
  let e = 0;
  while (a1 - e > a0 && b1 - e > b0 && ka[a1 - e - 1] === kb[b1 - e - 1]) e++;
  const suffix = a.slice(a1 - e, a1);
  a1 -= e;
  b1 -= e;
  // One line for one (they differ: the common ends are cut) is what shortestEdit answers, without its tables: a
  // report diff of 2,000 one-line edits has a gap like it between each two unique lines (issue 39).
  if (a0 === a1 || b0 === b1 || (a1 - a0 === 1 && b1 - b0 === 1)) {
    out.push(a.slice(a0, a1), "removed");
    out.push(b.slice(b0, b1), "added");
  } else {
    const small = a1 - a0 + (b1 - b0) <= EXACT_UP_TO;
    const ra = ka.slice(a0, a1);
    const rb = kb.slice(b0, b1);
    const parts = small ? shortestEdit(ra, rb) : diffArrays(ra, rb, { maxEditLength: MAX_EDIT_LENGTH });
    if (parts) {
      let i = a0;
      let j = b0;
      for (const p of parts) {
        const n = p.count ?? 0;
        if (p.added) {
          out.push(b.slice(j, j + n), "added");
          j += n;
        } else {
          out.push(a.slice(i, i + n), p.removed ? "removed" : "same");
          i += n;
          if (!p.removed) j += n;
        }
      }
    } else if (depth >= MAX_DEPTH || !splitByUniqueLines(a, b, ka, kb, a0, a1, b0, b1, out, depth)) {
      diffWithoutSearch(a, b, ka, kb, a0, a1, b0, b1, out);
    }
  }
  out.push(suffix, "same");
}

/**
 * The answer past every cap. Ranges of equal length are paired line by line:
 * lines changed in place in repetitive text, where no line is unique to
 * anchor on (a data file of equal rows with every 1000th edited), come out
 * as those changes instead of a rewrite of everything between the first and
 * the last; never longer than the rewrite. Other ranges are one change.
 */
function diffWithoutSearch<T>(a: readonly T[], b: readonly T[], ka: string[], kb: string[], a0: number, a1: number, b0: number, b1: number, out: Builder<T>): void {
  if (a1 - a0 !== b1 - b0) {
    out.push(a.slice(a0, a1), "removed");
    out.push(b.slice(b0, b1), "added");
    return;
  }
  for (let i = a0, j = b0; i < a1; ) {
    const same = ka[i] === kb[j];
    let n = 1;
    while (i + n < a1 && (ka[i + n] === kb[j + n]) === same) n++;
    if (same) out.push(a.slice(i, i + n), "same");
    else {
      out.push(a.slice(i, i + n), "removed");
      out.push(b.slice(j, j + n), "added");
    }
    i += n;
    j += n;
  }
}

/**
 * Myers' O((N+M)·D) shortest edit script, with one snapshot of the furthest
 * reaching paths per D for the way back. Changes come as runs: in each run of
 * differing lines, the removals first, then the additions.
 *
 * Lines that occur on one side only are never kept, so the search runs on
 * the others and those are placed after: the same edit length, and the
 * search no longer walks through them (two blocks of generated code whose
 * lines are all different cost D² steps to learn that nothing pairs).
 */
function shortestEdit(sa: readonly string[], sb: readonly string[]): { count: number; added: boolean; removed: boolean }[] {
  // Lines as numbers, equal numbers for equal lines: the inner loop compares integers, not the
  // texts of lines that are equal but not the same string (measured: a sixth less CPU when
  // block-anchor scored 300 windows of 400 lines).
  const ids = new Map<string, number>();
  const idsOf = (lines: readonly string[]) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const a = idsOf(sa);
  const b = idsOf(sb);
  const inA = new Uint8Array(ids.size);
  const inB = new Uint8Array(ids.size);
  for (const id of a) inA[id] = 1;
  for (const id of b) inB[id] = 1;
  // Positions of the lines that occur on both sides.
  const ia: number[] = [];
  const ib: number[] = [];
  for (let i = 0; i < a.length; i++) if (inB[a[i] as number]) ia.push(i);
  for (let j = 0; j < b.length; j++) if (inA[b[j] as number]) ib.push(j);
  const pairs = keptPairs(Int32Array.from(ia, (i) => a[i] as number), Int32Array.from(ib, (j) => b[j] as number));
  // Back to every line: between two kept pairs, the lines of `a` go, then those of `b` come.
  const parts: { count: number; added: boolean; removed: boolean }[] = [];
  const emit = (count: number, added: boolean, removed: boolean) => {
    if (count === 0) return;
    const last = parts[parts.length - 1];
    if (last && last.added === added && last.removed === removed) last.count += count;
    else parts.push({ count, added, removed });
  };
  let x = 0;
  let y = 0;
  for (let k = 0; k <= pairs.length; k += 2) {
    const px = k < pairs.length ? (ia[pairs[k] as number] as number) : a.length;
    const py = k < pairs.length ? (ib[pairs[k + 1] as number] as number) : b.length;
    emit(px - x, false, true);
    emit(py - y, true, false);
    if (k < pairs.length) emit(1, false, false);
    x = px + 1;
    y = py + 1;
  }
  return parts;
}

/**
 * The kept pairs of a shortest edit script of `a` and `b`, as positions
 * (x, y) one after the other, in order: Myers' search, then the way back.
 */
function keptPairs(a: Int32Array, b: Int32Array): number[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let done = false;
  for (let d = 0; d <= max && !done; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[off + k - 1] as number) < (v[off + k + 1] as number));
      let x = down ? (v[off + k + 1] as number) : (v[off + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
    trace.push(v.slice(off - d, off + d + 1));
  }
  // Walk back from (n, m): each D step is one edit after a diagonal run of equal lines.
  const kept: number[] = []; // (x, y) pairs, last first
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1] as Int32Array;
    const at = (k: number) => prev[k + d - 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    const startX = down ? prevX : prevX + 1;
    for (; x > startX; x--, y--) kept.push(y - 1, x - 1);
    x = prevX;
    y = prevY;
  }
  for (; x > 0; x--, y--) kept.push(y - 1, x - 1);
  return kept.reverse();
}

/** Patience step: diffs the gaps between lines unique on both sides (longest increasing run of them). False when there is none. */
function splitByUniqueLines<T>(a: readonly T[], b: readonly T[], ka: string[], kb: string[], a0: number, a1: number, b0: number, b1: number, out: Builder<T>, depth: number): boolean {
  // Per distinct line of `a` (numbered in order of first occurrence): its count on each side and its last place
  // on `b`, in typed arrays (an object per line made most of a 1 MB report diff's garbage).
  const ids = new Map<string, number>();
  const firstA = new Int32Array(a1 - a0);
  const na = new Int32Array(a1 - a0);
  const nb = new Int32Array(a1 - a0);
  const ib = new Int32Array(a1 - a0);
  for (let i = a0; i < a1; i++) {
    const k = ka[i] as string;
    const id = ids.get(k);
    if (id !== undefined) na[id] = (na[id] as number) + 1;
    else {
      firstA[ids.size] = i;
      na[ids.size] = 1;
      ids.set(k, ids.size);
    }
  }
  for (let j = b0; j < b1; j++) {
    const id = ids.get(kb[j] as string);
    if (id !== undefined) {
      nb[id] = (nb[id] as number) + 1;
      ib[id] = j;
    }
  }
  const pairs: [number, number][] = [];
  for (let id = 0; id < ids.size; id++) if (na[id] === 1 && nb[id] === 1) pairs.push([firstA[id] as number, ib[id] as number]);
  if (pairs.length === 0) return false;
  pairs.sort((x, y) => x[0] - y[0]);
  // Longest increasing subsequence of the b positions (patience sorting, O(n log n)).
  const chain = longestIncreasing(pairs).map((p) => pairs[p] as [number, number]);
  let i = a0;
  let j = b0;
  for (const [ia, jb] of chain) {
    diffRange(a, b, ka, kb, i, ia, j, jb, out, depth + 1);
    out.push([a[ia] as T], "same");
    i = ia + 1;
    j = jb + 1;
  }
  diffRange(a, b, ka, kb, i, a1, j, b1, out, depth + 1);
  return true;
}

/**
 * `diffArrays(a, b)` with a bounded cost (see the module comment). Lines are
 * equal when their `key`s are; removals come before additions in a change.
 */
export function diffLinesBounded<T>(a: readonly T[], b: readonly T[], key: (x: T) => string = String): LineChange<T>[] {
  const out = new Builder<T>();
  diffRange(a, b, a.map(key), b.map(key), 0, a.length, 0, b.length, out, 0);
  return out.out;
}
