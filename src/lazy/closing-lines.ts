/**
 * A segment after a marker (or a removal note) that starts with closing
 * lines (`}`, `});`, `]`) and has no line aligned: a `}` stands in most
 * places of a file, but these close the blocks still open at the last
 * aligned line before the marker, so each is the file's closing line of the
 * block at its depth. That line is the first non-blank file line after the
 * aligned one (after the closers already placed) indented no deeper than
 * the closer, taken when it reads the same and stands at that depth, before
 * the next aligned line. The snippet's indentation maps onto the file's by
 * the aligned line's shift (a snippet re-indented as a whole still tells
 * depths apart). bench:lazy: 79 refusals of `}` after `// ... existing
 * code ...` at a function's end (signature-body, remove-note styles).
 */
import { indentWidth } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { alignedAfter, forEachUnplacedSegment } from "./unplaced-segments.ts";

/** A line that only closes brackets: `}`, `});`, `],`, `)`. */
const CLOSER = /^[)\]}][)\]};,]*$/;

/** Places the leading closing lines of each segment with no aligned line (`out`: file line per snippet line, -1 when none). */
export function alignClosers(snip: readonly SnippetLine[], sKeys: readonly string[], fileKeys: readonly string[], fileLines: readonly string[], out: Int32Array): void {
  forEachUnplacedSegment(snip, out, (s, e) => {
    if (s > 0) closeFrom(snip, sKeys, fileKeys, fileLines, out, s, e);
  });
}

function closeFrom(snip: readonly SnippetLine[], sKeys: readonly string[], fileKeys: readonly string[], fileLines: readonly string[], out: Int32Array, s: number, e: number): void {
  let p = s - 1;
  while (p >= 0 && (out[p] as number) < 0) p--;
  if (p < 0 || sKeys[p] === "") return;
  const hi = alignedAfter(out, e, fileKeys.length);
  const shift = indentWidth(fileLines[out[p] as number] as string) - indentWidth((snip[p] as SnippetLine).text);
  let g = (out[p] as number) + 1;
  for (let k = s; k < e; k++) {
    const key = sKeys[k] as string;
    if (key === "") continue;
    if (!CLOSER.test(key)) return;
    const depth = indentWidth((snip[k] as SnippetLine).text) + shift;
    while (g < hi && (fileKeys[g] === "" || indentWidth(fileLines[g] as string) > depth)) g++;
    if (g >= hi || indentWidth(fileLines[g] as string) !== depth || fileKeys[g] !== key) return;
    out[k] = g++;
  }
}
