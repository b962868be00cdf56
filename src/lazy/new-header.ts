/**
 * A new definition header (`def _print_Function(self, expr):`) whose body
 * in the snippet holds lines of the file that stand, in the file, under
 * another definition's header (`def _print_Float(self, expr):`) which the
 * merge keeps (a marker, or the snippet's start, lies between them): the
 * merge would write the new header just above those lines, leaving the
 * file's header with the lines before them (or with no body at all) and
 * giving the rest to the new one. The snippet may mean the file's header
 * changed (replace it, and the lines between), or a new definition that
 * takes those lines, and it does not say which (bench:lazy: 6 wrong
 * merges, each a header renamed or replaced over a body the file has).
 * Refused, naming both headers. The same when the lines stand under any
 * other block's opener (`for info in pages:`): a new method whose body
 * repeats a loop's lines is not that loop's lines taken out of it
 * (bench:lazy: one wrong merge and one negative merged, the new method
 * read as placed by the copied lines once kept-copies.ts read copies).
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import { readHeader } from "./definitions.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine } from "./merge.ts";

/** The nearest non-blank line before `f` indented less than it, or -1. */
function fileParent(fileLines: readonly string[], f: number): number {
  const depth = indentWidth(fileLines[f] as string);
  for (let k = f - 1; k >= 0; k--) {
    const t = fileLines[k] as string;
    if (!isBlank(t) && indentWidth(t) < depth) return k;
  }
  return -1;
}

export function checkNewHeaders(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  const used = new Set<number>();
  for (const f of al.fileLine) if (f >= 0) used.add(f);
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    if (line.kind !== "code" || (al.fileLine[s] as number) >= 0 || !readHeader(line.text)) continue;
    // The first line of its block in the snippet that is a line of the file.
    const depth = indentWidth(line.text);
    let body = -1;
    for (let k = s + 1; k < snip.length; k++) {
      const l = snip[k] as SnippetLine;
      if (l.kind !== "code") break;
      if (isBlank(l.text)) continue;
      if (indentWidth(l.text) <= depth) break;
      if ((al.fileLine[k] as number) >= 0) {
        body = k;
        break;
      }
    }
    if (body < 0) continue;
    const p = fileParent(fileLines, al.fileLine[body] as number);
    if (p < 0 || used.has(p)) continue;
    // Kept by the merge: the snippet's start or a marker stands between the last placed line before it and the new header.
    let q = s - 1;
    let marker = false;
    while (q >= 0 && !((snip[q] as SnippetLine).kind === "code" && (al.fileLine[q] as number) >= 0)) {
      if ((snip[q] as SnippetLine).kind !== "code") marker = true;
      q--;
    }
    if (q >= 0 && (!marker || (al.fileLine[q] as number) >= p)) continue;
    const header = readHeader(fileLines[p] as string) !== undefined;
    const reading = header
      ? "the snippet may rename that header (replacing it and the lines between) or add a new definition that takes its lines. Show the file's header line, changed or as it is, or the unchanged line before the new one."
      : "the new definition would take those lines out of that block, and the snippet may mean a new definition elsewhere that repeats them. Show the unchanged line before the new one, or the file's line changed or as it is.";
    throw new EditError(
      "AMBIGUOUS",
      `The new header at snippet line ${s + 1} (${quoteLine(line.text)}) stands over snippet line ${body + 1}, which is file line ${(al.fileLine[body] as number) + 1}, under the file's ${header ? "header" : "line"} at line ${p + 1} (${quoteLine(fileLines[p] as string)}), which the merge would keep: ${reading}`,
      { segment: s + 1, candidates: [{ startLine: p + 1, endLine: (al.fileLine[body] as number) + 1 }] },
    );
  }
}
