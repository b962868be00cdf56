/**
 * Turns an `applyEdits` result into the text a model reads as a tool
 * result: on success, one line per edit (strategy, lines, a warning when the
 * match was fuzzy), the files' new hashes and the unified diff; on failure,
 * every `EditError` message as the engine wrote it, untouched, and what
 * would have applied, so the model fixes only the part that failed.
 */

import { formatByName } from "../formats/index.ts";
import type { EditError } from "../errors.ts";
import type { ApplyEditsResult, EditReport, FileReport } from "../fs/apply-edits.ts";
import type { ReadToolOutput, WriteToolOutput } from "./result-data.ts";
import { introducedLines } from "../fs/syntax-check.ts";

export interface ToolResult {
  /** True when the call failed; `text` then says why and what to send next. */
  isError: boolean;
  text: string;
  /** The result as data (the MCP server's `structuredContent`): `ReadToolOutput` for read_file, `WriteToolOutput` for the others. */
  structured?: WriteToolOutput | ReadToolOutput;
}

const unitOf = (format: string): string => formatByName(format)?.unit ?? "edit";

/**
 * `hashes` maps a written file's path to the sha256 of its new bytes, so
 * the model can pass it as `expectedHash` on its next edit without reading
 * the file again.
 */
export function describeResult(result: ApplyEditsResult, hashes: ReadonlyMap<string, string> = new Map(), display: (rel: string) => string = (rel) => rel): ToolResult {
  const lines: string[] = [];
  const edits = result.applied + result.failed;
  const files = result.files.length;
  const where = files === 1 ? display((result.files[0] as FileReport).path) : `${files} files`;
  if (result.ok) {
    const count = `${edits} edit${edits === 1 ? "" : "s"}`;
    if (result.applied === 0 && result.alreadyApplied > 0) lines.push(`Nothing to change: ${where} already has what the edits write.`);
    else lines.push(result.dryRun ? `Dry run: ${count} would apply to ${where}; nothing was written.` : `Applied ${count} to ${where}.`);
  } else {
    const what = result.failed > 0 ? `${result.failed} of ${edits} edit${edits === 1 ? "" : "s"} failed` : "the input could not be applied";
    lines.push(result.written ? `Some files were written, but ${what}.` : `Nothing was written: ${what}.`);
  }

  for (const file of result.files) {
    const hash = hashes.get(file.path);
    const state =
      file.status === "failed" ? "" : file.written || file.status === "unchanged" ? ` (${file.status}${hash ? `, now sha256 ${hash}` : ""})` : ` (would be ${file.status})`;
    lines.push(`${display(file.path)}${state}:`);
    if (file.error) lines.push(`${file.error.code}: ${file.error.message}`);
    const ordinals = new Map<string, number>();
    for (const edit of file.edits) {
      const unit = unitOf(edit.format);
      const n = (ordinals.get(unit) ?? 0) + 1;
      ordinals.set(unit, n);
      const label = labelOf(edit, n);
      if (edit.status === "already-applied") {
        lines.push(`- ${label}: ${edit.note?.code ?? "ALREADY_APPLIED"}: ${edit.note?.message ?? "already applied"}`);
      } else if (edit.status === "failed") {
        if (edit.error && edit.error === file.error) continue;
        lines.push(`- ${label} failed with ${describeError(edit.error)}`);
      } else {
        lines.push(`- ${label}: ${describeMatch(edit)}${result.ok ? "" : " (would apply; not written because another edit failed)"}`);
      }
    }
    if (file.syntax && file.status !== "failed" && file.syntax.introduced.length > 0) {
      const before = file.syntax.parsesBefore ? "it parsed before this edit" : "it had other syntax errors before";
      lines.push(`Warning: the file now has a syntax error (${file.syntax.language}; ${before}), check the edit:`);
      for (const line of introducedLines(file.syntax)) lines.push(`- ${line}`);
    }
    if (file.syntaxSkipped !== undefined && file.status !== "failed") lines.push(`Syntax ${file.syntaxSkipped}.`);
  }
  for (const error of result.errors) lines.push(`${error.code}: ${error.message}`);
  if (result.ok && result.diff !== "") lines.push("", result.diff.trimEnd());
  return { isError: !result.ok, text: `${lines.join("\n")}\n` };
}

/**
 * A str_replace edit is named by its place in the call's list; blocks and
 * hunks are counted per file. A file's unified diff fails as a whole (its
 * message names the hunk), so a failure there is "the diff".
 */
function labelOf(edit: EditReport, ordinal: number): string {
  if (edit.format === "str-replace") return `edit ${edit.index + 1}`;
  if (edit.format === "udiff" && edit.status === "failed") return "the diff";
  return `${unitOf(edit.format)} ${ordinal}`;
}

function describeMatch(edit: EditReport): string {
  const where = edit.startLine !== undefined ? `, lines ${edit.startLine}-${edit.endLine ?? edit.startLine}` : "";
  const strategy = `${edit.strategy ?? "exact"}${edit.version === undefined ? "" : ` from version ${edit.version + 1} you read`}`;
  if (!edit.fuzzy) return `${strategy}${where}`;
  const score = edit.score !== undefined && edit.score < 1 ? `, similarity ${edit.score.toFixed(2)}` : "";
  return `matched fuzzily (${strategy}${score})${where}; check in the diff that this is the change you meant`;
}

function describeError(error: EditError | undefined): string {
  return error ? `${error.code}:\n${error.message}` : "an unknown error";
}
