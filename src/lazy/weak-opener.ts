/**
 * Weak openers (align.ts `dropStrayAnchors`): a lone aligned line inside a
 * new snippet block whose opener is only half like the file line's opener
 * (similarity in [0.5, 0.7)) is stray when another line of that snippet
 * block is a file line standing only outside the file block around the
 * anchor: the block's code is the code of another place, and the one line
 * the two places share does not decide between them (bench:lazy: a rewritten
 * loop of a method whose `x = ...` lines are another method's, its one
 * `append(arg)` line the first method's).
 */
import { indentWidth } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

/** Below this opener similarity a lone anchor needs its block's other lines not to stand elsewhere. */
export const WEAK_OPENER = 0.7;

/** The last line of the block opened at line `open` (its deeper or blank lines after it). */
function blockEnd(text: (k: number) => string | undefined, open: number, limit: number): number {
  const depth = indentWidth(text(open) as string);
  let end = open;
  for (let k = open + 1; k < limit; k++) {
    const t = text(k);
    if (t === undefined) break;
    if (t.trim() === "") continue;
    if (indentWidth(t) <= depth) break;
    end = k;
  }
  return end;
}

/**
 * Whether a non-trivial line of the snippet block opened at `ps`, other than
 * `s` and its own body, stands in the file (`places`) only outside the file block opened at `pf`.
 */
export function blockLinesElsewhere(
  snip: readonly SnippetLine[],
  sKeys: readonly string[],
  places: ReadonlyMap<string, number[]>,
  trivial: (key: string) => boolean,
  ps: number,
  s: number,
  fileLines: readonly string[],
  pf: number,
): boolean {
  const snipText = (k: number) => (snip[k]?.kind === "code" ? snip[k]?.text : undefined);
  const sEnd = blockEnd(snipText, ps, snip.length);
  const fEnd = blockEnd((k) => fileLines[k], pf, fileLines.length);
  // The anchor's own body is not another line of the block: it goes where the anchor goes.
  const ownEnd = blockEnd(snipText, s, snip.length);
  for (let k = ps + 1; k <= sEnd; k++) {
    const key = sKeys[k] as string;
    if ((k >= s && k <= ownEnd) || key === "" || trivial(key)) continue;
    const at = places.get(key);
    if (at && at.length > 0 && at.every((f) => f < pf || f > fEnd)) return true;
  }
  return false;
}
