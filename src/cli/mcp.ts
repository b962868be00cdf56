/** `fuzzpatch mcp [--root DIR ...] [--read-only] [--anchors]`: the edit tools as a stdio MCP server. */

import path from "node:path";
import type { EditError } from "../errors.ts";
import { resolveRoot } from "../fs/safe-path.ts";
import type { VerifyMode } from "../fs/syntax-check.ts";
import { serveMcp } from "../mcp/server.ts";
import { type Streams, writeError } from "./output.ts";
import { slowerTierUp } from "./tier-up.ts";

export interface McpCommandOptions {
  root: string[];
  readOnly: boolean;
  anchors?: boolean;
  allowClientRoots?: boolean;
  /** `--no-journal` makes it false: writes are not recorded, and undo_edit is not offered. */
  journal?: boolean;
  verify?: VerifyMode;
  /** `--timeout MS`: each tool call's time budget. */
  timeout?: number;
}

/**
 * Checks the roots, then serves until the client closes stdin (the process
 * stays alive on the open stdin after this returns). Exit code 2 when a
 * root is not a usable directory: better at startup than on every call.
 */
export async function runMcp(options: McpCommandOptions, streams: Streams): Promise<number> {
  const roots: string[] = [];
  for (const root of options.root) {
    try {
      await resolveRoot(root);
    } catch (error) {
      writeError(streams, error as EditError);
      return 2;
    }
    roots.push(path.resolve(root));
  }
  // A long call pays V8's compiling in the server as in a one-shot command: both tier up slowly (tier-up.ts).
  await slowerTierUp();
  serveMcp({ roots, readOnly: options.readOnly, anchors: options.anchors ?? false, allowClientRoots: options.allowClientRoots ?? false, journal: options.journal ?? true, ...(options.verify !== undefined && { verify: options.verify }), ...(options.timeout !== undefined && { timeoutMs: options.timeout }), log: (line) => streams.err.write(`${line}\n`) });
  return 0;
}
