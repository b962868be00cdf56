/**
 * One writer at a time per directory, for the short moment of "check each
 * file is as expected, then replace it". Inside a process the writers queue
 * on a promise chain; across processes they take a lock file in the
 * directory, `.fuzzpatch-lock`, created with O_EXCL (never through a final
 * symlink), so two fuzzpatch processes writing one file end with one write
 * and one `STALE`, never a lost update.
 *
 * One lock for the directory, not one per file: a transaction checks and
 * renames all its files of a directory under one lock (transaction.ts), and
 * creating and removing a lock file costs the kernel about what writing a
 * small file does (a response over 200 files of one directory spent a third
 * of its write time on 200 lock files). Writers of other files of the
 * directory wait those milliseconds.
 *
 * The lock file only guards fuzzpatch against fuzzpatch: an editor writing
 * the file does not look at it (the content check still catches most of
 * those). A lock left by a crashed process is taken over at once when it
 * names a process of this host that is gone (the lock file holds the pid
 * and the host name), else once it is older than STALE_LOCK_MS (another
 * host's process cannot be asked); the lock is held for milliseconds, never across
 * reading, matching or writing the new bytes. Its descriptor stays open while
 * it is held: the lock file is checked through it to be in the directory (a
 * directory swapped for a symlink would put it elsewhere), and removed from
 * wherever it is when released.
 */

import { lstatSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { type FileHandle, open, rm } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import type { Budget } from "../limits.ts";
import { CREATE_FLAGS, isAt, removeOpen } from "./fd-place.ts";

const STALE_LOCK_MS = 30_000;
/** The longest wait for other writers' locks, for a whole transaction (all its directories and batches). */
export const WAIT_LIMIT_MS = 10_000;

const queues = new Map<string, Promise<unknown>>();

/** The lock file's name, in the directory it locks. */
export const LOCK_NAME = ".fuzzpatch-lock";

export interface LockOptions {
  /** Ends the wait for another writer's lock (`TIMEOUT`). @default undefined (10 s, then `IO`) */
  budget?: Budget | undefined;
  /** Names inside the directory held open (fd-place.ts), for the lock file. @default by path */
  at?: (name: string) => string;
  /**
   * When the wait ends (`IO`), as a `Date.now()` time: one deadline shared by
   * every lock of a transaction, so 200 files in 7 batches wait 10 s in all,
   * not 10 s per batch.
   * @default 10 s after the wait starts
   */
  deadline?: number;
  /** Stops the wait (throws) once true: the transaction failed elsewhere. @default undefined */
  cancelled?: () => boolean;
}

/** What a lock file holds: the holder's pid and host. */
const LOCK_TEXT = `${process.pid} ${hostname()}\n`;

/**
 * Runs `fn` holding the in-process queue and the lock file of the directory
 * `dir` (a real path). The wait for another writer ends at `budget`
 * (`TIMEOUT`) or after 10 s (`IO`).
 */
export async function withDirectoryLock<T>(dir: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => withLockFile(dir, fn, options));
  const tail = run.catch(() => undefined);
  queues.set(dir, tail);
  try {
    return await run;
  } finally {
    if (queues.get(dir) === tail) queues.delete(dir);
  }
}

/**
 * How stale the lock file at `lockAt` is, in ms: 0 when it is gone or is
 * not what a lock holds (a process id, then a host name, and a line break,
 * or nothing yet), so a user's own file of that name is never taken over
 * (deleted) as stale; Infinity when it names a process of this host that no
 * longer runs (killed mid-apply); else its age.
 */
function lockAge(lockAt: string): number {
  try {
    const s = lstatSync(lockAt);
    if (!s.isFile() || s.size > 300) return 0;
    const holder = /^(?:(\d+)(?: ([^\n]+))?\n)?$/.exec(readFileSync(lockAt, "latin1"));
    if (!holder) return 0;
    if (holder[1] !== undefined && holder[2] === hostname() && isGone(Number(holder[1]))) return Number.POSITIVE_INFINITY;
    return Date.now() - s.mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether no process `pid` runs on this host (never this process: its locks are in its own queue). */
export function isGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: string }).code === "ESRCH";
  }
}

async function withLockFile<T>(dir: string, fn: () => Promise<T>, { budget, at, deadline, cancelled }: LockOptions): Promise<T> {
  const lock = path.join(dir, LOCK_NAME);
  const lockAt = at ? at(LOCK_NAME) : lock;
  const until = deadline ?? Date.now() + WAIT_LIMIT_MS;
  let handle: FileHandle | undefined;
  for (let attempt = 0; ; attempt++) {
    budget?.check("waiting for another writer's lock");
    if (cancelled?.()) throw new Error("the transaction failed elsewhere");
    try {
      handle = await open(lockAt, CREATE_FLAGS, 0o600);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      const age = lockAge(lockAt);
      if (age > STALE_LOCK_MS) {
        await rm(lockAt, { force: true });
        continue;
      }
      if (Date.now() > until) {
        throw new EditError("IO", `${dir} is being written by another process (lock file ${LOCK_NAME}); try again, or remove that file if no fuzzpatch is running.`, {
          path: dir,
        });
      }
      const pause = Math.min(50, 2 + attempt * 2, budget?.remainingMs() ?? 50);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  try {
    if (!(await isAt(handle, lock))) {
      throw new EditError("UNSAFE_PATH", `Refusing to write in ${dir}: it changed while the edit was being applied (the lock file was created elsewhere); nothing was written.`, {
        path: dir,
      });
    }
    await handle.writeFile(LOCK_TEXT);
    return await fn();
  } finally {
    await removeOpen(handle, lock, at && { at, name: LOCK_NAME });
    // Removed above: the close need not be waited for (a thread pool round trip).
    void handle.close().catch(() => undefined);
  }
}
