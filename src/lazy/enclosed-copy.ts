/**
 * A definition header written inside a run of code whose two ends the
 * snippet places close together in the file is new code there, like any
 * line it writes between them: a model that adds a local helper (`def
 * entry(i, j):`, defined in five other methods of the same file) copies it
 * from one of them. kept-copies.ts otherwise takes no header for a copy (a
 * file defines a name once, so a header out of order more likely shows a
 * sibling definition matched in place of the right one); that reading is
 * for a header at a run's edge, where the run's place is what it tells.
 * Here the lines around the header tell the place, and the header only
 * fills the short gap between them.
 */
import type { Alignment } from "./align.ts";
import type { SnippetLine } from "./markers.ts";

/** Most file lines between the aligned lines around the header: a short gap the merge replaces (moved-lines.ts's near gap). */
const ENCLOSING_GAP = 20;

/** Whether snippet line `s` stands between two aligned lines of its run of code (no marker between) that are at most ENCLOSING_GAP file lines apart. */
export function enclosedByItsRun(snip: readonly SnippetLine[], al: Alignment, s: number): boolean {
  const aligned = (dir: 1 | -1): number => {
    for (let k = s + dir; k >= 0 && k < snip.length; k += dir) {
      if ((snip[k] as SnippetLine).kind !== "code") return -1;
      if ((al.fileLine[k] as number) >= 0) return al.fileLine[k] as number;
    }
    return -1;
  };
  const before = aligned(-1);
  const after = aligned(1);
  return before >= 0 && after > before && after - before - 1 <= ENCLOSING_GAP;
}
