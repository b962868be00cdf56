/**
 * Splits a model's response into per-file edits, by format.
 *
 * Grammar of a response (everything not matched is prose and ignored):
 *
 *   response   := (prose | fence | diff-run | sr-file)*
 *   fence      := OPEN info? NL body CLOSE          ``` or ~~~ (3+), closed by the same run or longer
 *   json edit  := fence whose body is JSON: edit | edit[] | { "edits": edit[] }
 *   edit       := { "path", "oldString", "newString", "replaceAll"? }     str_replace
 *               | { "path", "diff" }                      SEARCH/REPLACE blocks or a unified diff
 *   diff-run   := file-section+ (in a ```diff/```patch fence, any fence whose body looks like a
 *                 diff, or bare in the prose)
 *   file-section := ("diff --git" line)? "--- " old NL "+++ " new NL hunk*
 *   sr-file    := a file name line, then SEARCH/REPLACE blocks (parsed by the core's
 *                 parseSearchReplaceFiles, on the response with JSON and diff fences blanked)
 *
 * Leniencies:
 * - JSON keys in snake case and tool-call wrappers: models trained on other
 *   tools write `{"file_path": ..., "old_string": ..., "new_string": ...}` or
 *   wrap the arguments: `{"name": "edit", "arguments": {...}}`.
 * - Bare diffs in prose: "Here is the patch:\n--- a/x\n+++ b/x\n@@ ..." with
 *   no fence; the run ends at the first line that cannot be part of a diff.
 * - `a/` and `b/` prefixes (git) are removed when both headers carry them;
 *   `--- filename: main.rs` (a fuzzy-diff habit) names `main.rs`; a tab and
 *   timestamp after the name (diff -u) are dropped.
 */

import { EditError } from "../errors.ts";
import { closesFence, readFenceOpener } from "../text/fence.ts";
import { stripTimestamp } from "../text/timestamp.ts";
import type { CoreEngine } from "./core-bridge.ts";

export type EditFormat = "str-replace" | "search-replace" | "udiff";
export type ResponseFormat = "auto" | EditFormat;

interface EditBase {
  path: string;
  /** 1-based line of the response where the edit starts, when known. */
  line?: number;
  /** sha256 (hex) of the file's bytes the model saw. */
  expectedHash?: string;
  /** The file's content as the model saw it. */
  expectedContent?: string;
}

export interface StrReplaceEdit extends EditBase {
  format: "str-replace";
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export interface SearchReplaceEdit extends EditBase {
  format: "search-replace";
  /** One or more SEARCH/REPLACE blocks for this file. */
  diff: string;
  startLine?: number;
}

export interface UnifiedDiffEdit extends EditBase {
  format: "udiff";
  /** The diff section of this one file, headers included. */
  patch: string;
  isNew: boolean;
  isDeleted: boolean;
}

export type FileEdit = StrReplaceEdit | SearchReplaceEdit | UnifiedDiffEdit;

/** Edits given as data rather than text. */
export type StructuredEdit =
  | { path: string; oldString: string; newString: string; replaceAll?: boolean; expectedHash?: string; expectedContent?: string }
  | { path: string; diff: string; expectedHash?: string; expectedContent?: string };

export interface DetectedEdits {
  edits: FileEdit[];
  /** Parts of the input that could not be read (PARSE errors). */
  errors: EditError[];
}

interface Fence {
  info: string;
  /** 0-based line of the opening fence. */
  open: number;
  /** 0-based line of the closing fence (lines.length when unclosed). */
  close: number;
  body: string;
}

function findFences(lines: readonly string[]): Fence[] {
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    // String scanning, not a regular expression: see text/fence.ts (a model-written line backtracked for seconds).
    const opener = readFenceOpener(lines[i] as string);
    if (!opener) continue;
    let j = i + 1;
    while (j < lines.length && !closesFence(lines[j] as string, opener.marker)) j++;
    fences.push({ info: opener.info.toLowerCase(), open: i, close: j, body: lines.slice(i + 1, j).join("\n") });
    i = j;
  }
  return fences;
}

