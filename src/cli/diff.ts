/** `fuzzpatch diff OLD NEW [--fuzzy]`: prints a unified diff between two files. */

import { readFile } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { createPatch } from "../formats/create-patch.ts";
import { decodeText } from "../fs/read-file.ts";
import { colorDiff, colorsFor, type Streams, writeError } from "./output.ts";

export interface DiffCommandOptions {
  fuzzy: boolean;
}

/** Exit codes as diff(1): 0 the files are equal, 1 they differ, 2 one cannot be read. */
export async function runDiff(oldFile: string, newFile: string, options: DiffCommandOptions, streams: Streams): Promise<number> {
  let old: { text: string; bytes: Buffer };
  let now: { text: string; bytes: Buffer };
  try {
    old = await readText(oldFile);
    now = await readText(newFile);
  } catch (error) {
    writeError(streams, error as EditError);
    return 2;
  }
  if (old.bytes.equals(now.bytes)) return 0;
  const oldText = old.text;
  const newText = now.text;
  if (oldText === newText) {
    // The text is compared with line endings and BOM set aside; say why the bytes differ.
    streams.out.write(`Files ${oldFile} and ${newFile} differ only in line endings or byte order mark\n`);
    return 1;
  }
  const patch = createPatch(oldText, newText, { fuzzy: options.fuzzy, oldPath: oldFile, newPath: newFile });
  streams.out.write(colorDiff(patch, colorsFor(streams, "out")));
  return 1;
}

async function readText(file: string): Promise<{ text: string; bytes: Buffer }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new EditError("IO", `Cannot read ${file}: ${(error as Error).message}`, { path: file });
  }
  return { text: decodeText(bytes, file, false).text, bytes };
}
