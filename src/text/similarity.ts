/**
 * Similarity in [0, 1] from edit distance. fastest-levenshtein (Myers'
 * bit-parallel algorithm) keeps a 1 kB block comparison in microseconds, so
 * similarity is affordable on every candidate the anchors propose.
 */
import { distance } from "fastest-levenshtein";
import { diffLinesBounded } from "./line-diff.ts";

/**
 * Above this product of lengths (after the common prefix and suffix are cut)
 * the distance is not computed: the bit-parallel algorithm is O(n·m/32),
 * and two 200 KB lines took 6–8 s (400 KB: 28 s). 16M is two 4 kB cores,
 * about 1 ms.
 */
const MAX_DISTANCE_AREA = 16_000_000;

/**
 * Levenshtein distance, bounded in cost: the common prefix and suffix are
 * cut first (exact: they never change the distance), so a long line with one
 * changed character costs one scan. When what remains is still too large,
 * the answer is the longer remainder — as if nothing matched — which can
 * only make a fuzzy match fail, never make one succeed.
 */
export function boundedDistance(a: string, b: string): number {
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const la = endA - start;
  const lb = endB - start;
  if (la === 0 || lb === 0) return la + lb;
  if (la * lb > MAX_DISTANCE_AREA) return Math.max(la, lb);
  return distance(a.slice(start, endA), b.slice(start, endB));
}

/** 1 − distance / longer length; two empty strings are identical. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - boundedDistance(a, b) / longer;
}

/** An upper bound on `similarity(a, b)` from the lengths alone. */
export function similarityBound(aLength: number, bLength: number): number {
  const longer = Math.max(aLength, bLength);
  return longer === 0 ? 1 : 1 - Math.abs(aLength - bLength) / longer;
}

/**
 * Similarity of two blocks of lines, compared trimmed: indentation does not
 * count. The edit distance is taken line by line after aligning equal lines
 * (changed runs paired in order, unpaired lines costing their length), an
 * upper bound on the distance of the joined texts. Measured: one distance
 * over two joined 1 kB blocks takes ~700 µs, the line-wise form a few µs, and
 * the similarity strategies score dozens of windows per edit.
 */
export function blockSimilarity(a: readonly string[], b: readonly string[]): number {
  // One line each (the middle of a `}` / line / `}` block): the line diff pairs them, or finds them equal.
  // Scored 300 times a block by block-anchor, its diff was most of 2,000 such blocks' time.
  if (a.length === 1 && b.length === 1) return similarity((a[0] as string).trim(), (b[0] as string).trim());
  const at = a.map((l) => l.trim());
  const bt = b.map((l) => l.trim());
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length, 0) + Math.max(0, lines.length - 1);
  const longer = Math.max(size(at), size(bt));
  if (longer === 0) return 1;
  let cost = 0;
  let removed: string[] = [];
  const settle = (added: string[]) => {
    const pairs = Math.min(removed.length, added.length);
    for (let k = 0; k < pairs; k++) cost += boundedDistance(removed[k] ?? "", added[k] ?? "");
    for (const l of removed.slice(pairs)) cost += l.length + 1;
    for (const l of added.slice(pairs)) cost += l.length + 1;
    removed = [];
  };
  for (const part of diffLinesBounded(at, bt)) {
    if (part.removed) {
      settle([]);
      removed = part.value;
    } else if (part.added) {
      settle(part.value);
    } else {
      settle([]);
    }
  }
  settle([]);
  return Math.max(0, 1 - cost / longer);
}

/**
 * The OpenCode BlockAnchor measure: the average similarity of the middle
 * lines compared position by position (first and last lines excluded).
 */
export function positionalMiddleSimilarity(block: readonly string[], find: readonly string[]): number {
  const middle = Math.min(block.length, find.length) - 2;
  if (middle <= 0) return 1;
  let total = 0;
  for (let k = 1; k <= middle; k++) {
    total += similarity((block[k] ?? "").trim(), (find[k] ?? "").trim());
  }
  return total / middle;
}
