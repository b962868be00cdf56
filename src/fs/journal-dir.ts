/**
 * Where the undo journal lives, and the checks that keep it the user's own.
 *
 * The journal holds the bytes of every file version fuzzpatch wrote over,
 * so it is as private as the files: it sits in the user's state directory
 * (never in the work tree, where a model's edit or a commit could reach
 * it), made 0700 with files 0600, and is used only when each of its
 * directories is a real directory (not a symbolic link) owned by the user.
 * A directory of ours that others may read is closed (chmod 0700); one that
 * is not ours, or is a symlink, turns the journal off with a warning.
 *
 * Location, first that applies:
 *  1. `FUZZPATCH_JOURNAL_DIR` (the journal directory itself; tests set it);
 *  2. `$XDG_STATE_HOME/fuzzpatch/journal` (an absolute XDG_STATE_HOME only,
 *     as the XDG spec asks);
 *  3. the platform's state directory: `~/Library/Application Support` on
 *     macOS, `%LOCALAPPDATA%` on Windows, `~/.local/state` elsewhere.
 * `FUZZPATCH_JOURNAL=0` (or `false`, `off`) turns it off everywhere.
 */

import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { EditError } from "../errors.ts";

/** The journal's subdirectories: file versions by sha256, one JSON file per write. */
export const BLOBS = "blobs";
export const ENTRIES = "entries";

/** True when the environment turns the journal off. */
export function journalDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.FUZZPATCH_JOURNAL?.trim().toLowerCase();
  return v === "0" || v === "false" || v === "off" || v === "no";
}

/** The journal directory the environment names (not created). */
export function defaultJournalDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const explicit = env.FUZZPATCH_JOURNAL_DIR;
  if (explicit !== undefined && explicit !== "") return path.resolve(explicit);
  return path.join(stateHome(env, platform), "fuzzpatch", "journal");
}

function stateHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return xdg;
  const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
  if (platform === "darwin") return path.join(home, "Library", "Application Support");
  if (platform === "win32") return env.LOCALAPPDATA ?? path.join(home, "AppData", "Local");
  return path.join(home, ".local", "state");
}

/**
 * Creates the journal directory and its subdirectories (0700) as needed and
 * checks each is this user's own real directory; throws `UNSAFE_PATH` when
 * one is a symlink or another user's.
 */
export function preparePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivate(dir);
  for (const sub of [BLOBS, ENTRIES]) {
    const at = path.join(dir, sub);
    try {
      mkdirSync(at, { mode: 0o700 });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    checkPrivate(at);
  }
}

/** `dir` must be a real directory of this user's; group and others lose any access it gave them. */
export function checkPrivate(dir: string): void {
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) throw new EditError("UNSAFE_PATH", `The undo journal directory ${dir} is a symbolic link; the journal never follows one.`, { path: dir });
  if (!st.isDirectory()) throw new EditError("UNSAFE_PATH", `The undo journal directory ${dir} is not a directory.`, { path: dir });
  const uid = process.getuid?.();
  // POSIX only: Windows has no uid, and the local app data directory is the user's own.
  if (uid === undefined) return;
  if (st.uid !== uid) throw new EditError("UNSAFE_PATH", `The undo journal directory ${dir} belongs to another user (uid ${st.uid}).`, { path: dir });
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
