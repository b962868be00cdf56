/**
 * Choosing among scored candidates of one similarity strategy. A lone
 * candidate needs `single`; among several, those reaching `multiple` compete
 * and the best wins only by `margin` — otherwise all of them are returned
 * and the cascade reports the ambiguity. `margin` 0 takes the best (ties to
 * the first), as the OpenCode BlockAnchor does.
 */
import type { Candidate } from "./types.ts";

export function selectScored(cands: Candidate[], single: number, multiple: number, margin: number): Candidate[] {
  if (cands.length === 0) return [];
  if (cands.length === 1) return (cands[0]?.score ?? 0) >= single ? cands : [];
  const above = cands.filter((c) => c.score >= multiple).sort((a, b) => b.score - a.score);
  const [best, second] = above;
  if (!best || !second) return above;
  if (margin <= 0 || best.score - second.score >= margin) return [best];
  return above.filter((c) => best.score - c.score < margin);
}
