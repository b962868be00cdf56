/**
 * A `{ path: content }` target as a private directory: the texts are
 * written under a fresh temporary directory, the response is applied there
 * by the file layer itself (so a stream over texts follows every rule of
 * `applyEdits`: paths, moves, deletions, all or nothing), and the texts are
 * read back. Costs one write of each text and, at the end, one atomic write
 * of each changed file; the directory is removed afterwards.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describeValue, EditError } from "../errors.ts";
import type { ApplyEditsResult } from "../fs/apply-edits.ts";
import { normalizeEditPath } from "../fs/safe-path.ts";

export type Texts = Record<string, string>;

/** A path of the texts: relative, without `..`, `.` or empty components (it names a file under the private root). */
function checkTextPath(path: string): string {
  const spelled = normalizeEditPath(path);
  const parts = spelled.split("/");
  if (spelled === "" || spelled.startsWith("/") || /^[A-Za-z]:/.test(spelled) || spelled.includes("\0") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new EditError("INVALID_INPUT", `The texts' paths must be relative file paths without "..", got ${JSON.stringify(path)}.`, { path });
  }
  return spelled;
}

export function checkTexts(value: unknown): Texts {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new EditError("INVALID_INPUT", `The target must be a root directory (a string) or an object mapping paths to texts, got ${describeValue(value)}.`);
  }
  const out: Texts = Object.create(null);
  for (const [path, text] of Object.entries(value)) {
    if (typeof text !== "string") throw new EditError("INVALID_INPUT", `The text of ${JSON.stringify(path)} must be a string, got ${describeValue(text)}.`, { path });
    out[checkTextPath(path)] = text;
  }
  return out;
}

export interface TextRoot {
  root: string;
  /** The texts after the result: changed, created and moved files read back, deleted ones gone. */
  collect(result: ApplyEditsResult): Promise<Texts>;
  remove(): Promise<void>;
}

export async function createTextRoot(texts: Texts): Promise<TextRoot> {
  const root = await mkdtemp(join(tmpdir(), "fuzzpatch-texts-"));
  try {
    for (const [path, text] of Object.entries(texts)) {
      const abs = join(root, path);
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, text, "utf8");
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw new EditError("IO", `Cannot hold the texts in a temporary directory: ${(error as Error).message}`);
  }
  return {
    root,
    async collect(result) {
      const out: Texts = Object.assign(Object.create(null), texts);
      if (!result.written) return out;
      for (const file of result.files) {
        if (file.reject?.written) out[file.reject.path] = await readFile(join(root, file.reject.path), "utf8");
        if (!file.written) continue;
        if (file.status === "deleted" || file.movedTo !== undefined) delete out[file.path];
        if (file.status === "deleted") continue;
        const path = file.movedTo ?? file.path;
        out[path] = await readFile(join(root, path), "utf8");
      }
      return out;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
