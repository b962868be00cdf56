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
import path from "node:path";
import { type CreatedDir, placeStaged, prepareDirectory, removeChecked, removeDirs, removeFileChecked, type StagedWrite, stageWrite, unstage, writeFileAtomic } from "./atomic-write.ts";
import { sweepDebris } from "./debris.ts";
import { describeIoError } from "./safe-path.ts";
import { count } from "../text/plural.ts";
import { limiter } from "./limiter.ts";
import { WAIT_LIMIT_MS, withDirectoryLock } from "./write-lock.ts";

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

/** Files staged or placed at once: each is a few file system calls in turn. */
const WRITERS = 8;
/** Most files of one directory staged before they are placed under one lock: bounds the descriptors held open. */
const BATCH = 32;

interface Done {
  change: PlannedChange;
}

interface Failure {
  error: unknown;
  change: PlannedChange;
  index: number;
}

/** Changes of one directory, at most BATCH of them, with their indexes in the transaction. */
interface Batch {
  dir: string;
  items: { change: PlannedChange; index: number }[];
}

/** The changes by directory, in order of first appearance, cut into batches of at most BATCH. */
function batchesOf(changes: readonly PlannedChange[]): Batch[] {
  const byDir = new Map<string, Batch[]>();
  const out: Batch[] = [];
  for (const [index, change] of changes.entries()) {
    const dir = path.dirname(change.abs);
    let batches = byDir.get(dir);
    if (!batches) {
      batches = [];
      byDir.set(dir, batches);
    }
    let last = batches[batches.length - 1];
    if (!last || last.items.length === BATCH) {
      last = { dir, items: [] };
      batches.push(last);
      out.push(last);
    }
    last.items.push({ change, index });
  }
  return out;
}

/**
 * Applies every change or none; `budget` bounds the wait for other writers'
 * locks before each directory's files are placed, and so does `lockWaitMs`,
 * one deadline for all of them (then `IO`) (a rollback is not bounded
 * by it: putting files back matters more than the time). Throws an `IO`
 * EditError naming the file whose write failed (and any file that could not
 * be restored).
 *
 * Directory by directory (a batch of at most BATCH files of one directory),
 * each new file's bytes are first written to a temporary file beside it and
 * synced, then, under the directory's one lock (write-lock.ts), each file is
 * checked and its temporary file renamed over it: a file is replaced only
 * once its new bytes are on disk, as when each file took its own lock, and a
 * lock file is made once per batch instead of once per file.
 */
