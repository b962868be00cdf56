/**
 * A segment whose one non-blank line is a changed line, placed by its
 * likeness to a file line alone (align.ts alignLoneSegments: the most
 * similar line, clearly more than the next): blank lines around it tell no
 * place, so any other line of its range similar enough to be the line
 * changed (SIMILAR, the bar a changed line must clear) is a candidate too,
 * and the segment is refused, naming them. bench:lazy, sympy-11870: `return
 * signsimp(bottom_up(expr, exp_to_sinc))` after a whitespace-only line was
 * taken for the twin function's `... exp_to_sin))` (0.98 alike) instead of
 * the `return bottom_up(expr, exp_to_sinc)` it wraps (0.78).
 */
import { EditError } from "../errors.ts";
import { type Alignment, lineKey, SIMILAR, similarity } from "./align.ts";
import { isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine, segmentsOf } from "./merge.ts";
import { alignedAfter, alignedBefore } from "./unplaced-segments.ts";

/** The first word of a key (`return`, `def`), which a changed line keeps. */
function firstWord(key: string): string {
  return /^[^A-Za-z0-9_$]*[A-Za-z0-9_$]*/.exec(key)?.[0] ?? "";
}

export function checkLoneChangedLine(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (const g of segmentsOf(snip)) {
    let only = -1;
    let count = 0;
    for (let s = g.start; s < g.end; s++) {
      if (isBlank((snip[s] as SnippetLine).text)) continue;
      count++;
      only = s;
    }
    const at = al.fileLine[only] as number;
    if (count !== 1 || at < 0 || !al.similar[only]) continue;
    const key = lineKey((snip[only] as SnippetLine).text);
    const word = firstWord(key);
    const others: number[] = [];
    const [lo, hi] = [alignedBefore(al.fileLine, g.start), alignedAfter(al.fileLine, g.end, fileLines.length)];
    for (let f = lo; f < hi && others.length < 10; f++) {
      if (f === at) continue;
      const fk = lineKey(fileLines[f] as string);
      if (fk.startsWith(word) && similarity(key, fk) >= SIMILAR) others.push(f);
    }
    if (others.length === 0) continue;
    const candidates = [at, ...others].sort((a, b) => a - b);
    throw new EditError(
      "AMBIGUOUS",
      `Snippet line ${only + 1} (${quoteLine((snip[only] as SnippetLine).text)}) is no line of the file, and reads as a change of ${candidates.length} of its lines (lines ${candidates.map((f) => f + 1).join(", ")}), with no other line of the file around it to tell which. Include an unchanged line of the file next to it.`,
      { segment: only + 1, candidates: candidates.map((f) => ({ startLine: f + 1, endLine: f + 1 })) },
    );
  }
}
