/**
 * The machine-readable result of a writing tool: what `describeResult` says
 * in text, as data (MCP `structuredContent`, checked by clients against the
 * tool's `outputSchema`). Per edit: its status, the strategy that placed it
 * and its lines, or its error; per file: its status, the sha256 of its new
 * bytes when written, and its diff.
 */

import type { EditError } from "../errors.ts";
import type { ApplyEditsResult } from "../fs/apply-edits.ts";
import type { JsonSchema, JsonSchemaObject } from "./json-schema.ts";

export interface ToolErrorData {
  code: string;
  message: string;
}

export interface EditData {
  status: "applied" | "failed" | "already-applied";
  strategy?: string;
  startLine?: number;
  endLine?: number;
  fuzzy?: boolean;
  error?: ToolErrorData;
}

export interface FileData {
  path: string;
  status: "modified" | "created" | "deleted" | "unchanged" | "failed";
  written: boolean;
  /** sha256 of the file's bytes after the write (the next `expectedHash`). */
  sha256?: string;
  /** Unified diff of the change ("" when none). */
  diff: string;
  edits: EditData[];
  error?: ToolErrorData;
}

export interface WriteToolOutput {
  /** Every edit applied (or already there); false when anything failed. */
  ok: boolean;
  dryRun: boolean;
  files: FileData[];
  /** Failures not tied to one edit: invalid arguments, unreadable input, a failed write. */
  errors: ToolErrorData[];
}

const errorOf = (e: EditError): ToolErrorData => ({ code: e.code, message: e.message });

export function outputOf(result: ApplyEditsResult, hashes: ReadonlyMap<string, string>, display: (rel: string) => string): WriteToolOutput {
  return {
    ok: result.ok,
    dryRun: result.dryRun,
    files: result.files.map((file) => {
      const hash = hashes.get(file.path);
      return {
        path: display(file.path),
        status: file.status,
        written: file.written,
        ...(hash !== undefined && { sha256: hash }),
        diff: file.diff,
        edits: file.edits.map((edit) => ({
          status: edit.status,
          ...(edit.strategy !== undefined && { strategy: edit.strategy }),
          ...(edit.startLine !== undefined && { startLine: edit.startLine }),
          ...(edit.endLine !== undefined && { endLine: edit.endLine }),
          ...(edit.fuzzy !== undefined && { fuzzy: edit.fuzzy }),
          ...(edit.error !== undefined && { error: errorOf(edit.error) }),
        })),
        ...(file.error !== undefined && { error: errorOf(file.error) }),
      };
    }),
    errors: result.errors.map(errorOf),
  };
}

/** A call refused before any file was looked at (invalid arguments, a read-only server, ...). */
export function refusedOutput(error: ToolErrorData): WriteToolOutput {
  return { ok: false, dryRun: false, files: [], errors: [error] };
}

const errorSchema: JsonSchema = {
  type: "object",
  properties: { code: { type: "string" }, message: { type: "string" } },
  required: ["code", "message"],
  additionalProperties: false,
};

/** JSON Schema of `WriteToolOutput`, published as the writing tools' `outputSchema`. */
export const WRITE_OUTPUT_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    ok: { type: "boolean", description: "Every edit applied (or was already there)." },
    dryRun: { type: "boolean" },
    files: {
      type: "array",
      items: {
        type: "object",
        properties: {
          path: { type: "string" },
          status: { type: "string", enum: ["modified", "created", "deleted", "unchanged", "failed"] },
          written: { type: "boolean" },
          sha256: { type: "string", description: "sha256 of the new bytes: the next expectedHash." },
          diff: { type: "string", description: "Unified diff of the change." },
          edits: {
            type: "array",
            items: {
              type: "object",
              properties: {
                status: { type: "string", enum: ["applied", "failed", "already-applied"] },
                strategy: { type: "string", description: "How the edit was placed: exact, or the tolerant strategy that found it." },
                startLine: { type: "integer" },
                endLine: { type: "integer" },
                fuzzy: { type: "boolean" },
                error: errorSchema,
              },
              required: ["status"],
              additionalProperties: false,
            },
          },
          error: errorSchema,
        },
        required: ["path", "status", "written", "diff", "edits"],
        additionalProperties: false,
      },
    },
    errors: { type: "array", items: errorSchema },
  },
  required: ["ok", "dryRun", "files", "errors"],
  additionalProperties: false,
};
