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
