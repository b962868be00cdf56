/**
 * Edits written as JSON: the shapes agents' tools emit, reduced to file
 * edits of the str-replace, search-replace, udiff and whole formats.
 *
 *   input     := value | value NL value ...            JSONL: one value a line
 *   value     := edit | value[] | wrapper
 *   wrapper   := { "edits": edit[], path? }            a MultiEdit call: the path is the edits'
 *              | { "tool_calls": call[] }              OpenAI: also "message": {...}, "choices": [{ "message" }]
 *              | { "function": { name, arguments } }   one OpenAI call; arguments a JSON string
 *              | { "content": block[] }                Anthropic message; its "tool_use" blocks
 *              | { name?, "arguments" | "input" | "parameters" | "args": edit | string }
 *   edit      := { path, oldString, newString, replaceAll? }            str_replace
 *              | { path, diff }                                        SEARCH/REPLACE blocks or a diff
 *              | { "command": "str_replace", path, old_str, new_str? } Anthropic text editor
 *              | { "command": "insert", path, insert_line, new_str }   after line insert_line; 0 = top
 *              | { "command": "create", path, file_text }              a new file
 *              | { path, content }                                     the whole new text of a file
 *              | { path, edits: [{ op, from, to?, at?, lines }] }      line edits citing tags (anchored-parse.ts)
 *              | { "type": "update_file", path, diff, move_to? }       OpenAI apply_patch operations: a headerless
 *              | { "type": "create_file", path, diff }                 V4A section (v4a-parse.ts), the whole new
 *              | { "type": "delete_file", path }                       file as "+" lines, a deletion
 *   wrapper   += { "type": "apply_patch_call", "operation": op }      OpenAI's apply_patch_call item
 *
 * Leniencies, each for a model habit:
 * - Keys in snake or camel case and under other tools' names (`file_path`,
 *   `old_string`, `old_str`, `replace_all`): models trained on other tools
 *   write them (`{"file_path": "a.ts", "old_string": "x", "new_string": "y"}`).
 * - A trailing comma or a comment (`// fix the typo`) in model-written JSON:
 *   read with jsonc-parser; any other syntax error is reported with its line
 *   and column.
 * - `arguments` as a JSON string (OpenAI's tool calls carry it so).
 * - One JSON object a line (JSONL), as logs of tool calls are kept.
 *
 * Strictness: a whole input that is JSON must be edits (each item that is
 * not is a PARSE error); a fenced JSON value that holds no edit is prose
 * (a config file shown to the user).
 */
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { EditError } from "../errors.ts";
import { looksAnchored, parseAnchoredEdits } from "./anchored-parse.ts";
import { looksLikeSearchReplace } from "./search-replace-files.ts";
import type { SplitResult } from "./types.ts";
import { diffSections } from "./udiff-format.ts";
import { v4aPayloadOf } from "./v4a-section.ts";

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string; line: number };

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Deeper than any real edit (tool calls nest a few levels). jsonc-parser
 * recurses once per level: `[` repeated 500,000 times overflowed the stack
 * with a RangeError (issue 22, item 5), so depth is measured first.
 */
const MAX_JSON_DEPTH = 256;

/** The offset where `text` nests brackets deeper than `max` (strings skipped), or -1. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/** Parses model-written JSON: trailing commas and comments allowed, other errors with their line and column. */
export function parseJson(text: string): JsonParse {
  const deep = tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep !== -1) {
    const at = lineColumn(text, deep);
    return { ok: false, error: `nested more than ${MAX_JSON_DEPTH} levels deep at line ${at.line}, column ${at.column} (edits nest a few levels)`, line: at.line };
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { ok: true, value };
  const at = lineColumn(text, first.offset);
  return { ok: false, error: `${printParseErrorCode(first.error)} at line ${at.line}, column ${at.column}`, line: at.line };
}

/**
 * JSON, or JSONL (two or more lines that are each a JSON value): the values as one list. The lines are
 * tried first when the first is a value of its own: the whole text is then two values or more, which no
 * JSON text is, and the parser reads every line of a failed text for its errors (2,000 lines: ~115 ms).
 */
export function parseJsonOrLines(text: string): JsonParse {
  const filled = text.split("\n").filter((l) => l.trim() !== "");
  // A first line that is no value of its own makes no JSONL.
  const lines = filled.length >= 2 && parseJson(filled[0] as string).ok ? jsonLines(filled) : undefined;
  return lines ?? parseJson(text);
}

