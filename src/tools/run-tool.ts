/**
 * `runTool(name, args, { root })`: runs one of the edit tools the way an
 * agent's tool call would, over the file layer (`applyEdits`, the numbered
 * reader, path safety). Never throws: every failure is a result with
 * `isError: true` whose text is the `EditError` message written for the model.
 */

import { DEFAULT_TOOL_TIMEOUT_MS } from "../limits.ts";
import { stat } from "node:fs/promises";
import { z } from "zod";
import { EditError } from "../errors.ts";
import { type LineEdit, parseAnchoredEdits } from "../formats/anchored-parse.ts";
import type { FileCache } from "../fs/file-cache.ts";
import { loadTextFile } from "../fs/read-file.ts";
import { resolveRoot, resolveSafePath } from "../fs/safe-path.ts";
import type { PresetName } from "../match/cascade.ts";
// Through the file layer's public entry: its modules are being reorganised, its surface is not.
import { type ApplyEditsOptions, type ApplyEditsResult, applyEdits, type StructuredEdit, type SyntaxMode, type VerifyMode } from "../node.ts";
import {
  type ApplyDiffArgs,
  type ApplySnippetArgs,
  type CreateFileArgs,
  type EditFileArgs,
  type EditLinesArgs,
  editLinesArgs,
  isToolName,
  READ_ONLY_TOOLS,
  type ReadFileArgs,
  type ToolName,
  type UndoEditArgs,
  toolArgs,
  toolDefinitions,
} from "./definitions.ts";
import { renderNumberedView } from "./numbered-view.ts";
import { outputOf, type ReadToolOutput, refusedOutput } from "./result-data.ts";
import { describeResult, type ToolResult } from "./result-text.ts";
import { locateInRoots } from "./roots.ts";
import type { VersionStore } from "./version-store.ts";
import type { JournalOptions } from "../fs/journal.ts";
import { undoEditTool } from "./undo-tool.ts";

export interface RunToolOptions {
  /**
   * The directory every path is confined to, or several: a relative path
   * belongs to the first, an absolute path to the root that contains it.
   */
  root: string | readonly string[];
  /**
   * Refuse every tool that writes.
   * @default false
   */
  readOnly?: boolean;
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
  /**
   * Milliseconds an edit may take (TIMEOUT past it, nothing written): the
   * server's one thread serves every call, a read_file too.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Where the versions of each file that were read and written are kept:
   * an edit written against one of them (an out-of-date `expectedHash`, or
   * old text) is merged into the current file instead of refused. Pass the
   * same store to every call of a session (the MCP server keeps one).
   * @default undefined (no versions kept)
   */
  versions?: VersionStore;
  /**
   * read_file shows line tags (`N#TAG:text`, for edit_lines) when the call
   * does not say.
   * @default false
   */
  anchors?: boolean;
  /**
   * Where each file's decoded text and document are kept between calls
   * (pass the same one to every call of a session; the MCP server keeps
   * one): the second edit of a big file does not decode and index it again.
   * Bounded by its size in bytes (64 MiB by default); see fs/file-cache.ts.
   * @default undefined (nothing kept)
   */
  cache?: FileCache;
  /**
   * Record each write in the undo journal (for `undo_edit`, `fuzzpatch
   * undo` and `fuzzpatch report`); options say where and how much.
   * `FUZZPATCH_JOURNAL=0` turns it off. `false` also disables undo_edit.
   * @default true
   */
  journal?: boolean | JournalOptions;
  /**
   * "syntax": an edit that introduces a syntax error (tree-sitter, in the
   * languages of docs/syntax.md) is not written; it fails with SYNTAX.
   * @default "none" (introduced errors are reported, the edit is written)
   */
  verify?: VerifyMode;
  /**
   * "off": no syntax check at all (no grammar is loaded).
   * @default "report"
   */
  syntax?: SyntaxMode;
}

