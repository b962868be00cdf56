/**
 * Finding writes in the journal: by id (or a prefix naming one), or the
 * last write not yet undone, under a root or to one file; and the list
 * `fuzzpatch log` shows.
 *
 * Undo is a stack: an undo is itself a write (recorded with `undoes`), and
 * "the last write" skips undos and the writes they undid, so undoing again
 * goes one write further back. Undoing an undo (by its id) redoes the
 * write, which is then "last" again.
 */

import path from "node:path";
import { EditError } from "../errors.ts";
import { defaultJournalDir } from "./journal-dir.ts";
import type { JournalEntry } from "./journal-entry.ts";
import type { JournalOptions } from "./journal.ts";
import { listEntryIds, readEntry } from "./journal-store.ts";

/** The journal directory an undo, log or report reads. */
export function journalDirOf(journal: JournalOptions | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return journal?.dir !== undefined && journal.dir !== "" ? path.resolve(journal.dir) : defaultJournalDir(env);
}

/** Which writes a search for "the last one" considers. */
export interface EntryFilter {
  /** A real root path: writes whose root is it, inside it, or holds it. */
  root?: string;
  /** An absolute real path: writes that changed (or moved) this file. */
  file?: string;
}

const inside = (dir: string, p: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`);

function matches(entry: JournalEntry, filter: EntryFilter): boolean {
  if (filter.file !== undefined) {
    const file = filter.file;
    return entry.files.some((f) => path.join(entry.root, f.path) === file || (f.movedFrom !== undefined && path.join(entry.root, f.movedFrom) === file));
  }
  if (filter.root !== undefined) return inside(filter.root, entry.root) || inside(entry.root, filter.root);
  return true;
}

/** A listed write: the entry, whether an undo took it back, and the undo's id. */
export interface LoggedWrite {
  entry: JournalEntry;
  undoneBy?: string;
}

/**
 * Entries newest first, each with the undo that took it back (an undo
 * itself undone does not count); damaged entries are skipped and named in
 * `damaged`. Stops after `limit` entries that `filter` keeps.
 */
export async function listWrites(dir: string, filter: EntryFilter = {}, limit = Number.POSITIVE_INFINITY): Promise<{ writes: LoggedWrite[]; damaged: string[] }> {
  const ids = listEntryIds(dir).reverse();
  const undone = new Map<string, string>();
  const writes: LoggedWrite[] = [];
  const damaged: string[] = [];
  for (const id of ids) {
    if (writes.length >= limit) break;
    let entry: JournalEntry;
    try {
      entry = await readEntry(dir, id);
    } catch {
      damaged.push(id);
      continue;
    }
    const undoneBy = undone.get(id);
    // An undo that was itself undone no longer takes its write back.
    if (entry.undoes !== undefined && undoneBy === undefined) undone.set(entry.undoes, id);
    if (matches(entry, filter)) writes.push({ entry, ...(undoneBy !== undefined && { undoneBy }) });
  }
  return { writes, damaged };
}

/** The entry `id` names: the whole id, or a prefix only one id has. */
export async function entryById(dir: string, id: string): Promise<JournalEntry> {
  const wanted = id.trim();
  const ids = listEntryIds(dir);
  if (ids.includes(wanted)) return readEntry(dir, wanted);
  const found = wanted.length >= 4 ? ids.filter((i) => i.startsWith(wanted)) : [];
  if (found.length === 1) return readEntry(dir, found[0] as string);
  if (found.length > 1) {
    throw new EditError("AMBIGUOUS", `${wanted} is the start of ${found.length} journal ids (${found.slice(0, 5).join(", ")}${found.length > 5 ? ", ..." : ""}); give more of it.`, { id: wanted });
  }
  throw new EditError("NOT_FOUND", `No write ${wanted} in the journal ${dir} (see fuzzpatch log); it may have been dropped as the journal's oldest.`, { id: wanted });
}

/** The last write `filter` keeps that is neither an undo nor undone. */
export async function lastWrite(dir: string, filter: EntryFilter): Promise<JournalEntry> {
  const { writes } = await listWrites(dir, filter);
  const last = writes.find((w) => w.entry.undoes === undefined && w.undoneBy === undefined);
  if (last) return last.entry;
  const where = filter.file !== undefined ? ` to ${filter.file}` : filter.root !== undefined ? ` under ${filter.root}` : "";
  throw new EditError("NOT_FOUND", `No write${where} left to undo in the journal ${dir} (see fuzzpatch log).`, {});
}
