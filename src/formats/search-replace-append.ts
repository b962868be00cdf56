/**
 * A SEARCH/REPLACE block with an empty SEARCH: Aider's convention, kept by
 * the models trained on it, creates the file when it is empty and appends
 * REPLACE to its end otherwise ("add this test function at the bottom").
 * Sent again, the block finds its lines already in the file: ALREADY_APPLIED,
 * never a second copy (a Python function defined twice silently shadows the
 * first).
 */
import { renderLineEdits } from "../engine/line-edits.ts";
import { withOrigin } from "../engine/op-messages.ts";
import { type AppliedOp, type EditOp, placedOp } from "../engine/ops.ts";
import { EditError } from "../errors.ts";
import { Document } from "../text/document.ts";

/** Appended text at least this long, found as whole lines, was appended before (see op-messages.ts). */
const MIN_SPECIFIC_CHARS = 20;

export type AppendResult = { content: string; report: AppliedOp; error?: undefined } | { error: EditError };

/** Lines of `text` without a final empty one ("a\nb\n" is two lines). */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * 0-based line where `lines` stand as whole lines of `doc`, the last such
 * place; -1 when nowhere. Found through the places of its longest line (the
 * rarest, as a rule): tried at every line, 2,300 mostly blank lines against
 * a file of 28,000 blank lines compared millions of lines (2 s). Exported
 * for the test that it finds what trying every line finds.
 */
export function lastWholeLines(doc: Document, lines: readonly string[]): number {
  const n = lines.length;
  let anchor = 0;
  for (let k = 1; k < n; k++) if ((lines[k] as string).length > (lines[anchor] as string).length) anchor = k;
  const needle = lines[anchor] as string;
  const text = doc.text;
  // From the end: the first place that holds every line is the last one.
  for (let p = text.lastIndexOf(needle); p !== -1; p = p === 0 ? -1 : text.lastIndexOf(needle, p - 1)) {
    const at = doc.lineAt(p);
    if (doc.lineStart(at) !== p || doc.line(at) !== needle) continue;
    const i = at - anchor;
    if (i < 0 || i + n > doc.lineCount) continue;
    let k = 0;
    while (k < n && doc.line(i + k) === lines[k]) k++;
    if (k === n) return i;
  }
  return -1;
}

export function appendBlock(content: string, op: EditOp): AppendResult {
  const replace = op.readings[0]?.replace ?? "";
  const lines = linesOf(replace);
  const fail = (code: EditError["code"], message: string, detail = {}) => ({ error: withOrigin(new EditError(code, message, detail), op) });
  if (lines.every((l) => l.trim() === "")) {
    return fail("INVALID_INPUT", "SEARCH and REPLACE are both empty: the block changes nothing. Put the existing lines to change in SEARCH and their new text in REPLACE.");
  }
  const doc = Document.from(content);
  const n = doc.lineCount;
  const report = (from: number, strategy: "create" | "line-hint") => placedOp(op, strategy, from + 1, from + lines.length, lines.length);
  if (n === 0) return { content: renderLineEdits(doc, [{ from: 0, to: 0, lines }], true), report: report(0, "create") };
  const at = lastWholeLines(doc, lines);
  // A short line ("}", "pass") stands anywhere by chance: elsewhere than at the end it proves nothing.
  if (at >= 0 && (at + lines.length === n || lines.join("").trim().length >= MIN_SPECIFIC_CHARS)) {
    return fail("ALREADY_APPLIED", `already applied (the lines this empty-SEARCH block appends are at lines ${at + 1}-${at + lines.length}); nothing to do.`, {
      startLine: at + 1,
      endLine: at + lines.length,
    });
  }
  // Appended lines end with a line break, as the file's last line then needs one.
  return { content: renderLineEdits(doc, [{ from: n, to: n, lines }], true), report: report(n, "line-hint") };
}
