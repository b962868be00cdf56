/**
 * A deletion between two aligned lines that leaves a kept line of the file
 * right after a `return` (`raise`, `throw`) of the file at the same depth,
 * where a shallower line (the header of the kept line's block) stood
 * between them: the block's header is deleted and its body joins the block
 * above, after its exit, where it can never run. A model deletes a header
 * and keeps its body far more rarely than the line before the deletion is
 * matched at the wrong place (bench:lazy, sympy-19007: a blank line after a
 * marker matched with the blank line before the method above, deleting the
 * method's `def`). Refused, naming the snippet line and the deleted lines.
 */
import { EditError } from "../errors.ts";
import type { Alignment } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

const EXITS = /^(?:return|raise|throw)\b/;
/** Lines that may follow an exit at its depth and run: a switch's labels, comments, preprocessor lines, closers. */
const REACHABLE = /^(?:case\b|default\b|#|\/\/|\/\*|\*|[)\]}]|<\/|end\b|fi\b|done\b|esac\b)/;

/** Whether a removal note stands before snippet line `s`, after the aligned line before it: the deletion is the note's. */
function noted(snip: readonly SnippetLine[], al: Alignment, s: number): boolean {
  for (let k = s - 1; k >= 0; k--) {
    const line = snip[k] as SnippetLine;
    if (line.kind === "removal") return true;
    if (line.kind === "marker" || (!isBlank(line.text) && (al.fileLine[k] as number) >= 0)) return false;
  }
  return false;
}

/**
 * `fresh`: per merged line, the snippet line it was written from as new, or
 * -1 - its file line. A deletion a removal note asks for is the model's word, not a misplaced line.
 */
export function checkDeadAfterDeletion(out: readonly string[], fresh: ArrayLike<number>, fileLines: readonly string[], snip: readonly SnippetLine[], al: Alignment): void {
  for (let p = 0; p + 1 < out.length; p++) {
    const [x, y] = [fresh[p] as number, fresh[p + 1] as number];
    // Only where two file lines meet that were not neighbours: no test of every kept line.
    if (x >= 0 || y >= 0 || x - y === 1) continue;
    let i = p;
    while (i >= 0 && isBlank(out[i] as string)) i--;
    let j = p + 1;
    while (j < out.length && isBlank(out[j] as string)) j++;
    if (i < 0 || j >= out.length || (fresh[i] as number) >= 0 || (fresh[j] as number) >= 0) continue;
    const [exit, next] = [out[i] as string, out[j] as string];
    if (!EXITS.test(exit.trim()) || indentWidth(next) !== indentWidth(exit) || REACHABLE.test(next.trim())) continue;
    const [fi, fj] = [-(fresh[i] as number) - 1, -(fresh[j] as number) - 1];
    // The deleted lines: between the two file lines that meet.
    const [from, to] = [-x, -y - 1];
    let header = -1;
    for (let f = from; f < to && header < 0; f++) if (!isBlank(fileLines[f] as string) && indentWidth(fileLines[f] as string) < indentWidth(next)) header = f;
    if (header < 0) continue;
    const s = al.fileLine.indexOf(fj);
    if (s < 0 || noted(snip, al, s)) continue;
    const t = next.trim();
    throw new EditError(
      "AMBIGUOUS",
      `Before snippet line ${s + 1} ("${t.length > 70 ? `${t.slice(0, 67)}...` : t}") the merge would delete file lines ${from + 1}-${to}, which include line ${header + 1} ("${(fileLines[header] as string).trim().slice(0, 70)}"), the header of its block: the line would then follow the return at file line ${fi + 1} and never run. The lines before it in the snippet were matched at the wrong place, or the deletion is not what you meant. Include the unchanged lines around the change, copied exactly.`,
      { segment: s + 1, candidates: [{ startLine: from + 1, endLine: to }] },
    );
  }
}
