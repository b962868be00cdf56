/**
 * OpenAI's `apply_patch` tool (Responses API, hosted tool `{ type:
 * "apply_patch" }`): the model emits `apply_patch_call` items, one file
 * operation each (`create_file` / `update_file` with a headerless V4A
 * `diff`, `delete_file`), and the harness answers each with an
 * `apply_patch_call_output` (`completed` or `failed`, and text for the
 * model). Here each operation goes through the file layer (`applyEdits`:
 * path safety, line endings and BOM kept, atomic write) as a V4A edit, so
 * it gets the engine's matching and its refusals instead of the first
 * forward match the reference applier takes.
 *
 * Shapes are declared here, not imported from `@openai/agents` or `openai`:
 * this module needs neither package, and the tests check that these types
 * are assignable to the SDKs' own (`Editor`, `ResponseInputItem`).
 */
import { stat } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { loadTextFile } from "../fs/read-file.ts";
import { resolveRoot, resolveSafePath } from "../fs/safe-path.ts";
import { parseV4ASection } from "../formats/v4a-parse.ts";
import type { PresetName } from "../match/cascade.ts";
import { applyEdits, type ApplyEditsResult, type StructuredEdit } from "../node.ts";
import { describeResult } from "../tools/result-text.ts";

/** One file operation of an `apply_patch_call` (`moveTo` as the Agents SDK names it, `move_to` as the API does). */
export type ApplyPatchOperation =
  | { type: "create_file"; path: string; diff: string }
  | { type: "update_file"; path: string; diff: string; moveTo?: string; move_to?: string | null }
  | { type: "delete_file"; path: string };

/** What the Agents SDK's `Editor` methods return, and what an `apply_patch_call_output` carries. */
export interface ApplyPatchResult {
  status: "completed" | "failed";
  /** For the model: what was changed and how each chunk matched, or why nothing was written and what to send instead. */
  output: string;
}

export interface ApplyPatchOptions {
  /** The directory every path is confined to. */
  root: string;
  /**
   * Matcher preset.
   * @default "default"
   */
  preset?: PresetName;
  /**
   * Largest file, in bytes, that is edited.
   * @default 10485760
   */
  maxFileBytes?: number;
  /**
   * Report what would change without writing anything.
   * @default false
   */
  dryRun?: boolean;
}

/**
 * The Agents SDK's `Editor` interface (`applyPatchTool({ editor })` from
 * `@openai/agents`). Never throws for an edit that does not apply: the
 * result is `failed` with the message a model can act on.
 */
export interface ApplyPatchEditor {
  createFile(operation: Extract<ApplyPatchOperation, { type: "create_file" }>): Promise<ApplyPatchResult>;
  updateFile(operation: Extract<ApplyPatchOperation, { type: "update_file" }>): Promise<ApplyPatchResult>;
  deleteFile(operation: Extract<ApplyPatchOperation, { type: "delete_file" }>): Promise<ApplyPatchResult>;
}

/** An `apply_patch_call` item of a Responses API output (the fields read here). */
export interface ApplyPatchCallItem {
  type?: "apply_patch_call";
  call_id: string;
  operation: ApplyPatchOperation;
}

/** The `apply_patch_call_output` input item that answers a call. */
export interface ApplyPatchCallOutput {
  type: "apply_patch_call_output";
  call_id: string;
  status: "completed" | "failed";
  output: string;
}

/** An editor for `applyPatchTool({ editor: createApplyPatchEditor({ root }) })`. */
export function createApplyPatchEditor(options: ApplyPatchOptions): ApplyPatchEditor {
  return {
    createFile: (operation) => applyPatchOperation({ ...operation, type: "create_file" }, options),
    updateFile: (operation) => applyPatchOperation({ ...operation, type: "update_file" }, options),
    deleteFile: (operation) => applyPatchOperation({ ...operation, type: "delete_file" }, options),
  };
}

