/**
 * What a killed fuzzpatch leaves in a directory, and how the next writer
 * there recognises and removes it. A process killed (SIGKILL, power loss)
 * between staging a file's new bytes and renaming them into place leaves its
 * temporary file beside the target; killed while holding a directory's lock,
 * its `.fuzzpatch-lock` (write-lock.ts takes that over). Nothing else runs
 * when a process is killed, so the cleaning is the next writer's job.
 *
 * A temporary file's name says who made it:
 * `.<name>.fuzzpatch-<host>-<pid>-<random>.tmp`, `<host>` six hex digits of
 * the sha256 of the host name, `<pid>` in base 36. A writer about to place
 * files in a directory removes the temporary files there of a process of
 * its own host that no longer runs, and any older than STALE_TEMP_MS (the
 * time between staging and placing is the lock wait, 10 s at most, plus the
 * syncs of one batch: a live transaction's file is never that old). Names of
 * the form before pid and host were written (`.fuzzpatch-<12 hex>.tmp`) go
 * by age alone. Only regular files are removed, through the directory held
 * open.
 */

import { createHash, randomBytes } from "node:crypto";
import { lstatSync } from "node:fs";
import { readdir, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import type { HeldDirectory } from "./fd-place.ts";
import { siblingName } from "./sibling-name.ts";
import { isGone } from "./write-lock.ts";

/** Age past which any fuzzpatch temporary file is debris: ten minutes. */
export const STALE_TEMP_MS = 10 * 60 * 1000;

const HOST_TAG = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);

/** The name of a new temporary file for `base` (the target's name), marked with this host and process. */
export function tempNameFor(base: string): string {
  return siblingName(base, `.fuzzpatch-${HOST_TAG}-${process.pid.toString(36)}-${randomBytes(4).toString("hex")}.tmp`);
}

const MARKED = /\.fuzzpatch-([0-9a-f]{6})-([0-9a-z]{1,8})-[0-9a-f]{8}\.tmp$/;
const UNMARKED = /\.fuzzpatch-[0-9a-f]{12}\.tmp$/;

/** Whether the temporary file `name`, last written `ageMs` ago, is debris of a dead or long-gone writer. */
export function isDebris(name: string, ageMs: number): boolean {
  if (!name.startsWith(".")) return false;
  const marked = MARKED.exec(name);
  if (!marked && !UNMARKED.test(name)) return false;
  if (ageMs > STALE_TEMP_MS) return true;
  return marked !== null && marked[1] === HOST_TAG && isGone(Number.parseInt(marked[2] as string, 36));
}

/** Directories swept by this process, at most once each per this many ms. */
const SWEEP_EVERY_MS = 60_000;
const swept = new Map<string, number>();

/**
 * Removes debris temporary files from the directory `dir` held open in
 * `held`; best effort (a file that cannot be removed stays, the write goes
 * on). A directory is swept at most once a minute per process: one listing,
 * not one per batch of an agent's many edits.
 */
export async function sweepDebris(dir: string, held: HeldDirectory): Promise<number> {
  const now = Date.now();
  const last = swept.get(dir);
  if (last !== undefined && now - last < SWEEP_EVERY_MS) return 0;
  swept.set(dir, now);
  if (swept.size > 4096) swept.clear();
  let names: string[];
  try {
    names = await readdir(held.at("."));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(".tmp") || !name.includes(".fuzzpatch-")) continue;
    try {
      const at = held.at(name);
      const stats = lstatSync(at);
      if (!stats.isFile() || !isDebris(name, now - stats.mtimeMs)) continue;
      await unlink(at);
      removed++;
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}
