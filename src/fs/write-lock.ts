/**
 * One writer at a time per file, for the short moment of "check the file is
 * as expected, then replace it". Inside a process the writers queue on a
 * promise chain; across processes they take a lock file next to the target,
 * created with O_EXCL (`wx`), so two fuzzpatch processes writing one file end
 * with one write and one `STALE`, never a lost update.
 *
 * The lock file only guards fuzzpatch against fuzzpatch: an editor writing
 * the file does not look at it (the content check still catches most of
 * those). A lock left by a crashed process is taken over once it is older
 * than STALE_LOCK_MS; the lock is held for milliseconds, never across
 * reading or matching.
 */

import { open, rm, stat } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import { siblingName } from "./sibling-name.ts";

const STALE_LOCK_MS = 30_000;
const WAIT_LIMIT_MS = 10_000;

const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` holding the in-process queue and the lock file of `abs`. */
export async function withPathLock<T>(abs: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(abs) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => withLockFile(abs, fn));
  const tail = run.catch(() => undefined);
  queues.set(abs, tail);
  try {
    return await run;
  } finally {
    if (queues.get(abs) === tail) queues.delete(abs);
  }
}

async function withLockFile<T>(abs: string, fn: () => Promise<T>): Promise<T> {
  const lock = path.join(path.dirname(abs), siblingName(path.basename(abs), ".fuzzpatch-lock"));
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, "wx", 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() - started > WAIT_LIMIT_MS) {
        throw new EditError("IO", `${abs} is being written by another process (lock file ${path.basename(lock)}); try again.`, { path: abs });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + attempt * 2)));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}
