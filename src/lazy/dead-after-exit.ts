/**
 * A new `return` (`raise`, `throw`) that the merge puts right before a kept
 * line of the file at the same depth: that line, and the block's rest,
 * could never run. The marker after the snippet's last line was meant for
 * what follows the block (the model rewrote the block to its end), or the
 * new line is written where the file's block goes on; the snippet (the
 * exit, blank lines, then a marker, which kept the lines) does not
 * say which (bench:lazy: a per-definition merge kept `mrow.appendChild(...)`
 * and `return mrow` after a rewritten method's new `return x`). Refused.
 * The case of two exits next to each other is merge.ts's checkUnreachable.
 */
import { EditError } from "../errors.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

const EXITS = /^(?:return|raise|throw)\b/;
/** Lines that may follow an exit at its depth and run: a switch's labels, comments, preprocessor lines, closers. */
const REACHABLE = /^(?:case\b|default\b|#|\/\/|\/\*|\*|[)\]}]|<\/|end\b|fi\b|done\b|esac\b)/;

/** `fresh`: per merged line, the snippet line it was written from as new, or -1 - its file line. */
export function checkDeadAfterExit(snip: readonly SnippetLine[], out: readonly string[], fresh: ArrayLike<number>): void {
  for (let p = 0; p + 1 < out.length; p++) {
    // Only where the lines turn from new to kept: no pass over every kept line.
    if ((fresh[p] as number) >= 0 === (fresh[p + 1] as number) >= 0 || (fresh[p + 1] as number) >= 0) continue;
    let i = p;
    while (i >= 0 && isBlank(out[i] as string)) i--;
    if (i < 0 || (fresh[i] as number) < 0) continue;
    const line = out[i] as string;
    if (!EXITS.test(line.trim())) continue;
    let j = p + 1;
    while (j < out.length && isBlank(out[j] as string)) j++;
    if (j >= out.length || (fresh[j] as number) >= 0) continue;
    const next = out[j] as string;
    if (indentWidth(next) !== indentWidth(line) || REACHABLE.test(next.trim()) || EXITS.test(next.trim())) continue;
    const s = fresh[i] as number;
    // Only an exit the snippet follows with a marker: the marker kept the lines after it (measured:
    // any new exit before kept lines refused 35 right merges of bench:lazy for 2 wrong ones).
    // `fresh` holds the snippet line's own index; a definition's snippet is a slice of the whole one.
    let m = snip.findIndex((l) => l.index === s) + 1;
    if (m === 0) continue;
    while (m < snip.length && snip[m]?.kind === "code" && isBlank((snip[m] as SnippetLine).text)) m++;
    if (m >= snip.length || snip[m]?.kind === "code") continue;
    const f = -(fresh[j] as number) - 1;
    const t = line.trim();
    const u = next.trim();
    throw new EditError(
      "AMBIGUOUS",
      `The new line at snippet line ${s + 1} ("${t.length > 70 ? `${t.slice(0, 67)}...` : t}") would stand before file line ${f + 1} ("${u.length > 70 ? `${u.slice(0, 67)}...` : u}"), kept at the same depth, which could then never run: the snippet may replace the file's lines to the block's end, or go elsewhere. Show the block's last lines (changed or as they are) instead of leaving them to a marker.`,
      { segment: s + 1, candidates: [{ startLine: f + 1, endLine: f + 1 }] },
    );
  }
}
