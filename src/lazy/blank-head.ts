/**
 * A segment after a marker that opens with blank lines the merge would
 * write as new: the file has no blank line just before the segment's first
 * aligned line, so the snippet's blank line is not the file's there. It is
 * the file's only if the segment starts elsewhere, at a blank line of the
 * file further on, and the lines after it are new (a line the model wrote
 * twice): which of the two the snippet means is unclear, and a model adds a
 * lone blank line after a marker far more rarely than it shows the blank
 * line it copied (bench:lazy, 3 wrong merges: an import or a whole block
 * the model repeated, kept once, a blank line added before it). Refused,
 * naming the blank line and both places.
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine } from "./merge.ts";

// File lines looked at after the aligned line for a blank line the snippet's may be.
const REACH = 200;

export function checkBlankHeads(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (let m = 0; m < snip.length; m++) {
    if ((snip[m] as SnippetLine).kind !== "marker") continue;
    let a = m + 1;
    while (a < snip.length && (snip[a] as SnippetLine).kind === "code" && isBlank((snip[a] as SnippetLine).text) && (al.fileLine[a] as number) < 0) a++;
    if (a === m + 1 || a >= snip.length || (snip[a] as SnippetLine).kind !== "code") continue;
    const f = al.fileLine[a] as number;
    if (f <= 0 || isBlank(fileLines[f - 1] as string)) continue;
    let other = f + 1;
    while (other < Math.min(fileLines.length, f + REACH) && !isBlank(fileLines[other] as string)) other++;
    const places = other < fileLines.length && other < f + REACH ? [f, other] : [f];
    throw new EditError(
      "AMBIGUOUS",
      `The blank line at snippet line ${m + 2}, after the marker at snippet line ${m + 1}, is not in the file before file line ${f + 1} (${quoteLine(fileLines[f] as string)}), where snippet line ${a + 1} is placed: it would be added there, or it is a blank line of the file further on${places.length > 1 ? ` (the first at line ${(places[1] as number) + 1})` : ""}, and the lines after it are new. Include the unchanged line of the file just before the code you show, copied exactly.`,
      { segment: m + 2, candidates: places.map((p) => ({ startLine: p + 1, endLine: p + 1 })) },
    );
  }
}
