/**
 * The command line's V8 code cache: the compiled code of the CLI bundle,
 * kept between runs so a start does not parse and compile it again (an
 * agent that shells out pays the start-up on every edit; with the cache
 * `fuzzpatch apply` of a small edit costs a fifth less CPU, 136 -> 107 ms
 * against 78 ms for bare node, `npm run bench:startup`). Node 22
 * has `module.enableCompileCache()`; Node 20 has none, so the launcher
 * compiles the bundle as a `vm.Script` with V8's `cachedData` itself.
 *
 * Where: `<tmpdir>/fuzzpatch-compile-cache-<uid>/`, one file per command
 * (each holds the functions its command compiled), named by the bundle's
 * content hash and Node's version, so a rebuilt or upgraded install never
 * reads another's. V8 checks only the source's length and its own
 * version and flags, not the source itself: the content hash in the name
 * is what keeps a cache to its bundle.
 *
 * Compiled code is code: a cache another user could write would run as
 * this user. The directory is used only when it is this user's own, not a
 * symbolic link, and writable by no one else; files are written to a temp
 * name and renamed, so a reader never sees half of one. Every failure
 * (read-only tmpdir, a foreign directory, a full disk) means no cache,
 * never a failed command. `FUZZPATCH_COMPILE_CACHE=0` (or Node's own
 * `NODE_DISABLE_COMPILE_CACHE=1`) turns it off; `FUZZPATCH_COMPILE_CACHE=<dir>`
 * puts it elsewhere, with the same checks.
 */

import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CacheKey {
  /** The command the cache is for (`apply`, `diff`, …). */
  command: string;
  /** The bundle's content hash, written into the launcher by the build. */
  build: string;
}

/** The directory to use, or undefined when the cache is off or the directory is not safely this user's. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const setting = env.FUZZPATCH_COMPILE_CACHE;
  if (setting === "0" || setting === "false" || env.NODE_DISABLE_COMPILE_CACHE === "1") return undefined;
  const uid = process.getuid?.();
  const dir = setting !== undefined && setting !== "" && setting !== "1" ? setting : join(tmpdir(), `fuzzpatch-compile-cache-${uid ?? "user"}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return undefined;
    // POSIX only: Windows has no uid, and its temp directory is the user's own.
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** The file of one command's cache: the command sanitised, since it comes from argv. */
export function cacheFile(dir: string, key: CacheKey): string {
  const command = /^[a-z][a-z-]{0,15}$/.test(key.command) ? key.command : "other";
  return join(dir, `${prefix(key)}${command}.bin`);
}

function prefix(key: CacheKey): string {
  return `${key.build.slice(0, 16)}-${process.version}-${process.arch}-`;
}

/** Removes the caches of other builds and Node versions (an upgrade leaves its old ones behind); run when a cache is written. */
export function pruneCache(dir: string, key: CacheKey): void {
  try {
    for (const name of readdirSync(dir)) if (name.endsWith(".bin") && !name.startsWith(prefix(key))) unlinkSync(join(dir, name));
  } catch {
    // Another run pruned it first, or the directory went away: nothing to keep tidy.
  }
}

export function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes `data` to `file` through a fresh temp name, so a concurrent reader sees the old file or the new one. */
export function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data, { flag: "wx", mode: 0o600 });
    renameSync(temp, file);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Nothing was written, or it is gone already.
    }
  }
}
