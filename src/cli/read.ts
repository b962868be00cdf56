/** `fuzzpatch read FILE [--anchors]`: the file as read_file shows it, for scripts and for models driven from a shell. */

import path from "node:path";
import { EditError } from "../errors.ts";
import { renderNumberedView } from "../tools/numbered-view.ts";
import { type Streams, writeError } from "./output.ts";

export interface ReadCommandOptions {
  anchors: boolean;
  offset?: number;
  limit?: number;
}

export async function runRead(file: string, options: ReadCommandOptions, streams: Streams): Promise<number> {
  // The user names the file, so its directory is the root (as `replace` does): path checks guard against models.
  const abs = path.resolve(file);
  try {
    const view = await renderNumberedView(path.dirname(abs), path.basename(abs), {
      anchors: options.anchors,
      display: () => file,
      // A shell user reads on with this command, not with a tool call.
      readOn: (offset) => `run fuzzpatch read ${file}${options.anchors ? " --anchors" : ""} --offset ${offset}${options.limit !== undefined ? ` --limit ${options.limit}` : ""}`,
      ...(options.offset !== undefined && { offset: options.offset }),
      ...(options.limit !== undefined && { limit: options.limit }),
    });
    streams.out.write(view);
    return 0;
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String((error as Error)?.message ?? error)));
    return 1;
  }
}
