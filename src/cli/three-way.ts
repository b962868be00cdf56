/**
 * `apply --3way`: for a git diff, the file each section was made from is the
 * blob its `index <from>..<to>` line names; read from the repository at the
 * root (`git cat-file`), as `git apply --3way` does, it is the edit's
 * history, so a diff whose context changed since is merged instead of
 * refused. `apply --history FILE...`: earlier versions of the --target file,
 * oldest first, for scripts and tests.
 */
import { readFile } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { decodeText } from "../fs/read-file.ts";

/** Per path the diff names (its b/ side, else a/, git's prefixes dropped), the abbreviated blob id it was made from. */
export function indexBlobs(patch: string): Map<string, string> {
  const out = new Map<string, string>();
  let path: string | undefined;
  for (const line of patch.split(/\r?\n/)) {
    const head = /^diff --git (?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/.exec(line);
    if (head) {
      path = head[2] ?? head[1];
      continue;
    }
    const index = /^index ([0-9a-f]{4,64})\.\.[0-9a-f]{4,64}(?: \d+)?$/.exec(line);
    if (index && path !== undefined && !/^0+$/.test(index[1] as string)) {
      out.set(path, index[1] as string);
      path = undefined;
    }
  }
  return out;
}

/**
 * The blob's text as the file layer reads a file (its BOM and a uniform CRLF
 * are the file's layout, not text): read raw, a BOM file's blob differed from
 * the file's text in its first line and every clean apply was a false CONFLICT.
 */
async function catFile(root: string, blob: string): Promise<string | undefined> {
  // Loaded here, not at the top: child_process costs every start ~5 ms, and few applies run git.
  const { execFile } = await import("node:child_process");
  const bytes = await new Promise<Buffer | undefined>((resolve) => {
    execFile("git", ["cat-file", "blob", blob], { cwd: root, maxBuffer: 64 * 1024 * 1024, encoding: "buffer" }, (error, stdout) => resolve(error ? undefined : stdout));
  });
  if (bytes === undefined) return undefined;
  try {
    return decodeText(bytes, blob, false).text;
  } catch {
    return undefined;
  }
}

/** History from the repository at `root` for the diff's sections; `missing` names the blobs git could not give. */
export async function threeWayHistory(root: string, patch: string): Promise<{ history: Record<string, string[]>; missing: string[] }> {
  const history: Record<string, string[]> = {};
  const missing: string[] = [];
  for (const [path, blob] of indexBlobs(patch)) {
    const text = await catFile(root, blob);
    if (text === undefined) missing.push(`${path} (${blob})`);
    else history[path] = [text];
  }
  return { history, missing };
}

/** `--history FILE...` for the one `--target` file. */
export async function historyFiles(target: string | undefined, files: readonly string[]): Promise<Record<string, string[]>> {
  if (target === undefined) throw new EditError("INVALID_INPUT", "--history gives earlier versions of one file: name it with --target.");
  const versions: string[] = [];
  for (const f of files) {
    try {
      versions.push(await readFile(f, "utf8"));
    } catch (error) {
      throw new EditError("IO", `--history: cannot read ${f}: ${(error as Error).message}`);
    }
  }
  return { [target]: versions };
}
