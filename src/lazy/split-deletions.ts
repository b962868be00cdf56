/**
 * A run of snippet lines between markers that matches the file only with
 * file lines deleted at two or more places between its lines, while its
 * first line also stands again in the file right before (blank lines apart)
 * the file line its last line matched: the run reads two ways, the file
 * lines between deleted (a model taking out debug prints) or every line
 * between the first and the last one new, written after that second copy of
 * the first (bench:lazy, sympy-17139: `return rv` then three `if ...:
 * return rv` guards the file has with a `print` each, and the snippet added
 * them after the last guard). The merge cannot tell which: refused, naming
 * the first line and both of its places.
 */
import { EditError } from "../errors.ts";
import { type Alignment, lineKey } from "./align.ts";
import { isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine, segmentsOf } from "./merge.ts";

/** Whether file lines (from, to) hold a non-blank line. */
function holdsCode(fileLines: readonly string[], from: number, to: number): boolean {
  for (let g = from + 1; g < to; g++) if (!isBlank(fileLines[g] as string)) return true;
  return false;
}

/** The aligned non-blank lines of snippet lines [start, end) as [snippet line, file line], or undefined when a new non-blank line stands among them. */
function allAligned(snip: readonly SnippetLine[], al: Alignment, start: number, end: number): [number, number][] | undefined {
  const out: [number, number][] = [];
  for (let s = start; s < end; s++) {
    if (isBlank((snip[s] as SnippetLine).text)) continue;
    const f = al.fileLine[s] as number;
    if (f < 0 || al.similar[s]) return undefined;
    out.push([s, f]);
  }
  return out;
}

export function checkSplitDeletions(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (const seg of segmentsOf(snip)) {
    const pairs = allAligned(snip, al, seg.start, seg.end);
    if (!pairs || pairs.length < 3) continue;
    let gaps = 0;
    for (let k = 1; k < pairs.length; k++) if (holdsCode(fileLines, (pairs[k - 1] as [number, number])[1], (pairs[k] as [number, number])[1])) gaps++;
    if (gaps < 2) continue;
    const [s0, f0] = pairs[0] as [number, number];
    const fLast = (pairs[pairs.length - 1] as [number, number])[1];
    const first = snip[s0] as SnippetLine;
    // The one file line that can be the second copy: the last non-blank line before the run's last one.
    let p = fLast - 1;
    while (p > f0 && isBlank(fileLines[p] as string)) p--;
    if (p <= f0 || lineKey(fileLines[p] as string) !== lineKey(first.text)) continue;
    throw new EditError(
      "AMBIGUOUS",
      `Snippet lines ${first.index + 1}-${(snip[(pairs[pairs.length - 1] as [number, number])[0]] as SnippetLine).index + 1} match the file from file line ${f0 + 1} only by deleting file lines at ${gaps} places between them, and snippet line ${first.index + 1} (${quoteLine(first.text)}) stands again at file line ${p + 1}, right before the file's line for the run's last one: the lines between may be new there instead. Put a marker where file lines stay, or a "// remove ..." note where they go.`,
      { segment: first.index + 1, candidates: [{ startLine: f0 + 1, endLine: f0 + 1 }, { startLine: p + 1, endLine: p + 1 }] },
    );
  }
}