/** Runs tool `name` with `args` (an object, or its JSON text as OpenAI sends it). */
export async function runTool(called: string, args: unknown, options: RunToolOptions): Promise<ToolResult> {
  // Claude Code's tool names: Edit and MultiEdit are edit_file's shapes; Write replaces a whole file.
  const name = claudeCodeTool(called);
  try {
    if (name === "Write") return await writeTool(args, options);
    if (!isToolName(name)) {
      throw new EditError("INVALID_INPUT", `There is no tool named ${JSON.stringify(name)}. The tools are: ${toolDefinitions.map((t) => t.name).join(", ")}.`);
    }
    if (options.readOnly && !READ_ONLY_TOOLS.has(name)) {
      throw new EditError("INVALID_INPUT", `${name} is not available: this server is read-only. Only read_file can be used.`);
    }
    const roots = typeof options.root === "string" ? [options.root] : [...options.root];
    if (roots.length === 0) throw new EditError("INVALID_INPUT", "No root directory is configured: pass root (a directory or a list of them).");
    switch (name) {
      case "read_file":
        return await readFileTool(parseArgs(name, args) as ReadFileArgs, roots, options);
      case "edit_file":
        return await editFileTool(parseArgs(name, args) as EditFileArgs, roots, options);
      case "edit_lines":
        return await editLinesTool(parseArgs(name, args) as EditLinesArgs, roots, options);
      case "apply_diff":
        return await applyDiffTool(parseArgs(name, args) as ApplyDiffArgs, roots, options);
      case "create_file":
        return await createFileTool(parseArgs(name, args) as CreateFileArgs, roots, options);
      case "undo_edit":
        return await undoEditTool(parseArgs(name, args) as UndoEditArgs, roots, options.journal);
      case "apply_snippet":
        return await applySnippetTool(parseArgs(name, args) as ApplySnippetArgs, roots, options);
    }
  } catch (error) {
    const failure =
      error instanceof EditError
        ? { code: error.code, message: error.message }
        : // A bug, not a bad edit: still a result, so an agent loop keeps running.
          { code: "IO", message: `internal error in ${name}: ${(error as Error)?.message ?? String(error)}` };
    const writing = (isToolName(name) && !READ_ONLY_TOOLS.has(name)) || name === "Write";
    const structured = writing ? refusedOutput(failure) : isToolName(name) ? { ok: false, errors: [failure] } : undefined;
    return { isError: true, text: `${failure.code}: ${failure.message}\n`, ...(structured && { structured }) };
  }
}

async function readFileTool(args: ReadFileArgs, roots: string[], options: RunToolOptions): Promise<ToolResult> {
  const { root, rel, display } = await locateInRoots(roots, args.path);
  const store = options.versions;
  let view: ReadToolOutput = { ok: true, errors: [] };
  const text = await renderNumberedView(root, rel, {
    display,
    shown: (v) => {
      view = { ok: true, ...v, errors: [] };
    },
    ...(store && { seen: (abs: string, hash: string, text: string) => store.remember(abs, hash, text) }),
    ...(args.offset !== undefined && { offset: args.offset }),
    ...(args.limit !== undefined && { limit: args.limit }),
    ...((args.anchors ?? options.anchors) && { anchors: true }),
    ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    ...(options.cache !== undefined && { cache: options.cache }),
  });
  return { isError: false, text, structured: view };
}

async function editFileTool(args: EditFileArgs, roots: string[], options: RunToolOptions): Promise<ToolResult> {
  const { root, rel, display } = await locateInRoots(roots, args.path);
  const edits: StructuredEdit[] = args.edits.map((e) => ({ path: rel, oldString: e.oldString, newString: e.newString, replaceAll: e.replaceAll ?? false }));
  const known = await knownVersions(root, rel, options.versions, args.expectedHash);
  // An out-of-date expectedHash whose version was served here is merged from (STALE only when it conflicts).
  const expected = args.expectedHash === undefined || known.read !== undefined ? undefined : { [rel]: args.expectedHash };
  const history = known.versions.length > 0 ? { [rel]: known.versions } : undefined;
  return finish(root, await applyEdits(root, edits, fileLayerOptions(options, args.dryRun, expected, history)), display, options);
}

/**
 * Line edits by tag. The tags say which lines and which version: no
 * expectedHash check refuses a moved file (anchored-resolve.ts places the
 * tags, through the versions this store served); expectedHash only names
 * the version read.
 */
async function editLinesTool(args: EditLinesArgs, roots: string[], options: RunToolOptions): Promise<ToolResult> {
  const { root, rel, display } = await locateInRoots(roots, args.path);
  const payload = parseAnchoredEdits(args.edits);
  if (payload instanceof EditError) throw payload;
  const known = await knownVersions(root, rel, options.versions, args.expectedHash);
  const history = known.versions.length > 0 ? { [rel]: known.versions } : undefined;
  const edit: StructuredEdit = { path: rel, edits: args.edits as LineEdit[] };
  return finish(root, await applyEdits(root, [edit], fileLayerOptions(options, args.dryRun, undefined, history)), display, options);
}

/**
 * The versions of `rel` the store kept: the one whose hash the model named,
 * alone (it says what it read), else all of them, oldest first.
 */
async function knownVersions(root: string, rel: string, store: VersionStore | undefined, expectedHash: string | undefined): Promise<{ versions: string[]; read?: string }> {
  if (!store) return { versions: [] };
  const abs = (await resolveSafePath(await resolveRoot(root), rel)).abs;
  const read = expectedHash === undefined ? undefined : store.byHash(abs, expectedHash);
  return read !== undefined ? { versions: [read], read } : { versions: store.versions(abs) };
}