/** The lines' values, when each is a JSON value. */
function jsonLines(filled: readonly string[]): JsonParse | undefined {
  const values: unknown[] = [];
  for (const line of filled) {
    const one = parseJson(line);
    if (!one.ok) return undefined;
    values.push(one.value);
  }
  return { ok: true, value: values };
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function pickString(obj: Obj, keys: readonly string[]): string | undefined {
  for (const k of keys) if (Object.hasOwn(obj, k) && typeof obj[k] === "string") return obj[k] as string;
  return undefined;
}

const PATH_KEYS = ["path", "file_path", "filePath", "file", "filename"];
const OLD_KEYS = ["oldString", "old_string", "old_str", "old"];
const NEW_KEYS = ["newString", "new_string", "new_str", "new"];
/** Keys that say a JSON object meant to be an edit: one of them without the rest is worth a PARSE error. */
const EDIT_HINT_KEYS = [...OLD_KEYS, ...NEW_KEYS, "diff", "command", "file_text", "insert_line"];

/** An edit object found in the JSON, with the path a wrapper gave it. */
interface Leaf {
  item: unknown;
  inheritedPath?: string;
}

/** Flattens wrappers (tool calls, messages, MultiEdit) into edit objects, in order. */
function leaves(raw: unknown, inheritedPath: string | undefined, out: Leaf[], depth = 0): void {
  // Real wrappers nest a few levels; a deeper value is data, not a call.
  const inner = depth > 8 ? undefined : wrapped(raw);
  if (inner === undefined) {
    out.push({ item: raw, ...(inheritedPath !== undefined && { inheritedPath }) });
    return;
  }
  for (const v of inner.items) leaves(v, inner.path ?? inheritedPath, out, depth + 1);
}

/** What a wrapper holds (and the path it gives them), or undefined for an edit object. */
function wrapped(raw: unknown): { items: unknown[]; path?: string } | undefined {
  if (Array.isArray(raw)) return { items: raw };
  if (!isObj(raw)) return undefined;
  if (Array.isArray(raw.choices)) return { items: raw.choices.map((c) => (isObj(c) && isObj(c.message) ? c.message : c)) };
  if (isObj(raw.message) && !PATH_KEYS.some((k) => k in raw)) return { items: [raw.message] };
  if (Array.isArray(raw.tool_calls)) return { items: raw.tool_calls };
  if (isObj(raw.function)) return { items: [raw.function] };
  if (isObj(raw.operation)) return { items: [raw.operation] };
  // An Anthropic message: its tool_use blocks (text blocks are the model talking).
  if (Array.isArray(raw.content)) return { items: raw.content.filter((b) => isObj(b) && b.type === "tool_use") };
  for (const key of ["arguments", "input", "parameters", "args"]) {
    const inner = raw[key];
    if (typeof inner === "string") {
      const parsed = parseJson(inner);
      if (parsed.ok && typeof parsed.value === "object" && parsed.value !== null) return { items: [parsed.value] };
    } else if (typeof inner === "object" && inner !== null) {
      return { items: [inner] };
    }
  }
  // Line edits citing tags (anchored-parse.ts) are one edit of one file, not a MultiEdit list.
  if (looksAnchored(raw.edits)) return undefined;
  // Claude Code's MultiEdit: { file_path, edits: [{ old_string, new_string }] }, one file's edits together.
  if (Array.isArray(raw.edits)) {
    const path = pickString(raw, PATH_KEYS);
    return { items: raw.edits, ...(path !== undefined && { path }) };
  }
  return undefined;
}

/** Collects edits from parsed JSON; returns how many were edits. `strict` reports every item that is not one. */
export function collectJsonEdits(value: unknown, line: number | undefined, out: SplitResult, strict: boolean): number {
  const found: Leaf[] = [];
  leaves(value, undefined, found);
  let count = 0;
  const at = line !== undefined ? { line } : {};
  for (const [n, { item, inheritedPath }] of found.entries()) {
    const where = `Edit ${n + 1}${line ? ` (line ${line})` : ""}`;
    const fail = (message: string) => out.errors.push(new EditError("PARSE", `${where} ${message}`, { index: n, ...at }));
    if (!isObj(item)) {
      if (strict) out.errors.push(new EditError("PARSE", `Edit ${n + 1} is not an object.`, { index: n, ...at }));
      continue;
    }
    const path = pickString(item, PATH_KEYS) ?? inheritedPath;
    const expectedHash = pickString(item, ["expectedHash", "expected_hash", "hash"]);
    const expectedContent = pickString(item, ["expectedContent", "expected_content"]);
    const base = {
      ...at,
      ...(expectedHash !== undefined && { expectedHash }),
      ...(expectedContent !== undefined && { expectedContent }),
    };
    // Anchored: { path, edits: [{ op, from, lines }] }, or one such edit with its path.
    const anchored = looksAnchored(item.edits) ? item.edits : looksAnchored([item]) && item.command === undefined ? [item] : undefined;
    if (anchored !== undefined) {
      const payload = parseAnchoredEdits(anchored);
      if (path === undefined) fail('(line edits) needs "path".');
      else if (payload instanceof EditError) fail(`(line edits): ${payload.message}`);
      else {
        out.edits.push({ format: "anchored", path, ...base, payload });
        count++;
      }
      continue;
    }
    const operation = pickString(item, ["type"]);
    if (operation !== undefined && Object.hasOwn(V4A_OPERATIONS, operation)) {
      const made = operationEdit(item, operation, path);
      if (typeof made === "string") fail(made);
      else {
        out.edits.push({ ...made, ...base });
        count++;
      }
      continue;
    }
    const command = pickString(item, ["command"]);
    if (command !== undefined) {
      const made = commandEdit(item, command, path);
      if (typeof made === "string") fail(made);
      else {
        out.edits.push({ ...made, ...base });
        count++;
      }
      continue;
    }
    const oldString = pickString(item, OLD_KEYS);
    const newString = pickString(item, NEW_KEYS);
    const diff = pickString(item, ["diff", "patch"]);
    const content = pickString(item, ["content", "file_text", "fileText"]);
    if (path !== undefined && oldString !== undefined && newString !== undefined) {
      const replaceAll = item.replaceAll === true || item.replace_all === true;
      out.edits.push({ format: "str-replace", path, ...base, payload: { oldString, newString, ...(replaceAll && { replaceAll }) } });
      count++;
    } else if (path !== undefined && diff !== undefined) {
      count++;
      if (looksLikeSearchReplace(diff)) {
        out.edits.push({ format: "search-replace", path, ...base, payload: { diff, offset: 0 } });
      } else {
        const before = out.edits.length;
        diffSections(diff.replace(/\r\n/g, "\n").split("\n"), (line ?? 1) - 1, out as SplitResult<never>, path);
        for (const e of out.edits.slice(before)) Object.assign(e, base);
      }
    } else if (path !== undefined && content !== undefined && oldString === undefined && newString === undefined) {
      out.edits.push({ format: "whole", path, ...base, payload: { content, create: !Object.hasOwn(item, "content") } });
      count++;
    } else if (typeof item.arguments === "string" && !parseJson(item.arguments).ok) {
      // A tool call whose arguments (JSON in a string) do not parse: say where, inside them.
      const bad = parseJson(item.arguments);
      fail(`has "arguments" that are not valid JSON (${bad.ok ? "" : bad.error} of the arguments).`);
    } else if (strict || EDIT_HINT_KEYS.some((k) => Object.hasOwn(item, k))) {
      fail(`needs "path" with "oldString" and "newString", or "path" with "diff", or "path" with "content".${path === undefined ? ' "path" is missing.' : ""}`);
    }
  }
  return count;
}

/** An Anthropic text-editor command as a file edit, or what is wrong with it. */
function commandEdit(item: Obj, command: string, path: string | undefined): { format: string; path: string; payload: unknown } | string {
  if (command === "view" || command === "undo_edit") return `is a "${command}" command, which edits nothing; send str_replace, insert or create.`;
  if (command !== "str_replace" && command !== "insert" && command !== "create") {
    return `has the unknown command "${command}"; the text editor's edits are str_replace, insert and create.`;
  }
  if (path === undefined) return `(${command}) needs "path".`;
  if (command === "str_replace") {
    const oldStr = pickString(item, OLD_KEYS);
    if (oldStr === undefined) return '(str_replace) needs "old_str", the text to replace.';
    // new_str is optional in the text editor tool: none deletes old_str.
    return { format: "str-replace", path, payload: { oldString: oldStr, newString: pickString(item, NEW_KEYS) ?? "" } };
  }
  if (command === "insert") {
    const text = pickString(item, [...NEW_KEYS, "insert_text"]);
    const at = item.insert_line;
    if (text === undefined) return '(insert) needs "new_str", the text to insert.';
    if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 0) return `(insert) needs "insert_line", a whole number of at least 0, got ${JSON.stringify(at)}.`;
    return { format: "str-replace", path, payload: { oldString: "", newString: text, insertLine: at } };
  }
  const fileText = pickString(item, ["file_text", "content"]);
  if (fileText === undefined) return '(create) needs "file_text", the new file\'s text.';
  return { format: "whole", path, payload: { content: fileText, create: true } };
}

/** OpenAI's apply_patch operation types, and whether each carries a diff. */
const V4A_OPERATIONS: Readonly<Record<string, boolean>> = Object.freeze({ create_file: true, update_file: true, delete_file: false });

/** An OpenAI apply_patch operation as a V4A file edit, or what is wrong with it. */
function operationEdit(item: Obj, type: string, path: string | undefined): { format: string; path: string; payload: unknown } | string {
  if (path === undefined) return `(${type}) needs "path".`;
  if (type === "delete_file") return { format: "v4a", path, payload: { kind: "delete", path, line: 1 } };
  const diff = pickString(item, ["diff"]);
  if (diff === undefined) return `(${type}) needs "diff", ${type === "create_file" ? 'the new file\'s lines each after "+"' : 'the V4A chunks ("@@", then " ", "-" and "+" lines)'}.`;
  const moveTo = pickString(item, ["move_to", "moveTo"]);
  try {
    return { format: "v4a", path, payload: v4aPayloadOf(diff, type === "create_file", path, moveTo) };
  } catch (error) {
    if (error instanceof EditError) return `(${type}): ${error.message}`;
    throw error;
  }
}
