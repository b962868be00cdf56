/**
 * str_replace edits in a model's response: fenced JSON (or JSONL) values,
 * or a whole input that is JSON (edits piped from a program). The JSON
 * shapes accepted, agents' tool calls included, are json-edits.ts's; an
 * edit there may be of another format (a diff, a whole file).
 *
 *   json edit := fence ("```", "```json", "```jsonc", "```jsonl") whose body is JSON
 *   str_replace := { path, oldString, newString, replaceAll? }
 *               | { command: "insert", path, insert_line, new_str }   (insertLine in the payload)
 */
import type { LineEdit } from "./anchored-parse.ts";
import { EditError } from "../errors.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { hasCrLines } from "../text/cr-lines.ts";
import { missingFile } from "./file-errors.ts";
import { collectJsonEdits, parseJsonOrLines } from "./json-edits.ts";
import { alreadyAppliedNote } from "./already-applied.ts";
import { blockText, type RejectedOp, replaceAllText } from "./rejects.ts";
import { replaceWithChange } from "./str-replace.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, ResponseText, SplitResult } from "./types.ts";

export interface StrReplacePayload {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
  /** The text editor's insert: `newString` goes after this line (0: at the top); `oldString` is "". */
  insertLine?: number;
}

/** Edits given as data rather than text. */
export type StructuredEdit =
  | { path: string; oldString: string; newString: string; replaceAll?: boolean; expectedHash?: string; expectedContent?: string }
  | { path: string; diff: string; expectedHash?: string; expectedContent?: string }
  /** The whole new text of the file (a new file, or a replacement of all of it). */
  | { path: string; content: string; expectedHash?: string; expectedContent?: string }
  /** Line edits citing the tags of the anchored view (anchored-parse.ts). */
  | { path: string; edits: readonly LineEdit[]; expectedHash?: string; expectedContent?: string }
  /** An OpenAI apply_patch operation: `diff` a V4A section without its envelope (the new file's "+" lines for create_file). */
  | { type: "create_file" | "update_file" | "delete_file"; path: string; diff?: string; move_to?: string; expectedHash?: string; expectedContent?: string }
  /** An Anthropic text editor edit: str_replace (`old_str`, `new_str`), insert (`insert_line`, `insert_text` or `new_str`), create (`file_text`). */
  | { command: "str_replace" | "insert" | "create"; path: string; old_str?: string; new_str?: string; insert_line?: number; insert_text?: string; file_text?: string };

