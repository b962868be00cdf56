/**
 * 5. IndentationFlexible: equal after removing each block's common
 * indentation. The whole block was copied at the wrong level but its inner
 * structure is right.
 */
import { minOf } from "../arrays.ts";
import { isBlank, leadingWhitespace } from "../text/normalize.ts";
import { lineCandidate, noLineWiseWindow } from "./anchors.ts";
import { trimmedWindows } from "./line-trimmed.ts";
import type { Strategy } from "./types.ts";

function removeIndentation(lines: readonly string[]): string {
  const indents = lines.filter((l) => !isBlank(l)).map((l) => leadingWhitespace(l).length);
  const min = indents.length > 0 ? minOf(indents) : 0;
  return lines.map((l) => (isBlank(l) ? l : l.slice(min))).join("\n");
}

export const indentationFlexible: Strategy = {
  name: "indentation-flexible",
  exact: true,
  find(ctx, q) {
    if (noLineWiseWindow(ctx, q)) return [];
    const want = removeIndentation(q.lines);
    const n = q.lines.length;
    // Equal dedented blocks are equal trimmed, so the trimmed windows are a superset.
    return trimmedWindows(ctx, q)
      .filter((s) => removeIndentation(ctx.doc.lines(s, s + n)) === want)
      .map((s) => lineCandidate(ctx, q, s, n, "indentation-flexible", 1));
  },
};
