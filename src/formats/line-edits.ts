/**
 * `applyLineEdits(content, edits, options?)`: anchored edits on a string,
 * the pure core's entry (the file layer reads the same shape as JSON).
 */
import { EditError } from "../errors.ts";
import { applyAnchored } from "./anchored-apply.ts";
import { type LineEdit, parseAnchoredEdits } from "./anchored-parse.ts";
import type { OpOutcome } from "./types.ts";

export interface LineEditsOptions {
  /**
   * Earlier texts of the file the model may have read, oldest first: the
   * one in which the cited tags stand is mapped onto `content`, so tags of
   * lines that moved since are placed (and lines that changed refused).
   * @default []
   */
  versions?: readonly string[];
  /**
   * How messages name the file.
   * @default "the file"
   */
  path?: string;
}

export interface LineEditReport {
  /** How the edit's tags were found: "anchor" (as cited), "anchor-moved", "anchor-history", "line-checked". */
  strategy: string;
  /** Lines of `content` it replaced (an insertion: the line it went after, 1 at the start of the file). */
  startLine: number;
  endLine: number;
}

export interface LineEditsResult {
  content: string;
  edits: LineEditReport[];
}

/** Applies `edits` (all or none) to `content`. Throws the first failing edit's EditError (STALE, CONFLICT, PARSE, ...). */
export function applyLineEdits(content: string, edits: readonly LineEdit[], options: LineEditsOptions = {}): LineEditsResult {
  const payload = parseAnchoredEdits(edits);
  if (payload instanceof EditError) throw payload;
  const result = applyAnchored(content, payload, { path: options.path ?? "the file", ...(options.versions !== undefined && { versions: options.versions }) });
  const failed = result.ops.find((op) => op.status === "failed");
  if (failed?.error || result.content === undefined) throw failed?.error ?? new EditError("INVALID_INPUT", "The line edits could not be applied.");
  return { content: result.content, edits: result.ops.map(report) };
}

function report(op: OpOutcome): LineEditReport {
  return { strategy: op.strategy ?? "anchor", startLine: op.startLine ?? 0, endLine: op.endLine ?? 0 };
}
