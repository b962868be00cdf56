/**
 * Resolves a path written by a model to a file under `root`, or refuses.
 *
 * A model's path is untrusted input: it may be absolute, climb out with
 * `..`, point into `.git/` (hooks there run code), or name a file through a
 * symlink that leads elsewhere. Every refusal is an `UNSAFE_PATH` error
 * naming the path, and nothing outside `root` is touched to decide it: only
 * `lstat`/`realpath` of components inside `root` are consulted.
 */

import { lstatSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { EditError } from "../errors.ts";
import { touchesDotGit } from "./dot-git.ts";

/** Most components a model's path may have (deep trees rarely pass 20). */
export const MAX_DEPTH = 64;
/** Longest component, in bytes, most file systems accept. */
const NAME_MAX = 255;
/** Longest path, in bytes, relative to the root. */
const MAX_PATH_BYTES = 4096;

export interface SafePath {
  /** The path relative to root, `/`-separated, as shown in reports. */
  rel: string;
  /** The absolute path (under the real root) to read and write. */
  abs: string;
}

/** Returns the real path of `root`; refuses a root that is not a directory. */
export async function resolveRoot(root: string): Promise<string> {
  let real: string;
  try {
    real = realpathSync.native(path.resolve(root));
  } catch (error) {
    throw new EditError("IO", `The root directory ${root} cannot be opened: ${describeIoError(error)}.`, { path: root });
  }
  const stats = lstatSync(real);
  if (!stats.isDirectory()) {
    throw new EditError("INVALID_INPUT", `The root ${root} is not a directory.`, { path: root });
  }
  return real;
}

/** Normalises the spelling of a model's path without resolving it. */
export function normalizeEditPath(raw: string): string {
  return raw.trim().replace(/\\/g, "/");
}

function refuse(raw: string, why: string): EditError {
  return new EditError(
    "UNSAFE_PATH",
    `Refusing path ${JSON.stringify(raw)}: ${why}. Use a path relative to the project root, without "..", outside .git/.`,
    { path: raw },
  );
}

/**
 * Checks `raw` lexically and against the file system under `realRoot`
 * (which must come from `resolveRoot`).
 */
export async function resolveSafePath(realRoot: string, raw: string): Promise<SafePath> {
  const spelled = normalizeEditPath(raw);
  if (spelled === "") throw refuse(raw, "the path is empty");
  if (spelled.includes("\0")) throw refuse(raw, "the path contains a NUL byte");
  // Both POSIX absolute paths and Windows drive or UNC paths are refused,
  // whatever the platform: a model's path is always meant relative.
  if (spelled.startsWith("/") || /^[A-Za-z]:/.test(spelled) || path.isAbsolute(raw)) {
    throw refuse(raw, "the path is absolute");
  }
  if (spelled.startsWith("~")) throw refuse(raw, "the path starts with ~ (a home directory)");

  const parts: string[] = [];
  for (const part of spelled.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) throw refuse(raw, "the path climbs out of the root with \"..\"");
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  if (parts.length === 0) throw refuse(raw, "the path names the root directory itself");
  // Limits: a path of thousands of components would create as many
  // directories; a component over NAME_MAX bytes cannot be created at all.
  if (parts.length > MAX_DEPTH) throw refuse(raw, `the path has ${parts.length} components, more than ${MAX_DEPTH}`);
  if (parts.some((p) => Buffer.byteLength(p) > NAME_MAX)) throw refuse(raw, `a component of the path is longer than ${NAME_MAX} bytes`);
  if (Buffer.byteLength(parts.join("/")) > MAX_PATH_BYTES) throw refuse(raw, `the path is longer than ${MAX_PATH_BYTES} bytes`);
  // Case-insensitive, NTFS and HFS+ file systems would let ".GIT", ".git." or "GIT~1" reach .git (dot-git.ts).
  if (touchesDotGit(parts)) throw refuse(raw, "the path points into .git/");
  // A root inside .git (a client's MCP root, a --root given so) would put every path there.
  if (touchesDotGit(realRoot.split(path.sep))) throw refuse(raw, "the root directory is inside .git/");

  // Walk the components: any symlink must resolve inside the root, and the
  // target itself must not be a directory.
  let current = realRoot;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(current, parts[i] as string);
    let stats: Stats;
    try {
      stats = lstatSync(next);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // The rest of the path does not exist yet: a file to create.
      if (code === "ENOENT" || code === "ENOTDIR") {
        current = path.join(next, ...parts.slice(i + 1));
        break;
      }
      throw new EditError("IO", `Cannot inspect ${raw}: ${describeIoError(error)}.`, { path: raw });
    }
    if (stats.isSymbolicLink()) {
      let target: string;
      try {
        target = realpathSync.native(next);
      } catch {
        throw refuse(raw, "the path passes through a dangling symlink");
      }
      if (!isInside(realRoot, target)) throw refuse(raw, "the path passes through a symlink that leads outside the root");
      const targetRel = path.relative(realRoot, target).split(path.sep);
      if (touchesDotGit(targetRel)) throw refuse(raw, "the path passes through a symlink into .git/");
      current = target;
    } else {
      current = next;
    }
  }
  if (!isInside(realRoot, current)) throw refuse(raw, "the path resolves outside the root");
  return { rel: parts.join("/"), abs: current };
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

export function describeIoError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code ? `${e.code} (${e.message ?? ""})` : String(e.message ?? error);
}
