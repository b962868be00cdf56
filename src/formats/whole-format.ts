/**
 * Whole files: the new text of a file, all of it (Aider's "whole" format),
 * or a JSON `{path, content}` / text-editor `create` edit (json-edits.ts).
 *
 *   whole-file := path-line NL fence       the path alone on the line before the fence
 *               | fence-with-path          ```ts:src/a.ts (fence-path.ts)
 *   fence      := OPEN info? NL body CLOSE   the body is the file's new text
 *
 * Read only when the user asks for it (`--format whole`): a code block after
 * a file name in prose is as often an excerpt as a whole file, and writing
 * an excerpt over a file destroys the rest of it. Never auto-detected.
 *
 * Strictness, each against a model habit that would lose code:
 * - An unclosed fence is refused: the response was cut off mid-file.
 * - A body that elides part of the file ("// ... existing code ...",
 *   "# rest of the file unchanged") is refused: models shorten whole files.
 * - `create` (the text editor's command) never overwrites a different file.
 */
import { EditError } from "../errors.ts";
import { fencePath } from "./fence-path.ts";
import { readPathLine } from "./search-replace-files.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, ResponseText, SplitResult } from "./types.ts";

export interface WholePayload {
  /** The file's whole new text. */
  content: string;
  /** A create (text editor `create`, `file_text`): refuse to replace a file with other content. */
  create: boolean;
}

/** A comment line that stands for code left out: `// ... existing code ...`, `# rest of file unchanged`. */
const ELISION =
  /^\s*(?:\/\/|#|--|;|\/\*|\*|<!--|\{\/\*)\s*(?:\.\.\.|…)?\s*(?:\(?\s*)(?:rest of (?:the )?(?:file|code|class|function)|existing code|remaining code|other (?:code|methods|functions)|unchanged code|same as before|previous code)\b/i;

function elidedLine(text: string): number | undefined {
  const lines = text.split("\n");
  const k = lines.findIndex((l) => ELISION.test(l) || /^\s*(?:\/\/|#)\s*(?:\.\.\.|…)\s*$/.test(l));
  return k === -1 ? undefined : k + 1;
}

function split(response: ResponseText): SplitResult<WholePayload> {
  const out: SplitResult<WholePayload> = { edits: [], errors: [] };
  if (response.format !== "whole") return out;
  const { lines, consumed } = response;
  for (const f of response.fences) {
    if (consumed.has(f.open)) continue;
    let path = fencePath(lines[f.open] as string)?.path;
    if (path === undefined) {
      let i = f.open - 1;
      while (i >= 0 && (lines[i] as string).trim() === "" && !consumed.has(i)) i--;
      if (i >= 0 && !consumed.has(i)) path = readPathLine(lines[i] as string);
    }
    if (path === undefined) continue;
    const line = f.open + 1;
    for (let k = f.open; k <= Math.min(f.close, lines.length - 1); k++) consumed.add(k);
    if (f.close >= lines.length) {
      out.errors.push(new EditError("PARSE", `The file ${path} at line ${line} is never closed with a fence: the response may be cut off. Send the whole file again.`, { line, path }));
      continue;
    }
    out.edits.push({ format: "whole", path, line, payload: { content: f.body === "" ? "" : `${f.body}\n`, create: false } });
  }
  return out;
}

function apply(content: string, edit: FileEdit<WholePayload>, ctx: FileApplyContext): FileApplyResult {
  const text = edit.payload.content.replace(/\r\n/g, "\n");
  const elided = elidedLine(text);
  if (elided !== undefined) {
    throw new EditError(
      "INVALID_INPUT",
      `The new text of ${ctx.path} leaves code out at its line ${elided} ("${text.split("\n")[elided - 1]?.trim()}"); writing it would delete that code. Send the whole file, or SEARCH/REPLACE blocks for the parts that change.`,
      { line: elided },
    );
  }
  if (ctx.exists && content === text) throw new EditError("ALREADY_APPLIED", `already applied (${ctx.path} already has exactly this text); nothing to do.`);
  if (edit.payload.create && ctx.exists && content !== "") {
    throw new EditError(
      "CONFLICT",
      `${ctx.path} already exists with other content, and create never overwrites a file. Edit it with str_replace, or send its whole new text as {"path", "content"}.`,
    );
  }
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return { content: text, ops: [{ status: "applied", strategy: ctx.exists ? "whole" : "create", startLine: 1, endLine: lines, score: 1, fuzzy: false }] };
}

export const wholeFormat: FormatEntry<WholePayload> = Object.freeze({
  name: "whole",
  summary: "with --format whole only: a path line, then the file's whole new text in a fence",
  unit: "file",
  // Never guessed from a response: see the header.
  detect: () => false,
  split,
  apply,
});
