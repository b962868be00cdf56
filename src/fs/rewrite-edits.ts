/**
 * What `patch` and `git apply` users expect of paths and sides, applied to
 * a response's detected edits before they are planned: `-p N` strips leading
 * path components, `--target FILE` names the one file the input edits, `-R`
 * reverses diffs. Each edit keeps its index, so reports count as before.
 */

import { access } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { formatByName } from "../formats/index.ts";
import type { FileEdit } from "../formats/types.ts";
import { resolveSafePath } from "./safe-path.ts";
import { count } from "../text/plural.ts";

export interface EditRewrites {
  /** Leading path components to remove (`-p N`); undefined: git's a/ b/ are dropped when both headers carry them. */
  strip?: number | undefined;
  /** The file every edit goes to (`--target`). */
  target?: string | undefined;
  /** Undo diffs instead of applying them (`-R`). */
  reverse?: boolean | undefined;
}

/** The path an edit names as written: a diff's header before a/ b/ are dropped, else its path. */
function writtenPath(edit: FileEdit): string {
  return edit.writtenPath ?? edit.path;
}

/**
 * `path` without its first `n` components, as `patch -p` counts them: a run
 * of slashes is one separator, and a leading `/` ends an empty component.
 * Undefined when the path has no more than `n` components.
 */
export function stripComponents(path: string, n: number): string | undefined {
  let rest = path;
  for (let k = 0; k < n; k++) {
    const slash = rest.indexOf("/");
    if (slash === -1) return undefined;
    let next = slash;
    while (rest[next] === "/") next++;
    rest = rest.slice(next);
  }
  return rest === "" ? undefined : rest;
}

/**
 * Returns the edits with the rewrites applied; an edit that cannot take
 * them (a path too short for `-p`, a non-diff under `-R`) becomes an error
 * and is dropped, so that nothing is applied half-rewritten.
 */
export function rewriteEdits(edits: readonly FileEdit[], rewrites: EditRewrites): { edits: FileEdit[]; errors: EditError[] } {
  const errors: EditError[] = [];
  let out: FileEdit[] = [...edits];
  const { target, strip, reverse } = rewrites;
  if (target !== undefined) {
    // patch(1) with a file argument: the input is for one file, whatever it calls it.
    const distinct = new Set(out.map((e) => e.path));
    if (distinct.size > 1) {
      errors.push(
        new EditError(
          "INVALID_INPUT",
          `--target ${target} names one file, but the input edits ${distinct.size} files (${[...distinct].join(", ")}). Drop --target to edit each file the input names.`,
          { path: target },
        ),
      );
      return { edits: [], errors };
    }
    out = out.map((e) => ({ ...e, path: target }));
  } else if (strip !== undefined) {
    const kept: FileEdit[] = [];
    for (const e of out) {
      const written = writtenPath(e);
      const path = stripComponents(written, strip);
      if (path === undefined) {
        errors.push(
          new EditError("INVALID_INPUT", `-p${strip} strips ${count(strip, "leading component")}, but ${written} has no more than that. Use a smaller -p.`, {
            path: written,
            ...(e.line !== undefined && { line: e.line }),
          }),
        );
      } else {
        kept.push({ ...e, path });
      }
    }
    out = kept;
  }
  if (reverse) {
    const kept: FileEdit[] = [];
    for (const e of out) {
      const entry = formatByName(e.format);
      if (!entry?.reverse) {
        errors.push(
          new EditError(
            "INVALID_INPUT",
            `--reverse undoes diffs only, and the edit of ${e.path}${e.line !== undefined ? ` at line ${e.line}` : ""} is ${e.format === "str-replace" ? "a str_replace edit" : e.format === "search-replace" ? "a SEARCH/REPLACE block" : `a ${e.format} edit`}.`,
            { path: e.path, ...(e.line !== undefined && { line: e.line }) },
          ),
        );
        continue;
      }
      kept.push(entry.reverse(e as FileEdit<never>));
    }
    out = kept;
  }
  return { edits: out, errors };
}

/**
 * For an edit whose file does not exist: a shorter form of the path it
 * names that does exist under the root, as "did you mean …? use -pN" (N
 * counted on the path as written, as `-p` counts it). Undefined when none
 * does, or when the path came from `--target`.
 */
export async function suggestStrip(realRoot: string, edit: FileEdit, rewrites: EditRewrites): Promise<string | undefined> {
  if (rewrites.target !== undefined) return undefined;
  const written = writtenPath(edit);
  for (let n = (rewrites.strip ?? 0) + 1; ; n++) {
    const shorter = stripComponents(written, n);
    if (shorter === undefined) return undefined;
    if (shorter === edit.path) continue;
    try {
      await access((await resolveSafePath(realRoot, shorter)).abs);
      return `did you mean ${shorter}? use -p${n}`;
    } catch {
      // not there (or not a safe path): try a shorter one
    }
  }
}
