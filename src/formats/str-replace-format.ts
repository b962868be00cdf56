/**
 * str_replace edits in a model's response: fenced JSON objects, or a whole
 * input that is JSON (edits piped from a program).
 *
 *   json edit := fence whose body is JSON: edit | edit[] | { "edits": edit[] }
 *   edit      := { "path", "oldString", "newString", "replaceAll"? }     str_replace
 *              | { "path", "diff" }              SEARCH/REPLACE blocks or a unified diff
 *
 * Leniencies:
 * - JSON keys in snake case and tool-call wrappers: models trained on other
 *   tools write `{"file_path": ..., "old_string": ..., "new_string": ...}` or
 *   wrap the arguments: `{"name": "edit", "arguments": {...}}` (arguments
 *   may be a JSON string).
 */
import { EditError } from "../errors.ts";
import { missingFile } from "./file-errors.ts";
import { replace } from "./str-replace.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, ResponseText, SplitResult } from "./types.ts";
import { diffSections } from "./udiff-format.ts";
import { looksLikeSearchReplace } from "./search-replace-files.ts";

export interface StrReplacePayload {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** Edits given as data rather than text. */
export type StructuredEdit =
  | { path: string; oldString: string; newString: string; replaceAll?: boolean; expectedHash?: string; expectedContent?: string }
  | { path: string; diff: string; expectedHash?: string; expectedContent?: string };

export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function pickString(obj: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) if (typeof obj[k] === "string") return obj[k] as string;
  return undefined;
}

/** Tool-call wrappers: {"name": "edit", "arguments": {...}}, arguments possibly a JSON string. */
function unwrap(raw: unknown): Record<string, unknown> | undefined {
  let item = raw as Record<string, unknown> | undefined;
  if (!item || typeof item !== "object") return undefined;
  for (const key of ["arguments", "input", "parameters", "args"]) {
    const inner = item[key];
    if (typeof inner === "string") {
      const parsed = tryParseJson(inner);
      if (parsed.ok && parsed.value && typeof parsed.value === "object") item = parsed.value as Record<string, unknown>;
    } else if (inner && typeof inner === "object" && !Array.isArray(inner)) {
      item = inner as Record<string, unknown>;
    }
  }
  return item;
}

/** Collects edits from parsed JSON; returns how many objects were edits. `strict` reports non-edits. */
export function collectJsonEdits(value: unknown, line: number | undefined, out: SplitResult, strict: boolean): number {
  let items: unknown[] = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && value && typeof value === "object" && Array.isArray((value as { edits?: unknown }).edits)) {
    items = (value as { edits: unknown[] }).edits;
  }
  let count = 0;
  for (const [n, raw] of items.entries()) {
    const item = unwrap(raw);
    if (!item) {
      if (strict) out.errors.push(new EditError("PARSE", `Edit ${n + 1} is not an object.`, { index: n, ...(line !== undefined && { line }) }));
      continue;
    }
    const path = pickString(item, ["path", "file_path", "filePath", "file", "filename"]);
    const oldString = pickString(item, ["oldString", "old_string", "old_str", "old"]);
    const newString = pickString(item, ["newString", "new_string", "new_str", "new"]);
    const diff = pickString(item, ["diff", "patch"]);
    const expectedHash = pickString(item, ["expectedHash", "expected_hash", "hash"]);
    const expectedContent = pickString(item, ["expectedContent", "expected_content"]);
    const guard = { ...(expectedHash !== undefined && { expectedHash }), ...(expectedContent !== undefined && { expectedContent }) };
    const at = line !== undefined ? { line } : {};
    if (path !== undefined && oldString !== undefined && newString !== undefined) {
      const replaceAll = item.replaceAll === true || item.replace_all === true;
      out.edits.push({ format: "str-replace", path, ...at, ...guard, payload: { oldString, newString, ...(replaceAll && { replaceAll }) } });
      count++;
    } else if (path !== undefined && diff !== undefined) {
      count++;
      if (looksLikeSearchReplace(diff)) {
        out.edits.push({ format: "search-replace", path, ...at, ...guard, payload: { diff, offset: 0 } });
      } else {
        const before = out.edits.length;
        diffSections(diff.replace(/\r\n/g, "\n").split("\n"), (line ?? 1) - 1, out as SplitResult<never>, path);
        for (const e of out.edits.slice(before)) Object.assign(e, guard);
      }
    } else if (strict || oldString !== undefined || newString !== undefined) {
      out.errors.push(
        new EditError(
          "PARSE",
          `Edit ${n + 1}${line ? ` (line ${line})` : ""} needs "path" with "oldString" and "newString", or "path" with "diff".${path === undefined ? ' "path" is missing.' : ""}`,
          { index: n, ...at },
        ),
      );
    }
  }
  return count;
}

function split(response: ResponseText): SplitResult {
  const out: SplitResult = { edits: [], errors: [] };
  for (const f of response.fences) {
    if (!(f.info === "" || f.info.startsWith("json")) || !/^\s*[[{]/.test(f.body)) continue;
    const parsed = tryParseJson(f.body);
    const consume = () => {
      for (let k = f.open; k <= Math.min(f.close, response.lines.length - 1); k++) response.consumed.add(k);
    };
    if (parsed.ok) {
      if (collectJsonEdits(parsed.value, f.open + 2, out, false) > 0) consume();
    } else if (/"(oldString|old_string|newString|new_string)"/.test(f.body)) {
      consume();
      const line = f.open + 2;
      out.errors.push(new EditError("PARSE", `The JSON edit at line ${line} is not valid JSON (${parsed.error}). Escape newlines in strings as \\n and quotes as \\".`, { line }));
    }
  }
  return out;
}

function apply(content: string, edit: FileEdit<StrReplacePayload>, ctx: FileApplyContext): FileApplyResult {
  const { oldString, newString, replaceAll } = edit.payload;
  if (!ctx.exists && oldString !== "") {
    throw missingFile(ctx.path, 'an empty "oldString"', ctx.pathHint);
  }
  if (!ctx.exists && newString === "") {
    // An empty new file (a Python __init__.py): the engine has nothing to replace and would say NO_CHANGE.
    return { content: "", ops: [{ status: "applied", strategy: "create", startLine: 1, endLine: 0, score: 1, fuzzy: false }] };
  }
  if (ctx.exists && oldString === "" && content !== "") {
    if (content === newString) throw new EditError("ALREADY_APPLIED", `already applied (${ctx.path} exists with exactly the new text); nothing to do.`);
    throw new EditError(
      "INVALID_INPUT",
      `${ctx.path} already exists and is not empty; an empty "oldString" only creates new files. Quote the text to replace in "oldString".`,
    );
  }
  const chosen = ctx.choices?.get(0);
  const result = replace(content, oldString, newString, {
    ...ctx.options,
    replaceAll: replaceAll ?? false,
    ...(chosen !== undefined && { startLine: chosen }),
    ...(ctx.replaceAllAdvice !== undefined && { replaceAllAdvice: ctx.replaceAllAdvice }),
  });
  const m = result.match;
  return { content: result.content, ops: [{ status: "applied", strategy: m.strategy, startLine: m.startLine, endLine: m.endLine, score: m.score, fuzzy: m.fuzzy }] };
}

export const strReplaceFormat: FormatEntry<StrReplacePayload> = Object.freeze({
  name: "str-replace",
  summary: 'JSON edits such as {"path", "oldString", "newString"}, fenced or whole',
  unit: "edit",
  detect: (text: string) => /"(oldString|old_string|old_str)"/.test(text),
  split,
  apply,
});
