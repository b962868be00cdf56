/**
 * A blank snippet line at the edge of a deletion, paired with one of two
 * blank file lines that key alike (an empty line and a whitespace-only one):
 * the snippet line text tells which one stays. bench:lazy, sympy-13437: the
 * snippet's empty line was paired with the whitespace-only line after the
 * deleted code, keeping it and deleting the empty one the model kept.
 */
import type { Alignment } from "./align.ts";
import { isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

/** The aligned file line of snippet line `k` when it is code, else -1. */
function placed(snip: readonly SnippetLine[], al: Alignment, k: number): number {
  return k >= 0 && k < snip.length && (snip[k] as SnippetLine).kind === "code" ? (al.fileLine[k] as number) : -1;
}

/** Moves such a blank line to the file's blank line of the same text at the deletion's other edge. */
export function pairBlankEdges(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    const f = placed(snip, al, s);
    if (f < 0 || !isBlank(line.text) || fileLines[f] === line.text) continue;
    const pf = placed(snip, al, s - 1);
    const nf = placed(snip, al, s + 1);
    // The deleted lines lie between the line before and this one: the blank just after the line before.
    let g = pf >= 0 && pf < f - 1 ? pf + 1 : -1;
    // Or between this one and the line after: the blank just before the line after.
    if (g < 0 || fileLines[g] !== line.text) g = nf >= 0 && nf > f + 1 ? nf - 1 : -1;
    if (g < 0 || fileLines[g] !== line.text || al.fileLine.includes(g)) continue;
    al.fileLine[s] = g;
  }
}
