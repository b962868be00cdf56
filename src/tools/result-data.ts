/**
 * The machine-readable result of a writing tool: what `describeResult` says
 * in text, as data (MCP `structuredContent`, checked by clients against the
 * tool's `outputSchema`). Per edit: its status, the strategy that placed it
 * and its lines, or its error; per file: its status, the sha256 of its new
 * bytes when written, and its diff.
 */

import type { EditError } from "../errors.ts";
import type { ApplyEditsResult, EditReport } from "../fs/apply-edits.ts";
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
  /** How similar the matched text was to the edit's (1: equal after the strategy's normalisation). */
  similarity?: number;
  /** AMBIGUOUS: every place the edit fits; CONFLICT: the places in dispute. */
  candidates?: { startLine: number; endLine: number; strategy?: string; similarity?: number }[];
  /** NOT_FOUND: the closest text of the file, and how similar it is. */
  closest?: { startLine: number; endLine: number; similarity: number };
  /** What to check in an applied edit (a fuzzy match, a merge from an earlier version). */
  warnings?: string[];
  /** already-applied: where its text already stands. */
  note?: string;
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
  /** The syntax check of the file's change (a file of a known language). */
  syntax?: SyntaxData;
  /** Why a file of a known language was not checked (too large for the report). */
  syntaxSkipped?: string;
}

export interface SyntaxData {
  language: string;
  parsesBefore: boolean;
  parsesAfter: boolean;
  /** Errors the edit introduced: 1-based line and column, what is wrong, the line's text. */
  introduced: { line: number; column: number; message: string; excerpt: string }[];
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
        edits: file.edits.map(editData),
        ...(file.error !== undefined && { error: errorOf(file.error) }),
        ...(file.syntax !== undefined && {
          syntax: {
            language: file.syntax.language,
            parsesBefore: file.syntax.parsesBefore,
            parsesAfter: file.syntax.parsesAfter,
            introduced: file.syntax.introduced.map((i) => ({ line: i.line, column: i.column, message: i.message, excerpt: i.excerpt })),
          },
        }),
        ...(file.syntaxSkipped !== undefined && { syntaxSkipped: file.syntaxSkipped }),
      };
    }),
    errors: result.errors.map(errorOf),
  };
}

function editData(edit: EditReport): EditData {
  const detail = edit.error?.detail;
  const candidates = Array.isArray(detail?.candidates) ? detail.candidates : undefined;
  const closest = detail?.closest;
  const warnings = [
    ...(edit.fuzzy === true ? [`matched by ${edit.strategy ?? "a tolerant strategy"}, not exactly: check the diff`] : []),
    ...(edit.version !== undefined ? [`applied to version ${edit.version + 1} you read and merged into the current file`] : []),
  ];
  return {
    status: edit.status,
    ...(edit.strategy !== undefined && { strategy: edit.strategy }),
    ...(edit.startLine !== undefined && { startLine: edit.startLine }),
    ...(edit.endLine !== undefined && { endLine: edit.endLine }),
    ...(edit.fuzzy !== undefined && { fuzzy: edit.fuzzy }),
    ...(edit.score !== undefined && { similarity: edit.score }),
    ...(candidates && {
      candidates: candidates.map((c) => ({
        startLine: c.startLine,
        endLine: c.endLine,
        ...(c.strategy !== undefined && { strategy: c.strategy }),
        ...(c.score !== undefined && { similarity: c.score }),
      })),
    }),
    ...(closest && { closest: { startLine: closest.startLine, endLine: closest.endLine, similarity: closest.similarity } }),
    ...(warnings.length > 0 && { warnings }),
    ...(edit.note !== undefined && { note: edit.note.message }),
    ...(edit.error !== undefined && { error: errorOf(edit.error) }),
  };
}

/** What read_file returns as data: which lines of which version were shown (the text is the tool's text content). */
export interface ReadToolOutput {
  ok: boolean;
  path?: string;
  /** sha256 of the file's bytes: the `expectedHash` of an edit written against this view. */
  sha256?: string;
  startLine?: number;
  endLine?: number;
  totalLines?: number;
  errors: ToolErrorData[];
}

const range = { type: "object", properties: { startLine: { type: "integer" }, endLine: { type: "integer" } } } as const;

/** JSON Schema of `ReadToolOutput`, read_file's `outputSchema`. */
export const READ_OUTPUT_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    ok: { type: "boolean" },
    path: { type: "string" },
    sha256: { type: "string", description: "sha256 of the file's bytes: the expectedHash of an edit based on this view." },
    startLine: { type: "integer" },
    endLine: { type: "integer" },
    totalLines: { type: "integer" },
    errors: { type: "array", items: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } }, required: ["code", "message"], additionalProperties: false } },
  },
  required: ["ok", "errors"],
  additionalProperties: false,
};

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
                similarity: { type: "number", description: "1 for an exact match; lower for a similarity match." },
                candidates: {
                  type: "array",
                  description: "AMBIGUOUS: every place the edit fits; CONFLICT: the places in dispute.",
                  items: { ...range, properties: { ...range.properties, strategy: { type: "string" }, similarity: { type: "number" } }, required: ["startLine", "endLine"] },
                },
                closest: { ...range, description: "NOT_FOUND: the closest text of the file.", properties: { ...range.properties, similarity: { type: "number" } }, required: ["startLine", "endLine", "similarity"] },
                warnings: { type: "array", items: { type: "string" }, description: "What to check in an applied edit." },
                note: { type: "string", description: "already-applied: where its text already stands." },
                error: errorSchema,
              },
              required: ["status"],
              additionalProperties: false,
            },
          },
          error: errorSchema,
          syntax: {
            type: "object",
            description: "The syntax check of the change (tree-sitter): whether the file parses before and after, and the errors the edit introduced.",
            properties: {
              language: { type: "string" },
              parsesBefore: { type: "boolean" },
              parsesAfter: { type: "boolean" },
              introduced: {
                type: "array",
                items: {
                  type: "object",
                  properties: { line: { type: "integer" }, column: { type: "integer" }, message: { type: "string" }, excerpt: { type: "string" } },
                  required: ["line", "column", "message", "excerpt"],
                  additionalProperties: false,
                },
              },
            },
            required: ["language", "parsesBefore", "parsesAfter", "introduced"],
            additionalProperties: false,
          },
          syntaxSkipped: { type: "string", description: "Why a file of a known language got no syntax check: too large for the report." },
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
