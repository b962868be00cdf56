/** `fuzzpatch undo [ID | --last]` and `fuzzpatch log`: the undo journal from the command line. */

import { EditError } from "../errors.ts";
import type { JournalEntry } from "../fs/journal-entry.ts";
import { journalDirOf, type LoggedWrite, listWrites } from "../fs/journal-find.ts";
import { resolveRoot } from "../fs/safe-path.ts";
import { type UndoResult, undoWrite } from "../fs/undo.ts";
import { count } from "../text/plural.ts";
import { colorDiff, colorsFor, errorToJson, type Streams, writeError, writeNote } from "./output.ts";

export interface UndoCommandOptions {
  last: boolean;
  /** Without an id: the last write under this directory. */
  root: string;
  merge: boolean;
  dryRun: boolean;
  json: boolean;
  quiet: boolean;
  /** `--no-journal`: the undo itself is not recorded. */
  journal: boolean;
}

/** Exit codes: 0 undone, 1 refused (changed since, conflict, no such write), 2 bad usage or a damaged journal. */
export async function runUndo(id: string | undefined, options: UndoCommandOptions, streams: Streams): Promise<number> {
  if (id !== undefined && options.last) {
    writeError(streams, new EditError("INVALID_INPUT", "Give a write's id or --last, not both."));
    return 2;
  }
  let result: UndoResult;
  try {
    result = await undoWrite({
      ...(id !== undefined ? { id } : { root: options.root }),
      merge: options.merge,
      dryRun: options.dryRun,
      journal: options.journal ? { source: "cli undo" } : false,
    });
  } catch (error) {
    const e = error instanceof EditError ? error : new EditError("IO", String((error as Error)?.message ?? error));
    if (options.json) streams.out.write(`${JSON.stringify({ ok: false, error: errorToJson(e) }, null, 2)}\n`);
    else writeError(streams, e);
    return e.code === "INVALID_INPUT" || e.code === "IO" ? 2 : 1;
  }
  if (options.json) {
    streams.out.write(`${JSON.stringify({ ok: true, ...result }, null, 2)}\n`);
    return 0;
  }
  if (result.journal?.warning) writeNote(streams, result.journal.warning);
  if (options.quiet) return 0;
  const c = colorsFor(streams, "out");
  if (result.diff !== "") streams.out.write(colorDiff(result.diff, c) + (result.diff.endsWith("\n") ? "" : "\n"));
  for (const f of result.files) streams.out.write(`${c.green(`${f.action}:`)} ${f.path}\n`);
  const what = `write ${result.id} (${count(result.files.length, "file")} under ${result.root})`;
  if (result.dryRun) streams.out.write(`Dry run: would undo ${what}; nothing written.\n`);
  else streams.out.write(`Undid ${what}.${result.journal?.id ? ` To redo it: fuzzpatch undo ${result.journal.id}` : ""}\n`);
  return 0;
}

export interface LogCommandOptions {
  /** Only writes under this directory (a root inside it or holding it). */
  root?: string;
  /** Most writes listed. */
  max?: number;
  json: boolean;
}

export async function runLog(options: LogCommandOptions, streams: Streams): Promise<number> {
  const dir = journalDirOf(undefined);
  let writes: LoggedWrite[];
  try {
    const filter = options.root === undefined ? {} : { root: await resolveRoot(options.root) };
    const listed = await listWrites(dir, filter, options.max ?? 20);
    writes = listed.writes;
    if (listed.damaged.length > 0) writeNote(streams, `skipped ${count(listed.damaged.length, "damaged entry", "damaged entries")}: ${listed.damaged.join(", ")}`);
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
  if (options.json) {
    streams.out.write(`${JSON.stringify(writes.map(logJson), null, 2)}\n`);
    return 0;
  }
  if (writes.length === 0) {
    streams.out.write(`No writes in the journal (${dir}).\n`);
    return 0;
  }
  const c = colorsFor(streams, "out");
  for (const { entry, undoneBy } of writes) {
    const when = entry.time.replace("T", " ").replace(/\.\d+Z$/, "Z");
    const state = entry.undoes !== undefined ? ` ${c.cyan(`(undo of ${entry.undoes})`)}` : undoneBy !== undefined ? ` ${c.yellow(`(undone by ${undoneBy})`)}` : "";
    streams.out.write(`${c.bold(entry.id)}  ${when}  ${entry.source}  ${entry.root}${state}\n`);
    streams.out.write(`    ${describeFiles(entry)}\n`);
  }
  return 0;
}

/** "modified a.txt, created b.txt, moved c.txt -> d.txt". */
function describeFiles(entry: JournalEntry): string {
  const movedAway = new Set(entry.files.flatMap((f) => (f.movedFrom === undefined ? [] : [f.movedFrom])));
  const parts: string[] = [];
  for (const f of entry.files) {
    if (f.kind === "delete" && movedAway.has(f.path)) continue;
    if (f.movedFrom !== undefined) parts.push(`moved ${f.movedFrom} -> ${f.path}`);
    else parts.push(`${f.kind === "write" ? "modified" : f.kind === "create" ? "created" : "deleted"} ${f.path}`);
  }
  return parts.join(", ");
}

function logJson({ entry, undoneBy }: LoggedWrite): unknown {
  return {
    id: entry.id,
    time: entry.time,
    source: entry.source,
    root: entry.root,
    version: entry.version,
    ...(entry.undoes !== undefined && { undoes: entry.undoes }),
    ...(undoneBy !== undefined && { undoneBy }),
    files: entry.files.map((f) => ({ path: f.path, kind: f.kind, ...(f.movedFrom !== undefined && { movedFrom: f.movedFrom }) })),
    ...(entry.result && { ok: entry.result.ok, applied: entry.result.applied, failed: entry.result.failed }),
  };
}