/** Detects the edits in a model's response. Never throws: unreadable parts become PARSE errors. */
export function detectEdits(input: string, format: ResponseFormat, engine: CoreEngine): DetectedEdits {
  const out: DetectedEdits = { edits: [], errors: [] };
  const text = input.replace(/\r\n/g, "\n");
  const trimmed = text.trim();

  // A whole input that is JSON is structured edits (piped from a program).
  if ((format === "auto" || format === "str-replace") && /^[[{]/.test(trimmed)) {
    const parsed = tryParseJson(trimmed);
    if (parsed.ok) {
      collectJsonEdits(parsed.value, 1, engine, out, true);
      return out;
    }
  }

  const lines = text.split("\n");
  const fences = findFences(lines);
  // Lines already consumed by a JSON or diff fence, blanked before the
  // SEARCH/REPLACE parser sees the text (blanking keeps line numbers).
  const consumed = new Set<number>();
  const consume = (f: Fence) => {
    for (let k = f.open; k <= Math.min(f.close, lines.length - 1); k++) consumed.add(k);
  };

  if (format === "auto" || format === "str-replace") {
    for (const f of fences) {
      if (!(f.info === "" || f.info.startsWith("json")) || !/^\s*[[{]/.test(f.body)) continue;
      const parsed = tryParseJson(f.body);
      if (parsed.ok) {
        if (collectJsonEdits(parsed.value, f.open + 2, engine, out, false) > 0) consume(f);
      } else if (/"(oldString|old_string|newString|new_string)"/.test(f.body)) {
        consume(f);
        out.errors.push(
          new EditError(
            "PARSE",
            `The JSON edit at line ${f.open + 2} is not valid JSON (${parsed.error}). Escape newlines in strings as \\n and quotes as \\".`,
            { line: f.open + 2 },
          ),
        );
      }
    }
  }

  if (format === "auto" || format === "udiff") {
    for (const f of fences) {
      if (consumed.has(f.open)) continue;
      const isDiffInfo = f.info === "diff" || f.info === "patch" || f.info === "udiff";
      if (!isDiffInfo && !(engine.looksLikeUnifiedDiff(f.body) && !engine.looksLikeSearchReplace(f.body))) continue;
      consume(f);
      collectDiffSections(lines.slice(f.open + 1, f.close), f.open + 1, engine, out);
    }
    // Bare diffs in the prose, outside every fence.
    const inFence = new Set<number>();
    for (const f of fences) for (let k = f.open; k <= Math.min(f.close, lines.length - 1); k++) inFence.add(k);
    for (let i = 0; i < lines.length; i++) {
      if (inFence.has(i) || !isSectionStart(lines, i)) continue;
      let j = i;
      while (j < lines.length && !inFence.has(j) && isDiffLine(lines[j] as string)) j++;
      while (j > i && (lines[j - 1] as string).trim() === "") j--;
      collectDiffSections(lines.slice(i, j), i, engine, out);
      for (let k = i; k < j; k++) consumed.add(k);
      i = j - 1;
    }
  }

  if (format === "auto" || format === "search-replace") {
    const rest = lines.map((l, k) => (consumed.has(k) ? "" : l)).join("\n");
    if (engine.looksLikeSearchReplace(rest)) {
      try {
        for (const file of engine.parseSearchReplaceFiles(rest)) {
          for (const d of file.diffs) {
            const line = lineOf(rest, d.content);
            out.edits.push({
              format: "search-replace",
              path: file.path,
              diff: d.content,
              ...(d.startLine !== undefined && { startLine: d.startLine }),
              ...(line !== undefined && { line }),
            });
          }
        }
      } catch (error) {
        out.errors.push(asEditError(error, "PARSE"));
      }
    }
  }
  // Edits to one file apply in the order the response gives them, whatever
  // their format; the sort is stable for edits without a known line.
  out.edits.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return out;
}

/**
 * 1-based line of `rest` where a SEARCH/REPLACE diff starts: where its whole
 * text occurs, else where its first content line (after the SEARCH marker)
 * does. Marker lines alone would match every block.
 */
function lineOf(text: string, diff: string): number | undefined {
  let at = text.indexOf(diff);
  if (at === -1) {
    const content = diff.split("\n").find((l) => l.trim() !== "" && !/^\s*(<{5,}|={5,}|>{5,}|:start_line:|-{3,}$)/.test(l));
    if (content === undefined) return undefined;
    at = text.indexOf(content);
    if (at === -1) return undefined;
  }
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Turns structured edits into file edits (no text detection involved). */
export function fromStructuredEdits(edits: readonly StructuredEdit[], engine: CoreEngine): DetectedEdits {
  const out: DetectedEdits = { edits: [], errors: [] };
  collectJsonEdits(edits, undefined, engine, out, true);
  return out;
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
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

/** Collects edits from parsed JSON; returns how many objects were edits. `strict` reports non-edits. */
function collectJsonEdits(value: unknown, line: number | undefined, engine: CoreEngine, out: DetectedEdits, strict: boolean): number {
  let items: unknown[] = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && value && typeof value === "object" && Array.isArray((value as { edits?: unknown }).edits)) {
    items = (value as { edits: unknown[] }).edits;
  }
  let count = 0;
  for (const [n, raw] of items.entries()) {
    let item = raw as Record<string, unknown>;
    // Tool-call wrappers: {"name": "edit", "arguments": {...}} (arguments may be a JSON string).
    for (const key of ["arguments", "input", "parameters", "args"]) {
      const inner = item?.[key];
      if (typeof inner === "string") {
        const parsed = tryParseJson(inner);
        if (parsed.ok && parsed.value && typeof parsed.value === "object") item = parsed.value as Record<string, unknown>;
      } else if (inner && typeof inner === "object" && !Array.isArray(inner)) {
        item = inner as Record<string, unknown>;
      }
    }
    if (!item || typeof item !== "object") {
      if (strict) out.errors.push(new EditError("PARSE", `Edit ${n} is not an object.`, { index: n, line }));
      continue;
    }
    const path = pickString(item, ["path", "file_path", "filePath", "file", "filename"]);
    const oldString = pickString(item, ["oldString", "old_string", "old_str", "old"]);
    const newString = pickString(item, ["newString", "new_string", "new_str", "new"]);
    const diff = pickString(item, ["diff", "patch"]);
    const expectedHash = pickString(item, ["expectedHash", "expected_hash", "hash"]);
    const expectedContent = pickString(item, ["expectedContent", "expected_content"]);
    const guard = { ...(expectedHash !== undefined && { expectedHash }), ...(expectedContent !== undefined && { expectedContent }) };
    if (path !== undefined && oldString !== undefined && newString !== undefined) {
      const replaceAll = item.replaceAll === true || item.replace_all === true;
      out.edits.push({ format: "str-replace", path, oldString, newString, ...(replaceAll && { replaceAll }), line, ...guard });
      count++;
    } else if (path !== undefined && diff !== undefined) {
      count++;
      if (engine.looksLikeSearchReplace(diff)) {
        out.edits.push({ format: "search-replace", path, diff, line, ...guard });
      } else {
        const before = out.edits.length;
        collectDiffSections(diff.replace(/\r\n/g, "\n").split("\n"), (line ?? 1) - 1, engine, out, path);
        for (const e of out.edits.slice(before)) Object.assign(e, guard);
      }
    } else if (strict || oldString !== undefined || newString !== undefined) {
      out.errors.push(
        new EditError(
          "PARSE",
          `Edit ${n}${line ? ` (line ${line})` : ""} needs "path" with "oldString" and "newString", or "path" with "diff".${path === undefined ? ' "path" is missing.' : ""}`,
          { index: n, ...(line !== undefined && { line }) },
        ),
      );
    }
  }
  return count;
}

function isSectionStart(lines: readonly string[], i: number): boolean {
  const l = lines[i] as string;
  if (l.startsWith("diff --git ")) return true;
  return l.startsWith("--- ") && (lines[i + 1] ?? "").startsWith("+++ ");
}

const DIFF_LINE = /^(?:[ +\-\\]|@@|diff |index |new file|deleted file|similarity |rename |old mode|new mode|Binary files|$)/;

function isDiffLine(line: string): boolean {
  return DIFF_LINE.test(line);
}

/**
 * Splits diff text into one section per file and records an edit for each.
 * `forcedPath` (from a structured `{path, diff}`) is used when the diff has
 * no headers, and must agree with them when it has.
 */
function collectDiffSections(lines: readonly string[], offset: number, engine: CoreEngine, out: DetectedEdits, forcedPath?: string): void {
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (isSectionStart(lines, i)) {
      // `diff --git` is followed by its own ---/+++ pair: one section, not two.
      const prev = starts.at(-1);
      if (prev !== undefined && (lines[prev] as string).startsWith("diff --git ") && !hasHeaderBetween(lines, prev, i)) continue;
      starts.push(i);
    }
  }
  if (starts.length === 0) {
    if (forcedPath !== undefined) {
      out.edits.push({ format: "udiff", path: forcedPath, patch: lines.join("\n"), isNew: false, isDeleted: false, line: offset + 1 });
    } else if (lines.some((l) => l.startsWith("@@"))) {
      out.errors.push(
        new EditError(
          "PARSE",
          `The diff at line ${offset + 1} has no file header. Start each file's diff with "--- a/PATH" and "+++ b/PATH" lines.`,
          { line: offset + 1 },
        ),
      );
    }
    return;
  }
  for (const [k, start] of starts.entries()) {
    const end = starts[k + 1] ?? lines.length;
    const section = lines.slice(start, end);
    while (section.length > 0 && (section.at(-1) as string).trim() === "") section.pop();
    const patch = `${section.join("\n")}\n`;
    const header = readHeader(section, engine);
    const line = offset + start + 1;
    const path = header.isDeleted ? header.oldPath : (header.newPath ?? header.oldPath);
    if (path === undefined) {
      out.errors.push(new EditError("PARSE", `The diff at line ${line} names no file ("--- /dev/null" and "+++ /dev/null").`, { line }));
      continue;
    }
    if (!header.isNew && !header.isDeleted && header.oldPath !== undefined && header.newPath !== undefined && header.oldPath !== header.newPath) {
      out.errors.push(
        new EditError(
          "PARSE",
          `The diff at line ${line} renames ${header.oldPath} to ${header.newPath}; renames are not supported. Send the edit against one path.`,
          { line, path: header.oldPath },
        ),
      );
      continue;
    }
    out.edits.push({ format: "udiff", path: forcedPath ?? path, patch, isNew: header.isNew, isDeleted: header.isDeleted, line });
  }
}

function hasHeaderBetween(lines: readonly string[], from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if ((lines[i] as string).startsWith("@@")) return true;
  return false;
}

interface Header {
  oldPath?: string;
  newPath?: string;
  isNew: boolean;
  isDeleted: boolean;
}

function readHeader(section: readonly string[], engine: CoreEngine): Header {
  // Prefer the core's reading of the headers; fall back to ours when the
  // parser refuses the section (the apply step will then report the parse
  // error against the file).
  let oldRaw: string | undefined;
  let newRaw: string | undefined;
  let isNew = false;
  let isDeleted = false;
  let fromCore = false;
  try {
    const first = engine.parsePatch(`${section.join("\n")}\n`)[0];
    if (first) {
      oldRaw = first.oldPath;
      newRaw = first.newPath;
      isNew = first.isNew === true;
      isDeleted = first.isDeleted === true;
      fromCore = oldRaw !== undefined || newRaw !== undefined;
    }
  } catch {
    // fall through to our own reading
  }
  if (!fromCore) {
    for (const l of section) {
      if (l.startsWith("--- ") && oldRaw === undefined) oldRaw = l.slice(4);
      else if (l.startsWith("+++ ") && newRaw === undefined) newRaw = l.slice(4);
      else if (l.startsWith("new file mode")) isNew = true;
      else if (l.startsWith("deleted file mode")) isDeleted = true;
      if (l.startsWith("@@")) break;
    }
  }
  let oldPath = cleanHeaderPath(oldRaw);
  let newPath = cleanHeaderPath(newRaw);
  if (oldRaw !== undefined && oldPath === undefined) isNew = true;
  if (newRaw !== undefined && newPath === undefined) isDeleted = true;
  // git's a/ b/ prefixes: only when the headers agree on the convention.
  const aOk = oldPath === undefined || oldPath.startsWith("a/");
  const bOk = newPath === undefined || newPath.startsWith("b/");
  if (aOk && bOk && (oldPath !== undefined || newPath !== undefined)) {
    oldPath = oldPath?.slice(2);
    newPath = newPath?.slice(2);
  }
  return { ...(oldPath !== undefined && { oldPath }), ...(newPath !== undefined && { newPath }), isNew, isDeleted };
}

function cleanHeaderPath(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let p = raw.split("\t")[0]?.trim() ?? "";
  if (p.startsWith("filename:")) p = p.slice("filename:".length).trim();
  if (p.length >= 2 && p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1);
  // diff -u appends a timestamp after spaces when there is no tab (scanned, not a regex: see text/timestamp.ts).
  p = stripTimestamp(p);
  if (p === "" || p === "/dev/null") return undefined;
  return p;
}

export function asEditError(error: unknown, code: "PARSE" | "IO" | "INVALID_INPUT"): EditError {
  if (error instanceof EditError) return error;
  return new EditError(code, String((error as Error)?.message ?? error));
}
