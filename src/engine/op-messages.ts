/**
 * What the applier adds to an op's error, the same for every format: the
 * op's label and origin, and for NOT_FOUND the notes that help the model
 * fix its edit in one more try.
 */
import type { EditError } from "../errors.ts";
import { exact } from "../match/exact.ts";
import { lineTrimmed } from "../match/line-trimmed.ts";
import type { MatchContext } from "../match/types.ts";
import { wholeLineCandidates } from "./line-edits.ts";
import { queryOf } from "./locate-op.ts";
import type { EditOp } from "./ops.ts";
import type { ResolvedOptions } from "./options.ts";

const pct = (x: number) => `${Math.floor(x * 100)}%`;
/** A replacement shorter than this may well occur by chance: no "already applied" note. */
const MIN_APPLIED_CHARS = 20;

/** Prefixes the op's label and records where it came from. */
export function withOrigin(error: EditError, op: EditOp): EditError {
  const { label, index, line, diffIndex } = op.origin;
  if (label !== "" && !error.message.startsWith(`${label}: `)) error.message = `${label}: ${error.message}`;
  error.detail.index = index;
  error.detail.line = line;
  if (diffIndex !== undefined) error.detail.diffIndex = diffIndex;
  return error;
}

/** Where the op's replacement already is, when it is there exactly once: the edit was applied before. */
export function findReplacement(ctx: MatchContext, op: EditOp): { startLine: number; endLine: number } | undefined {
  const reading = op.readings[0];
  if (!reading) return undefined;
  const replacement = reading.lines ? reading.lines.replace.join("\n") : reading.replace;
  // Whole lines are specific enough when one is not blank; a bit of text needs some length.
  const enough = reading.lines ? reading.lines.replace.some((l) => l.trim() !== "") : replacement.trim().length >= MIN_APPLIED_CHARS;
  if (!enough || replacement === reading.find) return undefined;
  const q = queryOf({ find: replacement, replace: "", ...(reading.lines && { lines: { find: reading.lines.replace, replace: [] } }) });
  for (const strategy of [exact, lineTrimmed]) {
    const found = strategy.find(ctx, q);
    const cands = reading.lines ? wholeLineCandidates(ctx.doc, found) : found;
    if (cands.length === 1 && cands[0]) return { startLine: cands[0].startLine + 1, endLine: cands[0].endLine };
    if (cands.length > 1) return undefined;
  }
  return undefined;
}

export function notFoundNotes(op: EditOp, opts: ResolvedOptions, ctx: MatchContext, error?: EditError): string {
  const notes: string[] = [];
  if (error?.detail.closest) notes.push(`A similarity match needs at least ${pct(opts.strategy.fuzzyThreshold)}.`);
  const applied = findReplacement(ctx, op);
  if (applied) {
    notes.push(
      `What the edit writes is already in the file at lines ${applied.startLine}-${applied.endLine}: it seems to be applied already. If so, drop it.`,
    );
    if (error) error.detail.alreadyApplied = applied;
  }
  if (op.notFoundNote) notes.push(op.notFoundNote);
  return notes.map((n) => `\n${n}`).join("");
}
