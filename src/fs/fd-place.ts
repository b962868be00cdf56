/**
 * Where an open file really is. Node has no `openat`: every call names a
 * file by a path that a process in the tree may change between two calls
 * (a directory swapped for a symlink out of the root). What can be closed is
 * closed by opening first and asking about the descriptor after: the kernel
 * keeps, for each open descriptor, the path it reached
 * (`/proc/self/fd/N` on Linux), so a file opened, created or renamed through a
 * swapped directory is seen where it landed and can be refused, or removed
 * from there.
 *
 * Better still, on Linux a directory's descriptor stands in for `openat`:
 * `/proc/self/fd/N/name` names `name` inside the very directory open on N,
 * whatever its path has become. The writes create, rename and unlink through
 * it (`openDirectory`), so a directory checked once cannot be swapped under
 * them.
 *
 * Where the system has no `/proc` (macOS), the check falls back to the real
 * path of the expected directory and the identity (device, inode) of the
 * entry at the expected path, and the writes go by path: still after the
 * fact, with a window between two calls (docs/security.md).
 *
 * The file layer asks about names and descriptors synchronously (stat,
 * lstat, fstat, readlink, realpath): each is a few microseconds in the
 * kernel and changes nothing, while its promise form is handed to libuv's
 * thread pool and back, and writing one file takes a few dozen of them (a
 * 500-block response over 200 files cost 5-6x its plain read + write in
 * CPU, most of it in those hand-offs). What changes the file system
 * (create, rename, unlink, chmod: journaled, and a rename over a file frees
 * its blocks) and opens, reads, writes and fsync may wait on the disk, and
 * stay asynchronous: run synchronously, a rename measured ~1 ms of blocked
 * event loop under load.
 */

import { constants, fstatSync, lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { type FileHandle, open, rmdir, unlink } from "node:fs/promises";
import path from "node:path";

/** `O_NOFOLLOW`, `O_NONBLOCK`, `O_DIRECTORY` where the platform has them (not on Windows). */
export const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const NONBLOCK = constants.O_NONBLOCK ?? 0;
export const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Opens a file to read without following a final symlink and without blocking on a FIFO. */
export const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;
/** Creates a file that must not exist yet, never through a final symlink. */
export const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

let procWorks: boolean | undefined;

/**
 * The real path of the file open on `handle`, from `/proc/self/fd`, or
 * `undefined` where the system does not say. A file unlinked since it was
 * opened has no path: `null`.
 */
export async function pathOfOpen(handle: FileHandle): Promise<string | null | undefined> {
  if (procWorks === false) return undefined;
  let link: string;
  try {
    link = readlinkSync(`/proc/self/fd/${handle.fd}`);
    procWorks = true;
  } catch {
    procWorks = false;
    return undefined;
  }
  if (!link.startsWith("/")) return null;
  if (link.endsWith(" (deleted)")) {
    // Linux marks an unlinked file so; a real name ending so still has its inode at that path.
    if (fstatSync(handle.fd).nlink === 0) return null;
  }
  return link;
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function realOrEmpty(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return "";
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * True when the file open on `handle` is the entry at `expected` (an
 * absolute path whose directories were resolved, symlinks included).
 */
export async function isAt(handle: FileHandle, expected: string): Promise<boolean> {
  const where = await pathOfOpen(handle);
  if (where !== undefined) return where === expected;
  // No /proc: the directory must still resolve to itself and hold this very file.
  try {
    const dir = path.dirname(expected);
    if (realpathSync.native(dir) !== dir) return false;
    return sameFile(lstatSync(expected), fstatSync(handle.fd));
  } catch {
    return false;
  }
}

/**
 * Removes the file (or empty directory) open on `handle` from wherever it is
 * now: the path the kernel reports, else `guess`; only if the entry found
 * there is that very file; first through `held`, the directory it was made
 * in held open. A process moving its directory meanwhile makes a by-path
 * unlink miss: the path is asked again, a few times. Without `/proc` the
 * guess names the file only while the tree is as it was when the file was
 * made, so each attempt also looks at the real paths the guess's directory
 * was seen to resolve to (a file made through a symlink stays there once the
 * symlink is gone), and the attempts go on, a few milliseconds apart, for up
 * to 400 ms (a failure path only; under load a swapping process may be off
 * the CPU for tens of milliseconds). Best effort; returns whether it was
 * removed.
 */
export async function removeOpen(handle: FileHandle, guess: string, held?: { at: (name: string) => string; name: string }): Promise<boolean> {
  const deadline = performance.now() + GUESS_WAIT_MS;
  // Without /proc: the real directories the guess's directory was seen to resolve to. A file that
  // landed through a symlink stays at the real path after the symlink is gone.
  const seen = new Set<string>();
  for (let attempt = 0; attempt < 8 || (procWorks === false && performance.now() < deadline); attempt++) {
    if (attempt > 0 && procWorks === false) await pause(Math.min(attempt, 8));
    try {
      const mine = fstatSync(handle.fd);
      const known = await pathOfOpen(handle);
      if (known === null) return true;
      // First where it was made, through the directory held open (whatever that directory's path is now).
      const where = attempt === 0 && held ? held.at(held.name) : (known ?? guess);
      if (known === undefined) {
        const real = realOrEmpty(path.dirname(guess));
        if (real !== "") seen.add(path.join(real, path.basename(guess)));
      }
      for (const place of known === undefined ? [where, ...seen] : [where]) {
        const entry = lstatOrUndefined(place);
        if (entry === undefined) continue;
        // The kernel said where it is and another file is there: leave it. A guess may name it later.
        if (!sameFile(entry, mine)) {
          if (known !== undefined) return false;
          continue;
        }
        await (mine.isDirectory() ? rmdir(place) : unlink(place));
        return true;
      }
    } catch {
      // Moved between the two calls: ask where it is again.
    }
  }
  return false;
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** How long a by-path guess is tried again without `/proc`. */
const GUESS_WAIT_MS = 400;

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A directory held open: names inside it that cannot be redirected (on Linux). */
export interface HeldDirectory {
  /** The path of `name` inside the held directory: through its descriptor where the system allows. */
  at(name: string): string;
  close(): Promise<void>;
}

/**
 * Opens the directory `dir` (a real path) and checks through its descriptor
 * that it is there; `undefined` when it moved (a component swapped since it
 * was checked, or the directory itself replaced by a symlink). Other
 * failures (not a directory, missing) throw. Without `/proc`, names go by path.
 */
export async function openDirectory(dir: string): Promise<HeldDirectory | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (error) {
    // A symlink now (ELOOP, or ENOTDIR with O_DIRECTORY): swapped since it was checked.
    if (isSymlink(dir)) return undefined;
    throw error;
  }
  const where = await pathOfOpen(handle);
  if (where === undefined) {
    await handle.close();
    return realOrEmpty(dir) === dir ? { at: (name) => path.join(dir, name), close: async () => undefined } : undefined;
  }
  if (where !== dir) {
    await handle.close();
    return undefined;
  }
  const base = `/proc/self/fd/${handle.fd}`;
  return { at: (name) => `${base}/${name}`, close: () => handle.close().catch(() => undefined) };
}
