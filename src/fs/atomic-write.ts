/**
 * Replacement of one file: the new bytes go to a temporary file in the same
 * directory (same file system, so the rename is atomic), which is then
 * renamed over the target. A reader sees the old file or the new one, never
 * half of it, and a crash leaves at worst a stray temporary file.
 *
 * Right before the rename, under a per-path lock (see write-lock.ts):
 * - the directory must still be the one that was checked (its real path is
 *   unchanged): a directory swapped for a symlink since the path check would
 *   otherwise carry the bytes outside the root;
 * - the file must still hold the bytes the edit was computed from: when
 *   another process (or call) wrote it meanwhile, the write fails with
 *   `STALE` instead of silently undoing that change.
 *
 * A file with several hard links is written in place (truncated and
 * rewritten) instead: a rename would give this name a new inode and cut it
 * off from its other names. Owner and group are kept where the process may
 * set them.
 */

import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { chmod, chown, lstat, mkdir, open, readFile, realpath, rename, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import { siblingName } from "./sibling-name.ts";
import { withPathLock } from "./write-lock.ts";

export interface AtomicWriteOptions {
  /**
   * Permission bits for the file; `undefined` keeps the default for new
   * files (0o666 minus the umask).
   * @default undefined
   */
  mode?: number;
  /**
   * The bytes the file must still hold right before it is replaced; `null`:
   * the file must not exist. A mismatch throws `STALE` and writes nothing.
   * @default undefined (no check)
   */
  expected?: Uint8Array | null;
  /** Relative path for messages. @default the absolute path */
  rel?: string;
}

/**
 * Writes `bytes` to `abs`. Missing parent directories are created; the ones
 * created are returned so a rollback can remove them.
 */
export async function writeFileAtomic(abs: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): Promise<string[]> {
  const rel = options.rel ?? abs;
  const dir = path.dirname(abs);
  const createdDirs = await makeParents(dir, rel);
  const temp = path.join(dir, siblingName(path.basename(abs), `.fuzzpatch-${randomBytes(6).toString("hex")}.tmp`));
  let tempMade = false;
  try {
    await checkDirectory(dir, rel);
    const handle = await open(temp, "wx", options.mode ?? 0o666);
    tempMade = true;
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; chmod sets the exact original bits.
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await withPathLock(abs, async () => {
      await checkDirectory(dir, rel);
      const current = await checkExpected(abs, rel, options.expected);
      if (current && current.nlink > 1) {
        await writeInPlace(abs, bytes);
        return;
      }
      if (current) await keepOwner(temp, current);
      await rename(temp, abs);
      tempMade = false;
    });
  } catch (error) {
    await removeDirs(createdDirs);
    throw error;
  } finally {
    if (tempMade) await rm(temp, { force: true }).catch(() => undefined);
  }
  return createdDirs;
}

/** Removes `abs` if it still holds `expected` (else `STALE`), under the same lock and checks. */
export async function removeFileChecked(abs: string, expected: Uint8Array | undefined, rel = abs): Promise<void> {
  const dir = path.dirname(abs);
  await withPathLock(abs, async () => {
    await checkDirectory(dir, rel);
    await checkExpected(abs, rel, expected);
    await rm(abs);
  });
}

/**
 * The directory was resolved (symlinks included) before; if its real path
 * differs now, a component was swapped, perhaps for a link out of the root.
 */
async function checkDirectory(dir: string, rel: string): Promise<void> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch {
    real = "";
  }
  if (real !== dir) {
    throw new EditError(
      "UNSAFE_PATH",
      `Refusing to write ${rel}: its directory changed while the edit was being applied (now ${real === "" ? "missing" : "resolving to another place"}); nothing was written there.`,
      { path: rel },
    );
  }
}

interface Current {
  nlink: number;
  uid: number;
  gid: number;
}

/** Checks the file against `expected`; returns its link count and owner when it exists. */
async function checkExpected(abs: string, rel: string, expected: Uint8Array | null | undefined): Promise<Current | undefined> {
  let stats: Stats | undefined;
  try {
    stats = await lstat(abs);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") throw error;
  }
  if (stats?.isSymbolicLink()) {
    throw new EditError("UNSAFE_PATH", `Refusing to write ${rel}: it became a symbolic link while the edit was being applied.`, { path: rel });
  }
  if (expected !== undefined) {
    const stale = (why: string) =>
      new EditError("STALE", `${rel} changed while the edit was being applied (${why}); nothing was written. Read the file again and send the edit against its current content.`, {
        path: rel,
      });
    if (expected === null) {
      if (stats) throw stale("it was created by someone else");
    } else {
      if (!stats) throw stale("it was deleted");
      const now = await readFile(abs);
      if (!now.equals(expected)) throw stale("its content is not what the edit was computed from");
    }
  }
  return stats ? { nlink: stats.nlink, uid: stats.uid, gid: stats.gid } : undefined;
}

/** Gives the new file the old one's owner and group, where the process may. */
async function keepOwner(temp: string, current: Current): Promise<void> {
  const mine = await stat(temp);
  if (mine.uid === current.uid && mine.gid === current.gid) return;
  try {
    await chown(temp, current.uid, current.gid);
  } catch {
    // Not allowed (another user's file, not root): try the group alone.
    await chown(temp, mine.uid, current.gid).catch(() => undefined);
  }
}

/** Overwrites the file's bytes keeping its inode (and so its other hard links). */
async function writeInPlace(abs: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(abs, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    await handle.truncate(0);
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates the missing directories of `dir`, returning them deepest first.
 * The deepest existing one is checked first: through a swapped symlink the
 * new directories would be made outside the root.
 */
async function makeParents(dir: string, rel: string): Promise<string[]> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      await stat(current);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") break;
      missing.push(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  if (missing.length > 0) {
    await checkDirectory(current, rel);
    await mkdir(dir, { recursive: true });
  }
  return missing;
}

/** Removes directories (deepest first) if they are empty; best effort. */
export async function removeDirs(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
  }
}
