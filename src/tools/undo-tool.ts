/**
 * `undo_edit { path?, id?, merge?, dryRun? }`: takes back a write the
 * tools made (fs/undo.ts), within the tool's roots only: an id from
 * another project's write is refused, whatever the journal holds.
 */

import { undoWrite, type UndoResult } from "../fs/undo.ts";
import type { JournalOptions } from "../fs/journal.ts";
import type { UndoEditArgs } from "./definitions.ts";
import type { WriteToolOutput } from "./result-data.ts";
import type { ToolResult } from "./result-text.ts";
import { locateInRoots } from "./roots.ts";
import { EditError } from "../errors.ts";
import { lastWrite, journalDirOf } from "../fs/journal-find.ts";
import { resolveRoot } from "../fs/safe-path.ts";

const STATUS = { restored: "modified", merged: "modified", removed: "deleted", recreated: "created" } as const;

export async function undoEditTool(args: UndoEditArgs, roots: readonly string[], journal: boolean | JournalOptions | undefined): Promise<ToolResult> {
  if (journal === false) throw new EditError("INVALID_INPUT", "undo_edit is not available: this server keeps no undo journal.");
  const where = typeof journal === "object" ? journal : {};
  const common = { roots, journal: { ...where, source: "tool undo_edit" }, ...(args.merge !== undefined && { merge: args.merge }), ...(args.dryRun !== undefined && { dryRun: args.dryRun }) };
  let result: UndoResult;
  let display = (rel: string) => rel;
  if (args.id !== undefined) result = await undoWrite({ ...common, id: args.id });
  else if (args.path !== undefined) {
    const located = await locateInRoots(roots, args.path);
    display = located.display;
    result = await undoWrite({ ...common, root: located.root, path: located.rel });
  } else result = await undoWrite({ ...common, id: await lastUnderRoots(roots, where) });
  return describeUndo(result, display);
}

/** The newest write not undone under any of the roots. */
async function lastUnderRoots(roots: readonly string[], journal: JournalOptions): Promise<string> {
  const dir = journalDirOf(journal);
  let newest: string | undefined;
  let failure: unknown;
  for (const root of roots) {
    try {
      const found = await lastWrite(dir, { root: await resolveRoot(root) });
      if (newest === undefined || found.id > newest) newest = found.id;
    } catch (error) {
      failure = error;
    }
  }
  if (newest === undefined) throw failure;
  return newest;
}

function describeUndo(result: UndoResult, display: (rel: string) => string): ToolResult {
  const lines = [
    result.dryRun ? `Dry run: undoing write ${result.id} would change ${result.files.length} file(s); nothing was written.` : `Undid write ${result.id}:`,
    ...result.files.map((f) => `${f.action}: ${display(f.path)}`),
  ];
  if (result.written) for (const f of result.files) if (f.sha256 !== undefined) lines.push(`sha256 of ${display(f.path)}: ${f.sha256}`);
  if (result.journal?.id) lines.push(`(undo_edit with id ${result.journal.id} redoes it)`);
  if (result.diff !== "") lines.push("", result.diff.trimEnd());
  const structured: WriteToolOutput = {
    ok: true,
    dryRun: result.dryRun,
    files: result.files.map((f) => ({
      path: display(f.path),
      status: STATUS[f.action],
      written: result.written,
      ...(result.written && f.sha256 !== undefined && { sha256: f.sha256 }),
      diff: f.diff,
      edits: [],
    })),
    errors: [],
  };
  return { isError: false, text: `${lines.join("\n")}\n`, structured };
}
