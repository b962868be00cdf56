/**
 * What the applier adds to an op's error, the same for every format: the
 * op's label and origin, and for NOT_FOUND the notes that help the model
 * fix its edit in one more try.
 */
import { ruleOn } from "./rules.ts";
import type { EditError } from "../errors.ts";
import type { MatchContext } from "../match/types.ts";
import { standsInstead } from "./already-applied.ts";
import type { EditOp } from "./ops.ts";
import type { ResolvedOptions } from "./options.ts";

const pct = (x: number) => `${Math.floor(x * 100)}%`;

/** Prefixes the op's label and records where it came from. */
export function withOrigin(error: EditError, op: EditOp): EditError {
  const { label, index, line, diffIndex } = op.origin;
  if (label !== "" && !error.message.startsWith(`${label}: `)) error.message = `${label}: ${error.message}`;
  error.detail.index = index;
  error.detail.line = line;
  if (diffIndex !== undefined) error.detail.diffIndex = diffIndex;
  return error;
}

/**
 * Why the closest text was not used. Below the threshold, the threshold;
 * at or above it the text was refused for another reason, and saying "needs
 * at least 90%" after "90% similar" read as a contradiction.
 */
function similarityNote(similarity: number, threshold: number, find: string): string {
  if (similarity < threshold) return `A similarity match needs at least ${pct(threshold)}.`;
  const lines = find.split("\n").filter((l) => l.trim() !== "").length;
  if (lines < 2) return "That is similar, but one line is never matched by similarity (too little evidence of the place): copy it exactly.";
  return `That is similar enough for a similarity match (${pct(threshold)}), but it was not taken: another place is nearly as similar, or the lines that differ cannot be merged safely. Copy the text exactly from the lines shown.`;
}

export function notFoundNotes(op: EditOp, opts: ResolvedOptions, ctx: MatchContext, error?: EditError): string {
  const notes: string[] = [];
  const similarity = (error?.detail.closest as { similarity?: number } | undefined)?.similarity;
  if (similarity !== undefined) notes.push(similarityNote(similarity, opts.strategy.fuzzyThreshold, op.readings[0]?.find ?? ""));
  const closest = error?.detail.closest as { startLine: number; endLine: number } | undefined;
  const at = ruleOn("already-applied") ? standsInstead(ctx, op, closest && { startLine: closest.startLine - 1, endLine: closest.endLine }) : undefined;
  const applied = at && { startLine: at.startLine + 1, endLine: at.endLine };
  if (applied) {
    notes.push(
      `What the edit writes is already in the file at lines ${applied.startLine}-${applied.endLine}: it seems to be applied already. If so, drop it.`,
    );
    if (error) error.detail.alreadyApplied = applied;
  }
  if (op.notFoundNote) notes.push(op.notFoundNote);
  return notes.map((n) => `\n${n}`).join("");
}
