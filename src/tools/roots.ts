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
import { touchesDotGit } from "../fs/dot-git.ts";
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


/**
 * What a client's MCP roots leave of the configured roots (`--root`): a
 * client may narrow the scope, never widen it. A client root inside a
 * configured root (or equal to it) is kept; a configured root inside a
 * client root (a client offering `file:///`) is kept instead; client roots
 * elsewhere are dropped. Real paths are compared and returned, so a client
 * root reached through a symlink out of a configured root is dropped. With
 * nothing left, the configured roots stand. A client root inside `.git`
 * is dropped (a narrowing there would put every path into .git/).
 */
export async function narrowRoots(configured: readonly string[], offered: readonly string[]): Promise<{ roots: string[]; dropped: string[] }> {
  const real = (p: string) => resolveRoot(p).catch(() => path.resolve(p));
  const bases = await Promise.all(configured.map(real));
  const roots: string[] = [];
  const dropped: string[] = [];
  const add = (r: string) => {
    if (!roots.includes(r)) roots.push(r);
  };
  for (const root of offered) {
    const mine = await real(root);
    if (touchesDotGit(mine.split(path.sep))) dropped.push(root);
    else if (bases.some((base) => isWithin(base, mine))) add(mine);
    else if (bases.some((base) => isWithin(mine, base))) {
      for (const base of bases) if (isWithin(mine, base)) add(base);
    } else dropped.push(root);
  }
  return { roots: roots.length > 0 ? roots : bases, dropped };
}

function isWithin(base: string, candidate: string): boolean {
  const rel = path.relative(base, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
