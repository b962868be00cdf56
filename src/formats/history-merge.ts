/**
 * Edits written against a version of the file the model read earlier: the
 * commonest real failure (39% of the real SEARCH/REPLACE blocks that did not
 * match matched an earlier version verbatim). When an edit does not apply to
 * the current file, or applies only fuzzily, and it applies to one of the
 * versions the caller says the model may have read (newest first; exactly,
 * where the current file gave a fuzzy match), it is applied to that version
 * and carried onto the current file by a three-way merge. Overlapping
 * changes are a CONFLICT that quotes the current lines; conflict markers
 * are never written. An edit that applies exactly to the current file never
 * gets here: a merge does not beat an unambiguous match.
 */
import { type CarryConflict, carryOver } from "../engine/carry-over.ts";
import { ruleOn } from "../engine/rules.ts";
import { EditError } from "../errors.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, OpOutcome } from "./types.ts";

/** The current result asks for history: an op not found, or matched fuzzily. An ambiguous op is not resolved by an older version: the copies the model now sees are its own. */
function wantsHistory(now: FileApplyResult | EditError): boolean {
  if (now instanceof EditError) return now.code === "NOT_FOUND";
  // With keepApplied (--reject) a result has its text even when some op failed.
  if (now.ops.some((op) => op.status === "failed" && op.error?.code === "NOT_FOUND")) return true;
  return now.content !== undefined && now.ops.some((op) => op.status === "applied" && op.fuzzy === true);
}

function numbered(lines: readonly string[], first: number): string {
  return lines.map((l, k) => `${first + k} | ${l}`).join("\n");
}

function conflictError(c: CarryConflict, version: number, count: number, path: string): EditError {
  const shown = c.lines.length > 0 ? `Lines ${c.startLine}-${c.startLine + c.lines.length - 1} of ${path} now read:\n${numbered(c.lines, c.startLine)}` : `At line ${c.startLine} of ${path} the earlier version had lines that are gone now.`;
  const change = [...c.before.map((l) => `- ${l}`), ...c.after.map((l) => `+ ${l}`)].join("\n");
  return new EditError(
    "CONFLICT",
    `The edit matches an earlier version of ${path}, the one it was written against (version ${version + 1} of ${count} in the file's history: a version read earlier, or a git diff's base blob), not the file as it is now: the file has changed since in the same place.\n${shown}\nThe edit, against that version, changes:\n${change}\nSend the edit again against the current lines above.`,
    { path, startLine: c.startLine, endLine: c.startLine + Math.max(0, c.lines.length - 1), version },
  );
}

/**
 * The edit applied through history, or undefined when no version helps
 * (the current result stands). `now` is the edit's result on the current
 * text, or the EditError it threw.
 */
export function applyFromHistory(
  entry: FormatEntry,
  edit: FileEdit,
  current: string,
  versions: readonly string[],
  ctx: FileApplyContext,
  now: FileApplyResult | EditError,
): FileApplyResult | undefined {
  if (versions.length === 0 || !wantsHistory(now) || !ruleOn("carry-over")) return undefined;
  const fuzzyNow = !(now instanceof EditError) && now.content !== undefined && !now.ops.some((op) => op.status === "failed");
  for (let k = versions.length - 1; k >= 0; k--) {
    const version = versions[k] as string;
    if (version === current) continue;
    let there: FileApplyResult;
    try {
      there = entry.apply(version, edit as FileEdit<never>, { ...ctx, exists: true });
    } catch {
      continue;
    }
    if (there.content === undefined || there.ops.some((op) => op.status === "failed") || there.deleted || there.moveTo !== undefined) continue;
    const applied = there.ops.filter((op) => op.status === "applied");
    if (applied.length === 0) continue;
    // Where the current file matched fuzzily, only an exact match in the version says the model read that version.
    if (fuzzyNow && applied.some((op) => op.fuzzy)) continue;
    const carried = carryOver(version, current, there.content);
    if (carried.conflict) return { ops: [{ status: "failed", error: conflictError(carried.conflict, k, versions.length, ctx.path) }] };
    const ops: OpOutcome[] = there.ops.map((op) => (op.status === "applied" ? { ...op, strategy: "history-merge", version: k } : op));
    if (carried.text === current) {
      // The version's match is a place the file changed since, the way the edit would (the model's own last edit of
      // one of several copies); the fuzzy match now is another copy still to change: it stands.
      if (fuzzyNow) return undefined;
      const note = new EditError("ALREADY_APPLIED", `already applied (the edit, made on version ${k + 1} of the file you read, changes nothing in the file now); nothing to do.`);
      return { content: current, ops: [{ status: "already-applied", note }] };
    }
    return { content: carried.text, ops };
  }
  return undefined;
}
