/**
 * Replacement of one file: the new bytes go to a temporary file in the same
 * directory (same file system, so the rename is atomic), which is then
 * renamed over the target. A reader sees the old file or the new one, never
 * half of it, and a crash leaves at worst a stray temporary file.
 *
 * Node has no `openat`/`renameat`, so every call names the file by path and a
 * process in the tree may swap a directory of it between two calls. What is
 * checked, and how (fd-place.ts: a descriptor's real path):
 * - the temporary file is created exclusively, never through a final symlink
 *   (`O_EXCL|O_NOFOLLOW`), then checked through its descriptor to be in the
 *   directory meant: created elsewhere, it is removed from there;
 * - right before the rename, under its directory's lock (write-lock.ts), the
 *   directory must still resolve to itself, and the file, opened without
 *   following a symlink or waiting on a FIFO, must still hold the bytes the
 *   edit was computed from (else `STALE`, instead of undoing another write);
 * - after the rename, the new file must be where it was meant: landed
 *   elsewhere, it is removed from there and the write fails (`UNSAFE_PATH`).
 *
 * A file with several hard links is written in place (truncated and
 * rewritten) instead: a rename would give this name a new inode and cut it
 * off from its other names. Owner and group are kept where the process may
 * set them, and setuid/setgid with them.
 */