export async function commitChanges(changes: readonly PlannedChange[], hooks: TransactionHooks = {}, budget?: Budget, lockWaitMs = WAIT_LIMIT_MS): Promise<void> {
  // One deadline for every lock of the transaction: a lock held elsewhere made each batch of 32 files wait its own 10 s.
  const lockDeadline = Date.now() + lockWaitMs;
  const done: Done[] = [];
  const createdDirs: CreatedDir[] = [];
  let failure: Failure | undefined;
  const fail = (error: unknown, change: PlannedChange, index: number) => {
    failure ??= { error, change, index };
  };
  // A few batches and a few files at once: each file waits on a dozen file system calls in turn,
  // and a response over 200 files spent most of its time waiting. After a failure no new write
  // starts; the ones under way finish, and every file written is put back.
  const batches = limiter(WRITERS);
  const files = limiter(WRITERS);
  const runBatch = async ({ dir, items }: Batch): Promise<void> => {
    if (failure !== undefined) return;
    const first = items[0] as Batch["items"][number];
    let prepared: Awaited<ReturnType<typeof prepareDirectory>>;
    try {
      prepared = await prepareDirectory(dir, first.change.rel, items.some((i) => i.change.kind !== "delete"));
    } catch (error) {
      return fail(error, first.change, first.index);
    }
    const { held } = prepared;
    for (const made of prepared.createdDirs) createdDirs.push(made);
    // Temporary files a killed fuzzpatch left here (debris.ts).
    await sweepDebris(dir, held);
    const staged = new Map<number, StagedWrite>();
    const staging = Promise.all(
      items.map(({ change, index }) =>
        files(async () => {
          if (failure !== undefined || change.kind === "delete") return;
          try {
            const expected = change.kind === "create" ? null : change.original;
            staged.set(index, await stageWrite(change.abs, change.bytes, { mode: change.mode, expected, rel: change.rel }, held));
          } catch (error) {
            fail(error, change, index);
          }
        }),
      ),
    );
    // One file (an edit_file): its lock is taken while its bytes are written and synced, not after (the lock
    // file's create and write were two more round trips through the thread pool, in series). A batch of many
    // files stages them first: holding the directory's lock through many syncs would make other writers wait.
    const lockEarly = items.length === 1;
    try {
      if (!lockEarly) await staging;
      if (failure !== undefined) return;
      const place = async (change: PlannedChange, index: number): Promise<void> => {
        if (failure !== undefined) return;
        try {
          await hooks.beforeWrite?.(change, index);
          const ready = staged.get(index);
          if (ready) await placeStaged(ready);
          else await removeChecked(change.abs, change.original, change.rel, held);
          done.push({ change });
        } catch (error) {
          fail(error, change, index);
        }
      };
      const placeAll = async () => {
        await staging;
        await Promise.all(items.map(({ change, index }) => files(() => place(change, index))));
      };
      await withDirectoryLock(dir, placeAll, {
        budget,
        at: held.at,
        deadline: lockDeadline,
        cancelled: () => failure !== undefined,
      });
    } catch (error) {
      // The lock itself (a timeout, the directory swapped).
      fail(error, first.change, first.index);
    } finally {
      // A lock that failed while the file was being staged: the staging ends first, so its temporary file is removed too.
      await staging;
      for (const ready of staged.values()) await unstage(ready);
      // The directory's descriptor closed without waiting (a thread pool round trip at the end of every write).
      void held.close();
    }
  };
  await Promise.all(batchesOf(changes).map((batch) => batches(() => runBatch(batch))));
  if (failure === undefined) return;
  const { error, change, index } = failure as Failure;
  const unrestored = await rollBack(done);
  // Directories made for new files, once the files are gone (deepest first; a directory not empty, moved or replaced stays).
  const leftDirs = await removeDirs(createdDirs);
  const filesNote =
    done.length === 0
      ? "Nothing was written"
      : unrestored.length === 0
        ? `The ${count(done.length, "file")} already written ${done.length === 1 ? "was" : "were"} restored`
        : `Could not restore: ${unrestored.join(", ")}`;
  // "Nothing was written" only when it is true: a directory made and not removed is said so.
  const restoredNote =
    leftDirs.length === 0
      ? `${filesNote}${done.length > 0 && unrestored.length === 0 ? "; nothing changed." : "."}`
      : `${filesNote}, but ${leftDirs.length === 1 ? "a directory it created" : "directories it created"} could not be removed (moved, replaced or no longer empty): ${leftDirs.join(", ")}.`;
  // A file changed under us, a directory swapped, or the budget spent waiting for a lock keeps its own code.
  if (error instanceof EditError && (error.code === "STALE" || error.code === "UNSAFE_PATH" || error.code === "TIMEOUT")) {
    throw new EditError(error.code, `${error.message} ${restoredNote}`, { ...error.detail, path: change.rel, index, unrestored, ...(leftDirs.length > 0 && { leftDirectories: leftDirs }) });
  }
  throw new EditError("IO", `Writing ${change.rel} failed: ${describeIoError(error)}. ${restoredNote}`, {
    path: change.rel,
    index,
    unrestored,
    ...(leftDirs.length > 0 && { leftDirectories: leftDirs }),
  });
}

/** Undoes completed changes, last first; returns the paths that could not be restored. */
async function rollBack(done: readonly Done[]): Promise<string[]> {
  const unrestored: string[] = [];
  for (const { change } of [...done].reverse()) {
    try {
      if (change.kind === "create") {
        await removeFileChecked(change.abs, change.bytes, change.rel);
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
