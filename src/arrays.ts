/**
 * Array helpers that work at any length. `a.push(...b)` and `Math.min(...b)`
 * pass every element as an argument, and V8 overflows its stack somewhere
 * past ~120k arguments (createPatch on 130k identical lines did); these loop.
 */

/** Appends every item of `items` to `target`. */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The smallest value (Infinity for none), like `Math.min(...values)`. */
export function minOf(values: Iterable<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const v of values) if (v < min || Number.isNaN(v)) min = v;
  return min;
}

/** The largest value (-Infinity for none), like `Math.max(...values)`. */
export function maxOf(values: Iterable<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max || Number.isNaN(v)) max = v;
  return max;
}

/** Index of the smallest element of ascending `sorted` that is >= `min` (`sorted.length` when none). */
export function firstAtLeast(sorted: ArrayLike<number>, min: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the largest element of ascending `sorted` that is <= `max` (-1 when none). */
export function lastAtMost(sorted: ArrayLike<number>, max: number): number {
  return firstAtLeast(sorted, max + 1) - 1;
}

/**
 * Indices of a longest run of `pairs` (in their order) whose second
 * elements strictly increase: patience sorting, O(n log n). Used to keep
 * the most unique-line pairs that agree in order (line diffs, snippet alignment).
 */
export function longestIncreasing(pairs: readonly (readonly [number, number])[]): number[] {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const f = (pairs[k] as readonly [number, number])[1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] as number] as readonly [number, number])[1] < f) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1] as number;
    tails[lo] = k;
  }
  const out: number[] = [];
  for (let k = tails.length ? (tails[tails.length - 1] as number) : -1; k !== -1; k = prev[k] as number) out.push(k);
  return out.reverse();
}
