/**
 * Anthropic's text editor tool (`text_editor_20250728` and `_20250429`,
 * named `str_replace_based_edit_tool`; `text_editor_20250124` and
 * `_20241022`, named `str_replace_editor`, which add `undo_edit`). The
 * model sends `{ command, path, ... }`; `textEditorCall` answers with the
 * `tool_result` content it expects, `is_error` set on failure.
 *
 * Commands:
 *   view        { path, view_range?: [start, end] }   1-based; end -1 = to the end; a directory is listed
 *   create      { path, file_text }                    never overwrites other content
 *   str_replace { path, old_str, new_str? }            through the engine: tolerant, refusing when unsure
 *   insert      { path, insert_line, insert_text }     after line insert_line (0: the top); `new_str` as the docs name it
 *   undo_edit   { path }                               the last edit made here (see edit-undo.ts)
 *
 * Leniencies: `insert_text` or `new_str` (models send the first, the docs
 * name the second); a `view_range` end past the file's last line reads to
 * the end; an absolute path inside the root.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import { loadTextFile } from "../fs/read-file.ts";
import { resolveRoot, resolveSafePath, type SafePath } from "../fs/safe-path.ts";
import type { PresetName } from "../match/cascade.ts";
import { applyEdits, type ApplyEditsResult, type StructuredEdit } from "../node.ts";
import { describeResult } from "../tools/result-text.ts";
import { locateInRoots } from "../tools/roots.ts";
import { createMemoryUndo, type EditUndo } from "./edit-undo.ts";

export interface TextEditorOptions {
  /** The directory every path is confined to. */
  root: string;
  /**
   * Longest `view` result, in characters (the tool definition's
   * `max_characters`): a longer one is cut at a line's end and marked.
   * @default undefined (no limit)
   */
  maxCharacters?: number;
  /**
   * Where `undo_edit` finds the writes to take back. Pass one per session.
   * @default one kept per root for the life of the process
   */
  undo?: EditUndo;
  /**
   * Matcher preset.
   * @default "default"
   */
  preset?: PresetName;
  /**
   * Largest file, in bytes, that is read or edited.
   * @default 10485760
   */
  maxFileBytes?: number;
}

/** The `tool_result` fields for the call: spread them into `{ type: "tool_result", tool_use_id, ... }`. */
export interface TextEditorResult {
  content: string;
  is_error: boolean;
}

/** The tool definition for `tools: [...]` of the Messages API. */
export interface TextEditorTool {
  type: "text_editor_20250728";
  name: "str_replace_based_edit_tool";
  max_characters?: number;
}

export function textEditorTool(options: { maxCharacters?: number } = {}): TextEditorTool {
  return { type: "text_editor_20250728", name: "str_replace_based_edit_tool", ...(options.maxCharacters !== undefined && { max_characters: options.maxCharacters }) };
}

/** What ends a `view` cut at `maxCharacters`. */
export const TRUNCATED_MARKER = "<response clipped>";

const COMMANDS = ["view", "create", "str_replace", "insert", "undo_edit"];
const DIRECTORY_DEPTH = 2;
const MAX_ENTRIES = 1000;

/** One undo per root for callers that pass none: the tool is called once per tool_use block, without a session object. */
const undoByRoot = new Map<string, EditUndo>();

/** Runs one text editor call. Never throws: a failure is `is_error: true` with a message the model can act on. */
export async function textEditorCall(input: unknown, options: TextEditorOptions): Promise<TextEditorResult> {
  try {
    const args = readInput(input);
    const { root, rel, display } = await locateInRoots([options.root], args.path);
    const realRoot = await resolveRoot(root);
    // The root itself is a directory the model may list (the file layer refuses it as a file's path).
    if (args.command === "view" && path.resolve(realRoot, rel) === realRoot) return ok(clip(await listDirectory(realRoot, "."), options.maxCharacters));
    const safe = await resolveSafePath(realRoot, rel);
    const name = display(safe.rel);
    switch (args.command) {
      case "view":
        return ok(await view(safe, name, args, options));
      case "undo_edit":
        return ok(await undoOf(options, root).undo(safe.abs, name));
      default:
        return await edit(args, safe, name, root, options);
    }
  } catch (error) {
    const e = error instanceof EditError ? error : new EditError("IO", `internal error: ${(error as Error)?.message ?? String(error)}`);
    return { content: `${e.code}: ${e.message}\n`, is_error: true };
  }
}

