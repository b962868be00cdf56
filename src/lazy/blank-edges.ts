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

/**
 * New code shown between a marker's blank lines and a line of the file, all
 * of whose own lines there are blank (a new function put in the blank run
 * before the next one): the new code goes after the file's whole run, the
 * blank lines shown after the marker being the run's last ones (the marker
 * keeps the rest), and the blank lines shown after the new code its own
 * separator. Pairing the marker's blank line with the run's first line and
 * the new code's with the rest took a blank line from before the new code
 * (bench:lazy, sympy-11870: a new top-level def with one blank line before it).
 */
export function newCodeAfterBlankRun(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  const keyBlank = (s: number) => isBlank((snip[s] as SnippetLine).text);
  for (let s = 1; s < snip.length; s++) {
    if ((snip[s - 1] as SnippetLine).kind === "code" || (snip[s] as SnippetLine).kind !== "code") continue;
    let k = s;
    while (k < snip.length && (snip[k] as SnippetLine).kind === "code" && keyBlank(k)) k++;
    // Blank lines after the marker, then a new non-blank line.
    if (k === s || placed(snip, al, k) >= 0 || (snip[k] as SnippetLine | undefined)?.kind !== "code") continue;
    // The segment's first aligned non-blank line after it: the file line the run ends before.
    let q = k + 1;
    while (q < snip.length && (snip[q] as SnippetLine).kind === "code" && (placed(snip, al, q) < 0 || keyBlank(q))) q++;
    const fq = placed(snip, al, q);
    if (fq < 0 || keyBlank(q)) continue;
    const shown = k - s;
    let r0 = fq;
    let lo = 0;
    for (let t = s - 1; t >= 0 && lo === 0; t--) lo = placed(snip, al, t) + 1;
    while (r0 > lo && isBlank(fileLines[r0 - 1] as string)) r0--;
    if (fq - r0 < shown) continue;
    // Every line the segment aligned before the run's end must be one of its blank lines.
    let inRun = true;
    for (let t = s; t < q && inRun; t++) {
      const f = placed(snip, al, t);
      inRun = f < 0 || (f >= r0 && f < fq);
    }
    if (!inRun) continue;
    for (let t = k; t < q; t++) al.fileLine[t] = -1;
    for (let t = 0; t < shown; t++) al.fileLine[s + t] = fq - shown + t;
  }
}
