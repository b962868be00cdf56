/**
 * A marker written under a definition's header (`def f(...):`,
 * `function f() {`) and indented deeper than it stands for lines of that
 * definition. When the code
 * after it is indented deeper still (it says it is in the block too) but the
 * alignment put it past the block's end, the lines the marker would keep
 * hold the line that ends the block (one as shallow as the opener): the
 * marker left the definition it was written in, and the lines after it were
 * matched in another (bench:lazy, sympy-16503: the `else:` after
 * `def _print_Piecewise` and a marker matched in `_print_hyper`, 50 lines
 * and four functions later, and the change was made there). Refused, naming
 * the opener, the marker's next line and the line that ends the block.
 * Comment lines do not end a block (commented-out code stands at column 0).
 * Only definition headers: under an `if`/`else` opener models let the marker
 * run on over the sibling statements of the same function (bench:lazy: 5
 * right merges, sympy-11870/14308/23191, were refused when any opener counted).
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import { readHeader } from "./definitions.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine } from "./merge.ts";

const OPENS = /(?::|\{)\s*$/;
const COMMENT = /^(?:#|\/\/|\/\*|\*)/;

/** The next (dir 1) or previous (dir -1) snippet line from `s` that is not blank, or -1. */
function nonBlankFrom(snip: readonly SnippetLine[], s: number, dir: 1 | -1): number {
  let k = s + dir;
  while (k >= 0 && k < snip.length && isBlank((snip[k] as SnippetLine).text)) k += dir;
  return k >= 0 && k < snip.length ? k : -1;
}

/** The first file line in (from, to) that ends a block opened at `depth`, or -1; stops there (a block's body, not the file, is read). */
function blockEnd(fileLines: readonly string[], from: number, to: number, depth: number): number {
  for (let g = from + 1; g < to; g++) {
    const line = fileLines[g] as string;
    if (isBlank(line) || COMMENT.test(line.trimStart())) continue;
    if (indentWidth(line) <= depth) return g;
  }
  return -1;
}

export function checkMarkerBlock(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (let m = 0; m < snip.length; m++) {
    const marker = snip[m] as SnippetLine;
    if (marker.kind !== "marker") continue;
    const h = nonBlankFrom(snip, m, -1);
    const n = nonBlankFrom(snip, m, 1);
    if (h < 0 || n < 0) continue;
    const opener = snip[h] as SnippetLine;
    const next = snip[n] as SnippetLine;
    if (opener.kind !== "code" || next.kind !== "code" || !OPENS.test(opener.text) || !readHeader(opener.text)) continue;
    const depth = indentWidth(opener.text);
    if (indentWidth(marker.text) <= depth || indentWidth(next.text) <= depth) continue;
    const fh = al.fileLine[h] as number;
    const fn = al.fileLine[n] as number;
    if (fh < 0 || fn <= fh) continue;
    const end = blockEnd(fileLines, fh, fn, indentWidth(fileLines[fh] as string));
    if (end < 0) continue;
    throw new EditError(
      "AMBIGUOUS",
      `The marker at snippet line ${marker.index + 1} stands under snippet line ${opener.index + 1} (${quoteLine(opener.text)}, file line ${fh + 1}) and snippet line ${next.index + 1} (${quoteLine(next.text)}) is indented into that block, but the only place the lines after the marker fit is at file line ${fn + 1}, past the block's end at file line ${end + 1} (${quoteLine(fileLines[end] as string)}). Show more lines of the block around the change, or the block's line where it should go.`,
      { segment: next.index + 1, candidates: [{ startLine: fn + 1, endLine: fn + 1 }] },
    );
  }
}
