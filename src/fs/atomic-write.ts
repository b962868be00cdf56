/**
 * Atomic replacement of one file: the new bytes go to a temporary file in the
 * same directory (same file system, so the rename is atomic), which is then
 * renamed over the target. A reader sees the old file or the new one, never
 * half of it, and a crash leaves at worst a stray temporary file.
 */

import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /**
   * Permission bits for the file; `undefined` keeps the default for new
   * files (0o666 minus the umask).
   * @default undefined
   */
  mode?: number;
}

/**
 * Writes `bytes` to `abs` atomically. Missing parent directories are created;
 * the ones created are returned so a rollback can remove them.
 */
export async function writeFileAtomic(abs: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): Promise<string[]> {
  const dir = path.dirname(abs);
  const createdDirs = await makeParents(dir);
  const temp = path.join(dir, `.${path.basename(abs)}.fuzzpatch-${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "wx", options.mode ?? 0o666);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; chmod sets the exact original bits.
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await rename(temp, abs);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    await removeDirs(createdDirs);
    throw error;
  }
  return createdDirs;
}

/** Creates the missing directories of `dir`, returning them deepest first. */
async function makeParents(dir: string): Promise<string[]> {
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
  if (missing.length > 0) await mkdir(dir, { recursive: true });
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