async function applyDiffTool(args: ApplyDiffArgs, roots: string[], options: RunToolOptions): Promise<ToolResult> {
  if (args.path !== undefined) {
    const { root, rel, display } = await locateInRoots(roots, args.path);
    const known = await knownVersions(root, rel, options.versions, undefined);
    const history = known.versions.length > 0 ? { [rel]: known.versions } : undefined;
    return finish(root, await applyEdits(root, [{ path: rel, diff: args.diff }], fileLayerOptions(options, args.dryRun, undefined, history)), display, options);
  }
  // Paths inside the diff text are relative to the first root.
  const root = roots[0] as string;
  return finish(root, await applyEdits(root, args.diff, fileLayerOptions(options, args.dryRun)), undefined, options);
}

async function createFileTool(args: CreateFileArgs, roots: string[], options: RunToolOptions): Promise<ToolResult> {
  const { root, rel, display } = await locateInRoots(roots, args.path);
  const safe = await resolveSafePath(await resolveRoot(root), rel);
  const size = await stat(safe.abs).then(
    (s) => (s.isFile() ? s.size : 0),
    // Missing is the usual case; a directory in the way is reported by applyEdits.
    () => 0,
  );
  if (size > 0) {
    throw new EditError(
      "INVALID_INPUT",
      `${display(safe.rel)} already exists (${size} bytes); create_file never overwrites a file. Read it with read_file and change it with edit_file or apply_diff.`,
      { path: safe.rel },
    );
  }
  const edit: StructuredEdit = { path: safe.rel, oldString: "", newString: args.content };
  return finish(root, await applyEdits(root, [edit], fileLayerOptions(options, args.dryRun)), display, options);
}

/**
 * A lazy snippet (or Morph's `<code>…</code><update>…</update>`) merged into
 * one file: handed to the file layer as the `lazy` format, in a fence longer
 * than any backtick run of the snippet (a Markdown file's own fences stay
 * its text).
 */
async function applySnippetTool(args: ApplySnippetArgs, roots: string[], options: RunToolOptions): Promise<ToolResult> {
  const { root, rel, display } = await locateInRoots(roots, args.path);
  let longest = 2;
  for (const run of args.code_edit.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const text = `${fence}\n${args.code_edit.replace(/\r\n/g, "\n").replace(/\n$/, "")}\n${fence}\n`;
  const known = await knownVersions(root, rel, options.versions, undefined);
  const history = known.versions.length > 0 ? { [rel]: known.versions } : undefined;
  const layer = { ...fileLayerOptions(options, args.dryRun, undefined, history), format: "lazy", target: rel };
  return finish(root, await applyEdits(root, text, layer), display, options);
}

function fileLayerOptions(options: RunToolOptions, dryRun: boolean | undefined, expected?: Record<string, string>, history?: Record<string, string[]>): ApplyEditsOptions {
  return {
    dryRun: dryRun ?? false,
    ...(history !== undefined && { history }),
    ...(options.preset !== undefined && { preset: options.preset }),
    ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    timeoutMs: options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    ...(expected !== undefined && { expected }),
    ...(options.cache !== undefined && { cache: options.cache }),
    journal: options.journal !== false && { source: "tool", ...(typeof options.journal === "object" && options.journal) },
    ...(options.verify !== undefined && { verify: options.verify }),
    ...(options.syntax !== undefined && { syntax: options.syntax }),
  };
}

/** The result text, with the sha256 of every file written (for the model's next expectedHash); the store keeps what was written. */
async function finish(root: string, result: ApplyEditsResult, display: ((rel: string) => string) | undefined, options: RunToolOptions): Promise<ToolResult> {
  const store = options.versions;
  const hashes = new Map<string, string>();
  if (result.written) {
    const realRoot = await resolveRoot(root);
    for (const file of result.files) {
      if (!file.written || file.status === "deleted") continue;
      try {
        const safe = await resolveSafePath(realRoot, file.movedTo ?? file.path);
        // The cache's entry is the bytes just written (a 9 MB file: not read and compared again, ~10 ms); else read back.
        const loaded = options.cache?.latest(safe.abs) ?? (await loadTextFile(safe.abs, safe.rel, { allowBinary: true, ...(options.cache && { cache: options.cache }) }));
        hashes.set(file.path, loaded.hash);
        store?.remember(safe.abs, loaded.hash, loaded.text);
      } catch {
        // The write succeeded; a failed re-read only loses the hash line.
      }
    }
  }
  const described = describeResult(result, hashes, display);
  // The edit stands; only its undo is lost.
  if (result.journal?.warning) described.text += `warning: ${result.journal.warning}\n`;
  return { ...described, structured: outputOf(result, hashes, display ?? ((rel) => rel)) };
}

/** Claude Code's names for the same tools: Edit and MultiEdit are edit_file (its arguments' aliases read theirs). */
function claudeCodeTool(name: string): string {
  return name === "Edit" || name === "MultiEdit" ? "edit_file" : name;
}

const writeArgs = z.object({ path: z.string().min(1), content: z.string(), dryRun: z.boolean().optional() }).strict();

/** Claude Code's Write { file_path, content }: the file's whole new text, a new file or all of an existing one. */
async function writeTool(raw: unknown, options: RunToolOptions): Promise<ToolResult> {
  if (options.readOnly) throw new EditError("INVALID_INPUT", "Write is not available: this server is read-only. Only read_file can be used.");
  const roots = typeof options.root === "string" ? [options.root] : [...options.root];
  const obj = renameAliases((typeof raw === "string" ? parseJson(raw, "The arguments of Write") : (raw ?? {})) as Record<string, unknown>);
  const parsed = writeArgs.safeParse(obj);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `- ${formatPath(issue.path)}: ${issue.message}`);
    throw new EditError("INVALID_INPUT", `The arguments of Write are not valid:\n${problems.join("\n")}\nSend "file_path" and "content".`);
  }
  const { root, rel, display } = await locateInRoots(roots, parsed.data.path);
  const edit: StructuredEdit = { path: rel, content: parsed.data.content };
  return finish(root, await applyEdits(root, [edit], fileLayerOptions(options, parsed.data.dryRun)), display, options);
}

