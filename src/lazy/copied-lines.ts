/**
 * A snippet line that is a line of the file, but out of the order of the
 * lines around it, is either code moved (which a snippet cannot show: the
 * old place is kept by a marker) or new code that repeats a line found
 * elsewhere (`from x import Y` in a function when another function imports
 * it too, a test's `content = ...read_text()` line copied from the test
 * above). The alignment keeps the longest run in order and the others are
 * new lines; that reading is right when the line's other place is far from
 * everything the snippet is placed at (a copy from elsewhere, whose place a
 * marker keeps) and the line is no block's start (a `def` header or a line
 * as shallow as the snippet's placed ones: then the run kept in order more
 * likely matched a sibling definition, `_print_floor` for `_print_ceiling`).
 *
 * Measured on bench:lazy (595 such refusals): with no check, 206 became
 * right merges and 27 wrong; with this one, 102 right and none wrong.
 */
import type { Alignment } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import { readHeader } from "./definitions.ts";
import type { SnippetLine } from "./markers.ts";

/** Fewer file lines than this between a repeated line's other place and the snippet's placed lines: it may be code moved. */
const NEAR = 30;

/** Whether every out-of-order line of the alignment reads safely as a new line that copies a line from elsewhere. */
export function onlyCopiedLines(snip: readonly SnippetLine[], al: Alignment, pairs: readonly (readonly [number, number])[] = al.outOfOrderPairs ?? []): boolean {
  if (pairs.length === 0) return false;
  const placed: number[] = [];
  let shallowest = Number.POSITIVE_INFINITY;
  for (let s = 0; s < snip.length; s++) {
    const f = al.fileLine[s] as number;
    if (f < 0) continue;
    placed.push(f);
    const text = (snip[s] as SnippetLine).text;
    if (!isBlank(text)) shallowest = Math.min(shallowest, indentWidth(text));
  }
  return pairs.every(([s, f]) => {
    const text = (snip[s] as SnippetLine).text;
    if (readHeader(text) !== undefined || indentWidth(text) <= shallowest) return false;
    return placed.every((p) => Math.abs(p - f) >= NEAR);
  });
}
