/** `fuzzpatch diff OLD NEW [--fuzzy]`: prints a unified diff between two files. */

import { readFile } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { createPatch } from "../formats/create-patch.ts";
import { decodeText } from "../fs/read-file.ts";
import { colorDiff, colorsFor, type Streams, writeError } from "./output.ts";

export interface DiffCommandOptions {
  fuzzy: boolean;
}

/** Exit code 0 whether or not the files differ; 2 when one cannot be read. */
export async function runDiff(oldFile: string, newFile: string, options: DiffCommandOptions, streams: Streams): Promise<number> {
  let oldText: string;
  let newText: string;
  try {
    oldText = await readText(oldFile);
    newText = await readText(newFile);
  } catch (error) {
    writeError(streams, error as EditError);
    return 2;
  }
  if (oldText === newText) return 0;
  const patch = createPatch(oldText, newText, { fuzzy: options.fuzzy, oldPath: oldFile, newPath: newFile });
  streams.out.write(colorDiff(patch, colorsFor(streams.out, streams.env)));
  return 0;
}

async function readText(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new EditError("IO", `Cannot read ${file}: ${(error as Error).message}`, { path: file });
  }
  return decodeText(bytes, file, false).text;
}