// --- arguments ----------------------------------------------------------------

const EDIT_LINES_LENIENT = editLinesArgs.extend({ edits: z.array(z.unknown()).min(1) });

/** Names models trained on other edit tools use for the same arguments. */
const ALIASES: Record<string, string> = {
  file_path: "path",
  filePath: "path",
  old_string: "oldString",
  old_str: "oldString",
  // The reference MCP filesystem server's edit_file.
  oldText: "oldString",
  new_string: "newString",
  new_str: "newString",
  newText: "newString",
  replace_all: "replaceAll",
  expected_hash: "expectedHash",
  dry_run: "dryRun",
  // Cursor's edit_file and Morph name the snippet so; some clients camel-case it.
  codeEdit: "code_edit",
  target_file: "path",
};

/**
 * Validates `args` against the tool's schema after the leniencies models
 * need: arguments as JSON text (OpenAI's tool calls), snake_case names
 * (Claude Code's and OpenCode's edit tools), `oldText`/`newText` (the
 * reference MCP filesystem server's edit_file), `null` for an optional
 * argument (OpenAI's strict mode makes every property required, so "not
 * given" arrives as null), `edits` sent as a JSON string (some clients
 * stringify nested arrays), and one edit given at the top level of
 * edit_file instead of inside `edits` (the str_replace habit).
 */
function parseArgs(name: ToolName, raw: unknown): unknown {
  let args = raw;
  if (typeof args === "string") args = parseJson(args, `The arguments of ${name}`);
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new EditError("INVALID_INPUT", `The arguments of ${name} must be a JSON object.`);
  }
  let obj = renameAliases(args as Record<string, unknown>);
  if (name === "edit_file") {
    if (typeof obj.edits === "string") obj.edits = parseJson(obj.edits, "edits");
    if (obj.edits === undefined && typeof obj.oldString === "string") {
      const { oldString, newString, replaceAll, ...rest } = obj;
      obj = { ...rest, edits: [{ oldString, newString, ...(replaceAll !== undefined && { replaceAll }) }] };
    }
    if (Array.isArray(obj.edits)) obj.edits = obj.edits.map((e) => (e && typeof e === "object" && !Array.isArray(e) ? renameAliases(e as Record<string, unknown>) : e));
  }
  if (name === "edit_lines" && typeof obj.edits === "string") obj.edits = parseJson(obj.edits, "edits");
  // edit_lines' edits are read by the anchored parser, which accepts the slips and peers' shapes the schema does not name.
  const schema: z.ZodType = name === "edit_lines" ? EDIT_LINES_LENIENT : toolArgs[name];
  const parsed = schema.safeParse(obj);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `- ${formatPath(issue.path)}: ${issue.message}`);
  throw new EditError("INVALID_INPUT", `The arguments of ${name} are not valid:\n${problems.join("\n")}\nSend them again as the tool's input schema describes.`, {
    issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
  });
}

/** Canonical names, and no null-valued keys: a null stands for an argument not given. */
function renameAliases(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (value === null) continue;
    const canonical = Object.hasOwn(ALIASES, key) ? (ALIASES[key] as string) : key;
    // The canonical spelling wins when a model sends both.
    if (canonical !== key && Object.hasOwn(obj, canonical) && obj[canonical] !== null) continue;
    out[canonical] = value;
  }
  return out;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EditError("INVALID_INPUT", `${what} must be JSON: ${(error as Error).message}.`);
  }
}

function formatPath(parts: readonly PropertyKey[]): string {
  if (parts.length === 0) return "(the arguments)";
  return parts.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}
