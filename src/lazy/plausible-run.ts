/**
 * The run of unique-line pairs the alignment anchors on: the longest run in
 * order, as in a line diff, unless that run has two anchors with no marker
 * between them in the snippet and far more file lines between them than
 * snippet lines. Such a gap would be a silent deletion of dozens of lines,
 * and a snippet shows its code whole between markers: the run matched a
 * repeated line (`# if 'other' is not iterable`, in `__mul__` and in
 * `__rmul__`) in the wrong place. Then the longest run without such a gap
 * is taken instead (a shorter run where the snippet's code stands together).
 */
import { longestIncreasing } from "../arrays.ts";

// More file lines than snippet lines between two anchors of one run of code: not a deletion a
// snippet shows (merge.ts refuses unmarked deletions past 20 lines of code; this counts blank ones too).
const MAX_GAP = 40;
// Pairs beyond this are anchored by the plain longest run (the search below is quadratic).
const MAX_PAIRS = 3000;

/**
 * Indices of the pairs ([snippet line, file line], ascending snippet lines)
 * to anchor on. `walled(a, b)`: whether a marker stands between snippet
 * lines a and b (then any gap is the marker's).
 */
export function plausibleRun(pairs: readonly (readonly [number, number])[], walled: (a: number, b: number) => boolean): number[] {
  const fits = (a: readonly [number, number], b: readonly [number, number]) => walled(a[0], b[0]) || b[1] - a[1] - (b[0] - a[0]) <= MAX_GAP;
  const plain = longestIncreasing(pairs);
  let ok = true;
  for (let k = 1; k < plain.length && ok; k++) ok = fits(pairs[plain[k - 1] as number] as readonly [number, number], pairs[plain[k] as number] as readonly [number, number]);
  if (ok || pairs.length > MAX_PAIRS) return plain;
  const best = new Int32Array(pairs.length).fill(1);
  const prev = new Int32Array(pairs.length).fill(-1);
  let end = 0;
  for (let k = 0; k < pairs.length; k++) {
    const p = pairs[k] as readonly [number, number];
    for (let j = 0; j < k; j++) {
      const q = pairs[j] as readonly [number, number];
      if (q[1] >= p[1] || (best[j] as number) + 1 <= (best[k] as number) || !fits(q, p)) continue;
      best[k] = (best[j] as number) + 1;
      prev[k] = j;
    }
    if ((best[k] as number) > (best[end] as number)) end = k;
  }
  const out: number[] = [];
  for (let k = pairs.length ? end : -1; k !== -1; k = prev[k] as number) out.push(k);
  return out.reverse();
}
