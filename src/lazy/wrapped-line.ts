/**
 * A changed line that is the old one with its middle wrapped: text put in
 * at two points around a kept part (`return f(expr)` -> `return
 * f(g(expr))`, `x = a` -> `x = int(a)`). Edit distance undersells such a
 * change on a short line (`return trigsimpfunc(expr)` wrapped is 0.66
 * similar, under the 0.7 taken), though every character of the old line
 * stands in the new one in the same order, in three runs. Read as the
 * file line changed only where nothing else tells the place (align.ts,
 * placeByChangedLine: one place, the rest of the segment the file's lines).
 */

/** Whether the longer key is the shorter with text put in at two points: a common prefix and suffix, the shorter's middle inside the longer's. */
export function wrapped(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let p = 0;
  while (p < short.length && short[p] === long[p]) p++;
  let q = 0;
  while (q < short.length - p && short[short.length - 1 - q] === long[long.length - 1 - q]) q++;
  // A prefix and a suffix of a few characters at least: a line's words, not a bracket. Each may be
  // shorter than the longest common one (`f(expr)` -> `f(exp_to_trig(expr))` shares `f(exp`).
  for (let i = p; i >= 3; i--) {
    for (let j = q; j >= 1; j--) {
      const middle = short.slice(i, short.length - j);
      if (middle.length >= 2 && long.slice(i, long.length - j).includes(middle)) return true;
    }
  }
  return false;
}