/** Answers one `apply_patch_call` item (plain `openai` SDK): push the result into the next request's `input`. */
export async function applyPatchCall(item: ApplyPatchCallItem, options: ApplyPatchOptions): Promise<ApplyPatchCallOutput> {
  const callId = typeof item?.call_id === "string" ? item.call_id : "";
  const result = await applyPatchOperation(item?.operation, options);
  return { type: "apply_patch_call_output", call_id: callId, ...result };
}

const TYPES = ["create_file", "update_file", "delete_file"];

/** Applies one operation under `options.root`. Never throws: a refusal is `failed` with its reason. */
export async function applyPatchOperation(operation: ApplyPatchOperation, options: ApplyPatchOptions): Promise<ApplyPatchResult> {
  try {
    const op = checkOperation(operation);
    if (op.type === "create_file") await refuseOverwrite(op, options);
    const moveTo = op.type === "update_file" ? (op.moveTo ?? op.move_to ?? undefined) : undefined;
    const edit: StructuredEdit = { type: op.type, path: op.path, ...(op.type !== "delete_file" && { diff: op.diff }), ...(moveTo !== undefined && { move_to: moveTo }) };
    const result = await applyEdits(options.root, [edit], {
      ...(options.preset !== undefined && { preset: options.preset }),
      ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
      ...(options.dryRun !== undefined && { dryRun: options.dryRun }),
    });
    return { status: result.ok ? "completed" : "failed", output: outputText(result) };
  } catch (error) {
    const e = error instanceof EditError ? error : new EditError("IO", `internal error: ${(error as Error)?.message ?? String(error)}`);
    return { status: "failed", output: `${e.code}: ${e.message}\n` };
  }
}

function checkOperation(operation: unknown): ApplyPatchOperation {
  const op = operation as Partial<Record<string, unknown>> | null | undefined;
  if (!op || typeof op !== "object" || typeof op.type !== "string" || !TYPES.includes(op.type)) {
    throw new EditError("INVALID_INPUT", `The operation must be an object whose "type" is ${TYPES.join(", ")}; got ${JSON.stringify(op?.type ?? op ?? null)}.`);
  }
  if (typeof op.path !== "string" || op.path.trim() === "") throw new EditError("INVALID_INPUT", `The ${op.type} operation needs "path", the file's path relative to the project root.`);
  if (op.type !== "delete_file" && typeof op.diff !== "string") throw new EditError("INVALID_INPUT", `The ${op.type} operation needs "diff", a string.`);
  return op as ApplyPatchOperation;
}

/**
 * create_file on a file that exists with other text: said here, in the
 * tool's own words (the V4A format would name its `*** Add File:` line).
 * The same text already there passes on: the file layer reports it
 * already applied.
 */
async function refuseOverwrite(op: Extract<ApplyPatchOperation, { type: "create_file" }>, options: ApplyPatchOptions): Promise<void> {
  const safe = await resolveSafePath(await resolveRoot(options.root), op.path);
  const size = await stat(safe.abs).then(
    (s) => (s.isFile() ? s.size : 0),
    // Missing is the usual case; anything else in the way is the file layer's to report.
    () => 0,
  );
  if (size === 0) return;
  const lines = parseV4ASection(op.diff, true);
  const loaded = await loadTextFile(safe.abs, safe.rel, { ...(options.maxFileBytes !== undefined && { maxBytes: options.maxFileBytes }) });
  if (loaded.text.replace(/\r\n/g, "\n") === (lines.length === 0 ? "" : `${lines.join("\n")}\n`)) return;
  throw new EditError(
    "CONFLICT",
    `create_file: ${safe.rel} already exists (${size} bytes) with other content, and create_file never overwrites a file. Send an update_file operation whose diff changes its current lines.`,
    { path: safe.rel },
  );
}

/**
 * The result as the model reads it: one line per file and chunk (strategy,
 * lines, a warning when fuzzy), and the diff only when a chunk matched
 * fuzzily (then the model should look at what was changed; otherwise it
 * wrote the diff itself and it only costs tokens).
 */
function outputText(result: ApplyEditsResult): string {
  const fuzzy = result.files.some((f) => f.edits.some((e) => e.fuzzy === true));
  return describeResult(fuzzy ? result : { ...result, diff: "" }).text;
}