import { constants, fstatSync, lstatSync, realpathSync, type Stats, statSync } from "node:fs";
import { type FileHandle, mkdir, open, rename, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import type { Budget } from "../limits.ts";
import { CREATE_FLAGS, DIRECTORY, type HeldDirectory, isAt, NOFOLLOW, NONBLOCK, openDirectory, pathOfOpen, READ_FLAGS, removeOpen } from "./fd-place.ts";
import { tempNameFor } from "./debris.ts";
import { giveBack, takeScratch } from "./scratch.ts";
import { withDirectoryLock } from "./write-lock.ts";

export interface AtomicWriteOptions {
  /**
   * Permission bits for the file; `undefined` keeps the default for new
   * files (0o666 minus the umask). setuid and setgid are kept only on a
   * replaced file whose owner (setuid) or group (setgid) the new file keeps.
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
  /**
   * Bounds the wait for another writer's lock (`TIMEOUT` past it).
   * @default undefined (the lock's own limit, 10 s)
   */
  budget?: Budget;
}

/**
 * A file's new bytes in a temporary file beside it, synced, not yet in
 * place: what `stageWrite` makes and `placeStaged` renames over the file.
 */
export interface StagedWrite {
  abs: string;
  rel: string;
  bytes: Uint8Array;
  options: AtomicWriteOptions;
  /** The file's directory, held open. */
  held: HeldDirectory;
  tempName: string;
  handle: FileHandle;
  /** Renamed into place: nothing to remove. */
  placed: boolean;
}

/**
 * Writes `bytes` to a new temporary file beside `abs` in `held` (its
 * directory, held open) and syncs it: the slow part of a write, done before
 * any lock is taken. A failure removes the temporary file.
 */
export async function stageWrite(abs: string, bytes: Uint8Array, options: AtomicWriteOptions, held: HeldDirectory): Promise<StagedWrite> {
  const rel = options.rel ?? abs;
  // Named for this host and process, so the next writer knows it for debris if this one is killed (debris.ts).
  const tempName = tempNameFor(path.basename(abs));
  const handle = await open(held.at(tempName), CREATE_FLAGS, options.mode === undefined ? 0o666 : options.mode & 0o777);
  const staged: StagedWrite = { abs, rel, bytes, options, held, tempName, handle, placed: false };
  try {
    // Without /proc the directory may have been swapped between the check and the open: the
    // temporary file is then elsewhere (removed from there by `unstage`).
    if (!(await isAt(handle, path.join(path.dirname(abs), tempName)))) throw moved(rel, "its temporary file was created elsewhere");
    await writeAll(handle, bytes, 0);
    // fdatasync: the bytes and what reading them back needs (the size), not the timestamps: a new file's
    // contents are as durable, and a response over 200 files wrote 7 % faster (4 alternating pairs of runs).
    await handle.datasync();
    return staged;
  } catch (error) {
    await unstage(staged);
    throw error;
  }
}

/**
 * Puts a staged file in place; the caller holds its directory's lock
 * (write-lock.ts). The directory must still resolve to itself and the file
 * still hold `expected`; a file with several links is written in place (its
 * temporary file is then left for `unstage` to remove).
 */
export async function placeStaged(staged: StagedWrite): Promise<void> {
  const { abs, rel, held, tempName, handle, options } = staged;
  const name = path.basename(abs);
  await checkDirectory(path.dirname(abs), rel);
  const current = await checkExpected(held.at(name), abs, rel, options.expected);
  if (current && current.nlink > 1) {
    await writeInPlace(held.at(name), staged.bytes, current, rel);
    return;
  }
  await setOwnerAndMode(handle, current, options.mode);
  await rename(held.at(tempName), held.at(name));
  staged.placed = true;
  // Without /proc the rename goes through the directory's path once more: where did the file land?
  if (!(await landedAt(handle, abs))) {
    staged.placed = false;
    throw moved(rel, "the written file landed elsewhere; it was removed from there");
  }
}

/** Removes the staged temporary file unless it was placed (from wherever it is), and closes it. */
export async function unstage(staged: StagedWrite): Promise<void> {
  if (!staged.placed) await removeOpen(staged.handle, path.join(path.dirname(staged.abs), staged.tempName), { at: staged.held.at, name: staged.tempName });
  // The close is not waited for: nothing follows from it, and each wait is a round trip through the thread pool.
  void staged.handle.close().catch(() => undefined);
}

/**
 * The directory `dir` held open for writes, its missing directories created
 * first when `make` (returned, deepest first, for a rollback to remove).
 */
export async function prepareDirectory(dir: string, rel: string, make: boolean): Promise<{ held: HeldDirectory; createdDirs: CreatedDir[] }> {
  const createdDirs = make ? await makeParents(dir, rel) : [];
  try {
    return { held: await holdDirectory(dir, rel), createdDirs };
  } catch (error) {
    await removeDirs(createdDirs);
    throw error;
  }
}

/**
 * Writes `bytes` to `abs` (staged, then placed under the directory's lock).
 * Missing parent directories are created; the ones created are returned so
 * a rollback can remove them.
 */
export async function writeFileAtomic(abs: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): Promise<CreatedDir[]> {
  const rel = options.rel ?? abs;
  const dir = path.dirname(abs);
  const { held, createdDirs } = await prepareDirectory(dir, rel, true);
  let staged: StagedWrite | undefined;
  let failed = false;
  try {
    staged = await stageWrite(abs, bytes, options, held);
    const ready = staged;
    await withDirectoryLock(dir, () => placeStaged(ready), { budget: options.budget, at: held.at });
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    if (staged) await unstage(staged);
    await held.close();
    if (failed) await removeDirs(createdDirs);
  }
  return createdDirs;
}

/**
 * Removes `abs` if it still holds `expected` (else `STALE`), under its
 * directory's lock and the same checks.
 */
export async function removeFileChecked(abs: string, expected: Uint8Array | undefined, rel = abs, budget?: Budget): Promise<void> {
  const dir = path.dirname(abs);
  const held = await holdDirectory(dir, rel);
  try {
    await withDirectoryLock(dir, () => removeChecked(abs, expected, rel, held), { budget, at: held.at });
  } finally {
    await held.close();
  }
}

/**
 * Removes `abs` (in `held`, its directory held open) if it still holds
 * `expected`; the caller holds the directory's lock. The file is checked
 * through a descriptor and unlinked through its directory's; without /proc
 * the unlink goes by path, and a file that is not the one checked found
 * unlinked instead is reported.
 */
export async function removeChecked(abs: string, expected: Uint8Array | undefined, rel: string, held: HeldDirectory): Promise<void> {
  const name = path.basename(abs);
  await checkDirectory(path.dirname(abs), rel);
  const handle = await openExisting(held.at(name), rel);
  try {
    if (!handle) {
      if (expected !== undefined) throw stale(rel, "it was deleted");
      return;
    }
    const before = await checkOpened(handle, abs, rel, expected);
    await unlink(held.at(name));
    // If the checked file kept all its links, another file was unlinked.
    if (fstatSync(handle.fd).nlink === before.nlink) throw moved(rel, "another file was found at its path when it was deleted");
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The directory `dir`, held open and checked to be in place (else `UNSAFE_PATH`). */
async function holdDirectory(dir: string, rel: string): Promise<HeldDirectory> {
  const held = await openDirectory(dir);
  if (!held) {
    throw new EditError(
      "UNSAFE_PATH",
      `Refusing to write ${rel}: its directory changed while the edit was being applied (missing or resolving to another place); nothing was written there.`,
      { path: rel },
    );
  }
  return held;
}

function moved(rel: string, what: string): EditError {
  return new EditError(
    "UNSAFE_PATH",
    `Refusing to write ${rel}: a directory of its path changed while the edit was being applied (${what}); nothing was left there.`,
    { path: rel },
  );
}

function stale(rel: string, why: string): EditError {
  return new EditError("STALE", `${rel} changed while the edit was being applied (${why}); nothing was written. Read the file again and send the edit against its current content.`, {
    path: rel,
  });
}

/**
 * The directory was resolved (symlinks included) before; if its real path
 * differs now, a component was swapped, perhaps for a link out of the root.
 */
async function checkDirectory(dir: string, rel: string): Promise<void> {
  let real: string;
  try {
    real = realpathSync.native(dir);
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
  dev: number;
  ino: number;
}

/** Opens the file at `target` to check it, or `undefined` when it does not exist. */
async function openExisting(target: string, rel: string): Promise<FileHandle | undefined> {
  try {
    return await open(target, READ_FLAGS);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new EditError("UNSAFE_PATH", `Refusing to write ${rel}: it became a symbolic link while the edit was being applied.`, { path: rel });
    if (code === "ENXIO") throw new EditError("UNSAFE_PATH", `Refusing to write ${rel}: it is no longer a regular file.`, { path: rel });
    throw error;
  }
}

/** The open file must be a regular file at `abs` holding `expected` (when given). */
async function checkOpened(handle: FileHandle, abs: string, rel: string, expected: Uint8Array | null | undefined): Promise<Current> {
  const stats = fstatSync(handle.fd);
  if (!stats.isFile()) throw new EditError("UNSAFE_PATH", `Refusing to write ${rel}: it is no longer a regular file.`, { path: rel });
  if (!(await isAt(handle, abs))) throw moved(rel, "the file checked was elsewhere");
  if (expected === null) throw stale(rel, "it was created by someone else");
  if (expected !== undefined && !(await holds(handle, stats.size, expected))) throw stale(rel, "its content is not what the edit was computed from");
  return { nlink: stats.nlink, uid: stats.uid, gid: stats.gid, dev: stats.dev, ino: stats.ino };
}

/** Checks the file at `target` (`abs` through the held directory) against `expected` through a descriptor; returns its link count, owner and identity when it exists. */
async function checkExpected(target: string, abs: string, rel: string, expected: Uint8Array | null | undefined): Promise<Current | undefined> {
  const handle = await openExisting(target, rel);
  if (!handle) {
    if (expected !== undefined && expected !== null) throw stale(rel, "it was deleted");
    return undefined;
  }
  try {
    return await checkOpened(handle, abs, rel, expected);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Writes `bytes` at `position` in as few calls as the system takes: `FileHandle.writeFile`
 * writes 512 KiB at a time, a round trip through the thread pool each (18 for a 9 MB file).
 */
async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * Whether the open file of `size` bytes (its fstat) holds exactly `expected`: another size is
 * known without reading; else it is read in one call (`FileHandle.readFile` reads 512 KiB at a
 * time), one byte past `expected` to see it did not grow since.
 */
async function holds(handle: FileHandle, size: number, expected: Uint8Array): Promise<boolean> {
  if (size !== expected.length) return false;
  // Read only to be compared: into the reused buffer (scratch.ts), not 9 MB of new memory per write of typescript.js.
  const now = takeScratch(expected.length + 1);
  try {
    let length = 0;
    for (;;) {
      const asked = now.length - length;
      const { bytesRead } = await handle.read(now, length, asked, length);
      length += bytesRead;
      if (length === now.length) return false;
      // Less than asked: the end of the file (a short read elsewhere only makes the edit STALE).
      if (bytesRead < asked) break;
    }
    return length === expected.length && now.subarray(0, length).equals(expected);
  } finally {
    giveBack(now);
  }
}

/**
 * Gives the new file the old one's owner and group where the process may,
 * then its permission bits. In that order: a chown clears setuid and setgid.
 * Those two bits are kept only when the owner (setuid) or group (setgid) was
 * kept: a setuid file that now belongs to the writing user would run as them.
 * A new file (no `current`) never gets them.
 */
async function setOwnerAndMode(handle: FileHandle, current: Current | undefined, mode: number | undefined): Promise<void> {
  let mine = fstatSync(handle.fd);
  if (current && (mine.uid !== current.uid || mine.gid !== current.gid)) {
    try {
      await handle.chown(current.uid, current.gid);
    } catch {
      // Not allowed (another user's file, not root): try the group alone.
      await handle.chown(mine.uid, current.gid).catch(() => undefined);
    }
    mine = fstatSync(handle.fd);
  }
  if (mode === undefined) return;
  let bits = mode & 0o7777;
  if (!current || mine.uid !== current.uid) bits &= ~0o4000;
  if (!current || mine.gid !== current.gid) bits &= ~0o2000;
  // open() applied the umask; this sets the exact original bits (a chmod is a journaled inode change: skipped when the umask left them so).
  if ((mine.mode & 0o7777) !== bits) await handle.chmod(bits);
}

/** True when the renamed file is at `abs`, or was replaced there by another writer since. */
async function landedAt(handle: FileHandle, abs: string): Promise<boolean> {
  const where = await pathOfOpen(handle);
  if (where === null) return true;
  return isAt(handle, abs);
}

/** Overwrites the file's bytes keeping its inode (and so its other hard links). */
async function writeInPlace(target: string, bytes: Uint8Array, current: Current, rel: string): Promise<void> {
  const handle = await open(target, constants.O_WRONLY | NOFOLLOW | NONBLOCK);
  try {
    const stats = fstatSync(handle.fd);
    if (stats.dev !== current.dev || stats.ino !== current.ino) throw stale(rel, "it was replaced while the edit was being applied");
    await handle.truncate(0);
    await writeAll(handle, bytes, 0);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** A directory made for a new file: where, and which one (a rollback removes only that very directory). */
export interface CreatedDir {
  path: string;
  dev: number;
  ino: number;
}

/**
 * Creates the missing directories of `dir`, returning them deepest first.
 * Each is made inside its parent held open (fd-place.ts): a parent swapped
 * for a symlink out of the root is refused, never created through.
 */
async function makeParents(dir: string, rel: string): Promise<CreatedDir[]> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      statSync(current);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") break;
      missing.push(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  const created: CreatedDir[] = [];
  try {
    for (const target of [...missing].reverse()) {
      const made = await makeDirectory(target, rel);
      if (made) created.unshift(made);
    }
  } catch (error) {
    await removeDirs(created);
    throw error;
  }
  return created;
}

/** Makes one directory whose parent exists; undefined when someone else made it meanwhile. */
async function makeDirectory(target: string, rel: string): Promise<CreatedDir | undefined> {
  const held = await holdDirectory(path.dirname(target), rel);
  const name = path.basename(target);
  try {
    try {
      await mkdir(held.at(name));
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      await checkDirectory(target, rel);
      return undefined;
    }
    // Without /proc the mkdir went by path: a directory made elsewhere is removed from there.
    const handle = await open(held.at(name), constants.O_RDONLY | DIRECTORY | NOFOLLOW).catch(() => undefined);
    if (!handle) throw moved(rel, "a directory it needed was created elsewhere");
    try {
      if (!(await isAt(handle, target))) {
        await removeOpen(handle, target);
        throw moved(rel, "a directory it needed was created elsewhere; it was removed from there");
      }
      const { dev, ino } = fstatSync(handle.fd);
      return { path: target, dev, ino };
    } finally {
      await handle.close().catch(() => undefined);
    }
  } finally {
    await held.close();
  }
}

/**
 * Removes directories this transaction made, deepest first whatever order
 * they come in (two batches may each have made part of one chain), when
 * empty; returns the paths of those left. Each is removed through its parent
 * held open and checked in place (fd-place.ts), and only when the entry
 * there is still the directory made (device and inode): a parent swapped
 * for a symlink since (an agent's shell) leaves the directory where it is,
 * never removing an empty directory of the same name elsewhere.
 */
export async function removeDirs(dirs: readonly CreatedDir[]): Promise<string[]> {
  const depth = (d: CreatedDir) => d.path.split(path.sep).length;
  const left: string[] = [];
  for (const dir of [...dirs].sort((a, b) => depth(b) - depth(a))) {
    if (!(await removeCreated(dir))) left.push(dir.path);
  }
  return left;
}

/** Removes one made directory through its parent held open; false when it stays (moved, replaced, not empty). */
async function removeCreated(dir: CreatedDir): Promise<boolean> {
  const held = await openDirectory(path.dirname(dir.path)).catch(() => undefined);
  if (!held) return false;
  try {
    const at = held.at(path.basename(dir.path));
    let entry: Stats;
    try {
      entry = lstatSync(at);
    } catch (error) {
      return (error as { code?: string }).code === "ENOENT";
    }
    if (!entry.isDirectory() || entry.dev !== dir.dev || entry.ino !== dir.ino) return false;
    await rmdir(at);
    return true;
  } catch {
    return false;
  } finally {
    await held.close();
  }
}
