/**
 * Writes a set of planned file changes as one unit. Each file is replaced
 * atomically; if any write fails, the files already written are put back
 * (original bytes and mode, created files removed, deleted files restored),
 * so a failure midway leaves the tree as it was.
 *
 * Each write first checks that the file still holds `original` (a created
 * file: that it still does not exist), so a change made by someone else
 * since the file was read fails the transaction with `STALE` rather than
 * being overwritten; a rollback likewise restores only files that still hold
 * what this transaction wrote.
 */

import { EditError } from "../errors.ts";
import type { Budget } from "../limits.ts";
import { removeDirs, removeFileChecked, writeFileAtomic } from "./atomic-write.ts";
import { describeIoError } from "./safe-path.ts";
import { count } from "../text/plural.ts";
import { limiter } from "./limiter.ts";

export interface PlannedChange {
  /** Relative path, for messages. */
  rel: string;
  abs: string;
  kind: "write" | "create" | "delete";
  /** New bytes (unused for delete). */
  bytes: Uint8Array;
  /** The bytes before the change (empty for create). */
  original: Uint8Array;
  /** Mode to write: the original file's, or the one the edit gives it. */
  mode?: number;
  /** The original file's mode when the edit changes it, for a rollback. */
  originalMode?: number;
}

export interface TransactionHooks {
  /**
   * Called before each file is written or deleted; throwing fails that write.
   * Exists so tests can inject a failure midway (the tests run as root, for
   * whom permission bits do not make writes fail).
   * @default undefined
   */
  beforeWrite?: (change: PlannedChange, index: number) => void | Promise<void>;
}

/** Files written at once. */
const WRITERS = 8;

interface Done {
  change: PlannedChange;
  createdDirs: string[];
}

/**
 * Applies every change or none; `budget` bounds the wait for other writers'
 * locks before each write (a rollback is not bounded by it: putting files
 * back matters more than the time). Throws an `IO` EditError naming the file
 * whose write failed (and any file that could not be restored).
 */
export async function commitChanges(changes: readonly PlannedChange[], hooks: TransactionHooks = {}, budget?: Budget): Promise<void> {
  const done: Done[] = [];
  let failure: { error: unknown; change: PlannedChange; index: number } | undefined;
  // A few files are written at once: each write waits on a dozen file system calls in turn, and
  // a response over 200 files spent most of its time waiting. After a failure no new write
  // starts; the ones under way finish, and every file written is put back.
  const limit = limiter(WRITERS);
  const write = async (change: PlannedChange, index: number): Promise<void> => {
    if (failure !== undefined) return;
    try {
      await hooks.beforeWrite?.(change, index);
      if (change.kind === "delete") {
        await removeFileChecked(change.abs, change.original, change.rel, budget);
        done.push({ change, createdDirs: [] });
      } else {
        const createdDirs = await writeFileAtomic(change.abs, change.bytes, {
          mode: change.mode,
          expected: change.kind === "create" ? null : change.original,
          rel: change.rel,
          ...(budget && { budget }),
        });
        done.push({ change, createdDirs });
      }
    } catch (error) {
      failure ??= { error, change, index };
    }
  };
  await Promise.all(changes.map((change, index) => limit(() => write(change, index))));
  if (failure === undefined) return;
  const { error, change, index } = failure;
  const unrestored = await rollBack(done);
  const restoredNote =
    done.length === 0
      ? "Nothing was written."
      : unrestored.length === 0
        ? `The ${count(done.length, "file")} already written ${done.length === 1 ? "was" : "were"} restored; nothing changed.`
        : `Could not restore: ${unrestored.join(", ")}.`;
  // A file changed under us, a directory swapped, or the budget spent waiting for a lock keeps its own code.
  if (error instanceof EditError && (error.code === "STALE" || error.code === "UNSAFE_PATH" || error.code === "TIMEOUT")) {
    throw new EditError(error.code, `${error.message} ${restoredNote}`, { ...error.detail, path: change.rel, index, unrestored });
  }
  throw new EditError("IO", `Writing ${change.rel} failed: ${describeIoError(error)}. ${restoredNote}`, {
    path: change.rel,
    index,
    unrestored,
  });
}

/** Undoes completed changes, last first; returns the paths that could not be restored. */
async function rollBack(done: readonly Done[]): Promise<string[]> {
  const unrestored: string[] = [];
  for (const { change, createdDirs } of [...done].reverse()) {
    try {
      if (change.kind === "create") {
        await removeFileChecked(change.abs, change.bytes, change.rel);
        await removeDirs(createdDirs);
      } else {
        const expected = change.kind === "delete" ? null : change.bytes;
        await writeFileAtomic(change.abs, change.original, { mode: change.originalMode ?? change.mode, expected, rel: change.rel });
      }
    } catch {
      unrestored.push(change.rel);
    }
  }
  return unrestored;
}