const ok = (content: string): TextEditorResult => ({ content, is_error: false });

type Input = Record<string, unknown> & { command: string; path: string };

function readInput(input: unknown): Input {
  const args = typeof input === "string" ? parseJson(input) : input;
  if (!args || typeof args !== "object" || Array.isArray(args)) throw new EditError("INVALID_INPUT", "The input must be an object with a command and a path.");
  const { command, path: p } = args as Record<string, unknown>;
  if (typeof command !== "string" || !COMMANDS.includes(command)) {
    throw new EditError("INVALID_INPUT", `Unknown command ${JSON.stringify(command ?? null)}. The commands are: ${COMMANDS.join(", ")}.`);
  }
  if (typeof p !== "string" || p.trim() === "") throw new EditError("INVALID_INPUT", `${command} needs "path", the file's path.`);
  return args as Input;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EditError("INVALID_INPUT", `The input must be JSON: ${(error as Error).message}.`);
  }
}

function undoOf(options: TextEditorOptions, root: string): EditUndo {
  if (options.undo) return options.undo;
  const key = path.resolve(root);
  let undo = undoByRoot.get(key);
  if (!undo) {
    undo = createMemoryUndo();
    undoByRoot.set(key, undo);
  }
  return undo;
}

// --- view -------------------------------------------------------------------

async function view(safe: SafePath, name: string, args: Input, options: TextEditorOptions): Promise<string> {
  const info = await stat(safe.abs).catch(() => undefined);
  if (info?.isDirectory()) {
    if (args.view_range !== undefined && args.view_range !== null) throw new EditError("INVALID_INPUT", `${name} is a directory; view_range is for files.`);
    return clip(await listDirectory(safe.abs, name), options.maxCharacters);
  }
  const loaded = await loadTextFile(safe.abs, safe.rel, { ...(options.maxFileBytes !== undefined && { maxBytes: options.maxFileBytes }) });
  if (!loaded.exists) throw new EditError("NOT_FOUND", `${name} does not exist. Check the path; to make a new file, use the create command.`, { path: safe.rel });
  const lines = loaded.text.split(/\r?\n|\r/);
  if (lines.at(-1) === "") lines.pop();
  const [start, end] = viewRange(args.view_range, lines.length, name);
  const body = lines.slice(start - 1, end).map((l, k) => `${String(start + k).padStart(6)}\t${l}`);
  const what = start === 1 && end === lines.length ? `${lines.length} line${lines.length === 1 ? "" : "s"}` : `lines ${start}-${end} of ${lines.length}`;
  return clip(`${name} (${what}):\n${body.join("\n")}\n`, options.maxCharacters);
}

/** The 1-based inclusive lines to show; `-1` as the end reads to the last line, and so does an end past it. */
function viewRange(range: unknown, total: number, name: string): [number, number] {
  if (range === undefined || range === null) return [1, total];
  const bad = (why: string) => new EditError("INVALID_INPUT", `view_range ${JSON.stringify(range)} ${why}; send [start, end] with 1 <= start <= ${total}, and end >= start or -1 for the end of the file.`);
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n))) throw bad("is not two whole numbers");
  const [start, end] = range as [number, number];
  if (total === 0) return [1, 0];
  if (start < 1 || start > total) throw bad(`starts outside ${name}, which has ${total} line${total === 1 ? "" : "s"}`);
  if (end !== -1 && end < start) throw bad("ends before it starts");
  return [start, end === -1 ? total : Math.min(end, total)];
}