function split(response: ResponseText): SplitResult {
  const out: SplitResult = { edits: [], errors: [] };
  for (const f of response.fences) {
    if (!(f.info === "" || f.info.startsWith("json")) || !/^\s*[[{]/.test(f.body)) continue;
    const parsed = parseJsonOrLines(f.body);
    const consume = () => {
      for (let k = f.open; k <= Math.min(f.close, response.lines.length - 1); k++) response.consumed.add(k);
    };
    if (parsed.ok) {
      if (collectJsonEdits(parsed.value, f.open + 2, out, false) > 0) consume();
    } else if (/"(oldString|old_string|old_str|newString|new_string|new_str|file_text|command|edits|tool_calls)"/.test(f.body)) {
      consume();
      const line = f.open + 1 + parsed.line;
      out.errors.push(
        new EditError("PARSE", `The JSON edit at line ${line} is not valid JSON (${parsed.error} of the fence). Escape newlines in strings as \\n and quotes as \\".`, {
          line,
        }),
      );
    }
  }
  return out;
}

/**
 * Where `newString` already stands around every exact occurrence of
 * `oldString` (old "c = 3", new "c = 30", the file has "c = 30"): the edit
 * ran before, and running it again would write "c = 300". Undefined when
 * some occurrence stands alone, or the new text does not hold the old.
 */
function coveredByReplacement(content: string, oldString: string, newString: string): { startLine: number; endLine: number } | undefined {
  const inner = newString.indexOf(oldString);
  if (oldString === "" || inner === -1) return undefined;
  let first: number | undefined;
  for (let at = content.indexOf(oldString); at !== -1; at = content.indexOf(oldString, at + 1)) {
    const start = at - inner;
    if (start < 0 || !content.startsWith(newString, start)) return undefined;
    first ??= start;
  }
  if (first === undefined) return undefined;
  // Counted, not split: a resent edit late in a big file made an array of every line before it.
  const startLine = countBreaks(content, 0, first) + 1;
  return { startLine, endLine: startLine + newString.split("\n").length - 1 };
}

/** The text editor's insert: `text` as whole lines after line `after` (0: the top). */
function insertLines(content: string, text: string, after: number, ctx: FileApplyContext): FileApplyResult {
  if (!ctx.exists) throw missingFile(ctx.path, 'a "create" command with "file_text"', ctx.pathHint);
  if (text === "") throw new EditError("NO_CHANGE", `The insert after line ${after} of ${ctx.path} has an empty "new_str": it would change nothing.`);
  // A file of CR-terminated lines keeps its CR breaks; the CRs a model copied end its lines too.
  const eol = hasCrLines(content) ? "\r" : "\n";
  const typed = eol === "\r" ? text.replace(/\r\n?/g, "\n") : text;
  const finalNewline = content.endsWith(eol);
  const lines = content === "" ? [] : content.split(eol);
  if (finalNewline) lines.pop();
  if (after > lines.length) {
    throw new EditError("INVALID_INPUT", `"insert_line" ${after} is past the end of ${ctx.path}, which has ${lines.length} lines; use 0 to ${lines.length}.`, {
      line: after,
    });
  }
  // A model ends the text with a newline to end its last line, not to add a blank one.
  const added = (typed.endsWith("\n") ? typed.slice(0, -1) : typed).split("\n");
  const next = lines.slice(after, after + added.length);
  // Whole lines, one not blank, right after the insert point: inserted before (as the engine's rule for replacements).
  if (added.some((l) => l.trim() !== "") && next.length === added.length && next.every((l, k) => l === added[k])) {
    throw new EditError("ALREADY_APPLIED", `already applied (the inserted text is at lines ${after + 1}-${after + added.length}); nothing to do.`, {
      startLine: after + 1,
      endLine: after + added.length,
    });
  }
  const result = [...lines.slice(0, after), ...added, ...lines.slice(after)].join(eol) + (finalNewline || lines.length === 0 ? eol : "");
  return { content: result, ops: [{ status: "applied", strategy: "insert", startLine: after + 1, endLine: after + added.length, score: 1, fuzzy: false }] };
}

/** Codes of an edit that was read but not placed: what `--reject` writes to the .rej (bad input, a limit or the time budget fail as before). */
const REJECTABLE = new Set(["NOT_FOUND", "AMBIGUOUS", "CONFLICT", "NO_CHANGE"]);

/**
 * `--reject`: the failed edit as a SEARCH/REPLACE block, or, replacing every
 * occurrence (which a block cannot say), as its JSON edit. Undefined when
 * it is not an edit failure, or the edit ran before (already applied).
 */
function rejectedEdit(error: unknown, path: string, p: StrReplacePayload): RejectedOp | undefined {
  if (!(error instanceof EditError) || !REJECTABLE.has(error.code) || alreadyAppliedNote(error, "edit")) return undefined;
  return p.replaceAll === true ? { kind: "json", text: replaceAllText(path, p.oldString, p.newString) } : { kind: "block", text: blockText(p.oldString, p.newString) };
}

/** How a tool call says "an empty text to find" (the CLI's replace says `--old ''`). */
const EMPTY_OLD = 'an empty "oldString"';

function apply(content: string, edit: FileEdit<StrReplacePayload>, ctx: FileApplyContext): FileApplyResult {
  const { oldString, newString, replaceAll, insertLine } = edit.payload;
  if (insertLine !== undefined) return insertLines(content, newString, insertLine, ctx);
  if (!ctx.exists && oldString !== "") {
    throw missingFile(ctx.path, ctx.emptyOldAdvice ?? EMPTY_OLD, ctx.pathHint);
  }
  if (!ctx.exists && newString === "") {
    // An empty new file (a Python __init__.py): the engine has nothing to replace and would say NO_CHANGE.
    return { content: "", ops: [{ status: "applied", strategy: "create", startLine: 1, endLine: 0, score: 1, fuzzy: false }] };
  }
  if (ctx.exists && oldString === "" && content !== "") {
    if (content === newString) throw new EditError("ALREADY_APPLIED", `already applied (${ctx.path} exists with exactly the new text); nothing to do.`);
    throw new EditError(
      "INVALID_INPUT",
      `${ctx.path} already exists and is not empty; ${ctx.emptyOldAdvice ?? EMPTY_OLD} only creates new files. Give the text to replace instead.`,
    );
  }
  const covered = coveredByReplacement(content, oldString, newString);
  if (covered) {
    throw new EditError("ALREADY_APPLIED", `already applied (its new text, which holds the old, is at lines ${covered.startLine}-${covered.endLine}); nothing to do.`, covered);
  }
  const chosen = ctx.choices?.get(0);
  let replaced: ReturnType<typeof replaceWithChange>;
  try {
    replaced = replaceWithChange(content, oldString, newString, {
      ...ctx.options,
      replaceAll: replaceAll ?? false,
      ...(chosen !== undefined && { startLine: chosen }),
      ...(ctx.replaceAllAdvice !== undefined && { replaceAllAdvice: ctx.replaceAllAdvice }),
    });
  } catch (error) {
    const rejected = ctx.keepApplied === true ? rejectedEdit(error, ctx.path, edit.payload) : undefined;
    if (!rejected) throw error;
    return { content, ops: [{ status: "failed", error: error as EditError, rejected }] };
  }
  const { result, change, parts, literal } = replaced;
  const m = result.match;
  if (result.alreadyApplied) return { content, ops: [{ status: "already-applied", note: result.alreadyApplied }] };
  // Each place apart, when a few (a replaceAll edit's): the file layer carries them apart (carried-text.ts).
  return { content: result.content, ...(change && { changes: parts ?? [change], ...(literal && { literal }) }), ops: [{ status: "applied", strategy: m.strategy, startLine: m.startLine, endLine: m.endLine, score: m.score, fuzzy: m.fuzzy, ...(replaceAll === true && { places: m.count }) }] };
}

export const strReplaceFormat: FormatEntry<StrReplacePayload> = Object.freeze({
  name: "str-replace",
  summary: 'JSON edits such as {"path", "oldString", "newString"}, fenced or whole',
  unit: "edit",
  detect: (text: string) => /"(oldString|old_string|old_str|file_text|insert_line)"/.test(text),
  split,
  apply,
});
