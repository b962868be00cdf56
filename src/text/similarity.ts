/**
 * Similarity in [0, 1] from edit distance. fastest-levenshtein (Myers'
 * bit-parallel algorithm) keeps a 1 kB block comparison in microseconds, so
 * similarity is affordable on every candidate the anchors propose.
 */
import { distance } from "fastest-levenshtein";

/** 1 − distance / longer length; two empty strings are identical. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  return 1 - distance(a, b) / longer;
}

/** An upper bound on `similarity(a, b)` from the lengths alone. */
export function similarityBound(aLength: number, bLength: number): number {
  const longer = Math.max(aLength, bLength);
  return longer === 0 ? 1 : 1 - Math.abs(aLength - bLength) / longer;
}

/** Similarity of two blocks of lines, compared trimmed and joined: indentation does not count. */
export function blockSimilarity(a: readonly string[], b: readonly string[]): number {
  return similarity(a.map((l) => l.trim()).join("\n"), b.map((l) => l.trim()).join("\n"));
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