/** Cut at the last line break within `max` characters, and say so. */
function clip(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  const cut = text.lastIndexOf("\n", max);
  return `${text.slice(0, cut > 0 ? cut + 1 : max)}${TRUNCATED_MARKER}\nOnly the first ${max} characters were shown. View a smaller view_range to read on.\n`;
}

/** Files and directories two levels deep, hidden ones left out (names starting with "."), directories ending in "/". */
async function listDirectory(abs: string, name: string): Promise<string> {
  const entries: string[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    const items = (await readdir(dir, { withFileTypes: true })).filter((d) => !d.name.startsWith(".")).sort((a, b) => a.name.localeCompare(b.name));
    for (const d of items) {
      if (entries.length >= MAX_ENTRIES) return;
      entries.push(`${prefix}${d.name}${d.isDirectory() ? "/" : ""}`);
      if (d.isDirectory() && depth < DIRECTORY_DEPTH) await walk(path.join(dir, d.name), `${prefix}${d.name}/`, depth + 1);
    }
  };
  await walk(abs, "", 1);
  const more = entries.length >= MAX_ENTRIES ? `(only the first ${MAX_ENTRIES} entries are listed; view a subdirectory to see more)\n` : "";
  const base = name.endsWith("/") ? name : `${name}/`;
  return `${name} (files and directories ${DIRECTORY_DEPTH} levels deep, hidden ones left out):\n${entries.map((e) => `${base === "./" ? "" : base}${e}`).join("\n")}\n${more}`;
}

// --- edits ------------------------------------------------------------------

/** str_replace, insert and create, through the file layer; each write is recorded for undo_edit. */
async function edit(args: Input, safe: SafePath, name: string, root: string, options: TextEditorOptions): Promise<TextEditorResult> {
  const before = await readFile(safe.abs).catch(() => null);
  const textEdit = { ...args, path: safe.rel } as StructuredEdit;
  const result = await applyEdits(root, [textEdit], {
    ...(options.preset !== undefined && { preset: options.preset }),
    ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    replaceAllAdvice: "send one str_replace per place (each old_str with lines found only there)",
    emptyOldAdvice: 'the create command with "file_text"',
  });
  if (!result.ok) return { content: describeResult(result, new Map(), () => name).text, is_error: true };
  if (result.written) {
    const after = await readFile(safe.abs);
    undoOf(options, root).record({ abs: safe.abs, rel: name, before, after });
    return ok(`${describeResult({ ...result, diff: "" }, new Map(), () => name).text}${snippet(args, result, after, name)}`);
  }
  return ok(describeResult(result, new Map(), () => name).text);
}

/** The edited lines as they now read, with 4 lines around, numbered as `view` numbers them (none for a created file: the model wrote all of it). */
function snippet(args: Input, result: ApplyEditsResult, after: Uint8Array, name: string): string {
  const report = result.files[0]?.edits[0];
  if (args.command === "create" || report?.startLine === undefined) return "";
  const lines = Buffer.from(after).toString("utf8").replace(/^\uFEFF/, "").split(/\r?\n|\r/);
  if (lines.at(-1) === "") lines.pop();
  // An insert reports the inserted lines; a replacement the lines it replaced, whose new text has new_str's lines.
  const newText = typeof args.new_str === "string" ? args.new_str : "";
  const end = args.command === "insert" ? (report.endLine ?? report.startLine) : report.startLine + (newText.match(/\n/g)?.length ?? 0);
  const from = Math.max(1, report.startLine - 4);
  const to = Math.min(lines.length, end + 4);
  if (to < from) return "";
  const body = lines.slice(from - 1, to).map((l, k) => `${String(from + k).padStart(6)}\t${l}`);
  return `Lines ${from}-${to} of ${name} now:\n${body.join("\n")}\n`;
}
