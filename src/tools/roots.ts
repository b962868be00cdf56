/**
 * Which root a model's path belongs to. A server may be given several roots
 * (`--root A --root B`, plus the client's MCP roots); the file layer checks a
 * path against one root, so this picks it: a relative path belongs to the
 * first root, an absolute path to the root that contains it. Agents trained
 * on tools that take absolute paths send them, and refusing every absolute
 * path would cost a retry on each call. Everything else (symlinks, `..`,
 * `.git/`) is still decided by `resolveSafePath` inside the chosen root.
 */

import path from "node:path";
import { EditError } from "../errors.ts";
import { resolveRoot } from "../fs/safe-path.ts";

export interface RootedPath {
  /** The root directory as given. */
  root: string;
  /** The path relative to that root, as the file layer expects it. */
  rel: string;
  /**
   * How results name the file: relative for the first root, absolute for
   * the others, so the model's next call does not land in the first root.
   */
  display: (rel: string) => string;
}

const asGiven = (rel: string) => rel;

/** Splits `raw` into the root it belongs to and a path relative to it. */
export async function locateInRoots(roots: readonly string[], raw: string): Promise<RootedPath> {
  const first = roots[0];
  if (first === undefined) {
    throw new EditError("INVALID_INPUT", "No root directory is configured; the server must be started with --root DIR.");
  }
  const spelled = raw.trim();
  // A Windows drive path on POSIX is not absolute here: resolveSafePath refuses it.
  if (!path.isAbsolute(spelled)) return { root: first, rel: raw, display: asGiven };
  const target = path.resolve(spelled);
  for (const [i, root] of roots.entries()) {
    // Compare with the root both as given and as its real path: a model
    // copies whichever spelling it was shown (macOS /tmp vs /private/tmp).
    const spellings = [path.resolve(root)];
    try {
      spellings.push(await resolveRoot(root));
    } catch {
      // An unusable root is reported when a tool uses it, not here.
    }
    for (const base of spellings) {
      const rel = path.relative(base, target);
      if (rel !== "" && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel)) {
        const display = i === 0 ? asGiven : (r: string) => path.join(path.resolve(root), r);
        return { root, rel: rel.split(path.sep).join("/"), display };
      }
    }
  }
  throw new EditError(
    "UNSAFE_PATH",
    `Refusing path ${JSON.stringify(raw)}: it is outside the project root${roots.length > 1 ? "s" : ""} (${roots.join(", ")}). Use a path relative to ${first}, or an absolute path inside a root.`,
    { path: raw, roots: [...roots] },
  );
}

