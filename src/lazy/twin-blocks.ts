/**
 * A line out of order that stands in a twin of the block the snippet was
 * placed in. The snippet shows a block's opening line (`def __new__(cls,
 * *args):`) that the file has twice; the alignment placed it at one copy by
 * the lines that copy has alone, and a line of the snippet that only the
 * other copy has fell out of order. That line is no copy from elsewhere
 * (copied-lines.ts): the snippet may be the other block's change as well,
 * written with lines of its twin (bench:lazy, sympy-16988: `Intersection`'s
 * `__new__` rewritten like `Union`'s, merged into `Union`'s). Refused,
 * naming both blocks.
 */
import { EditError } from "../errors.ts";
import { lineKey } from "./align.ts";
import { blockAt, indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

export interface Twin {
  /** The snippet line out of order and its file line. */
  snippetLine: number;
  fileLine: number;
  /** The snippet's opening line, the file line it was placed at, and the other copy's that holds `fileLine`. */
  opener: number;
  placedAt: number;
  twinAt: number;
}

/** The first out-of-order pair whose file line lies in a twin of a block the snippet opens at its aligned place, or undefined. */
export function twinBlock(snip: readonly SnippetLine[], fileLine: Int32Array, fileLines: readonly string[], index: ReadonlyMap<string, readonly number[]>, pairs: readonly (readonly [number, number])[]): Twin | undefined {
  for (let o = 0; o < snip.length; o++) {
    const at = fileLine[o] as number;
    const line = snip[o] as SnippetLine;
    if (at < 0 || line.kind !== "code" || isBlank(line.text)) continue;
    const places = index.get(lineKey(line.text));
    if (!places || places.length < 2 || !blockAt(fileLines, at)) continue;
    // The lines out of order inside the opener's block in the snippet.
    const inside = pairs.filter(([s]) => s > o && indentWidth((snip[s] as SnippetLine).text) > indentWidth(line.text));
    for (const p of places) {
      if (p === at || !inside.some(([, f]) => f > p)) continue;
      const block = blockAt(fileLines, p);
      if (!block) continue;
      const pair = inside.find(([, f]) => f > p && f < block.end);
      if (pair) return { snippetLine: pair[0], fileLine: pair[1], opener: o, placedAt: at, twinAt: p };
    }
  }
  return undefined;
}

export function twinBlockError(snip: readonly SnippetLine[], fileLines: readonly string[], t: Twin, quote: (text: string) => string): EditError {
  const span = (open: number) => ({ startLine: open + 1, endLine: blockAt(fileLines, open)?.end ?? open + 1 });
  const [a, b] = [span(t.placedAt), span(t.twinAt)];
  return new EditError(
    "AMBIGUOUS",
    `Snippet line ${t.snippetLine + 1} (${quote((snip[t.snippetLine] as SnippetLine).text)}) is file line ${t.fileLine + 1}, in the block opened at file line ${t.twinAt + 1}, while the lines around it fit the block opened by the same line (snippet line ${t.opener + 1}, ${quote((snip[t.opener] as SnippetLine).text)}) at file line ${t.placedAt + 1}: the snippet may change either block (lines ${a.startLine}-${a.endLine} or ${b.startLine}-${b.endLine}). Include a line around it that only the block you change has (its class's header, with "// ... existing code ..." for the rest).`,
    { segment: t.snippetLine + 1, candidates: [a, b] },
  );
}
