/**
 * Terminal output: colour decisions, diff colouring, error lines. Colours are
 * on only for a terminal, and never when NO_COLOR is set (no-color.org) or
 * TERM is "dumb".
 */

import picocolors from "picocolors";
import type { EditError } from "../errors.ts";

export type Colors = ReturnType<typeof picocolors.createColors>;

export interface Streams {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Colors {
  const enabled = stream.isTTY === true && !env.NO_COLOR && env.TERM !== "dumb";
  return picocolors.createColors(enabled);
}

export function colorDiff(diff: string, c: Colors): string {
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return c.bold(line);
      if (line.startsWith("+")) return c.green(line);
      if (line.startsWith("-")) return c.red(line);
      if (line.startsWith("@@")) return c.cyan(line);
      return line;
    })
    .join("\n");
}

/** `CODE: message` on stderr, the format every error of the CLI uses. */
export function writeError(streams: Streams, error: Pick<EditError, "code" | "message">, prefix = ""): void {
  const c = colorsFor(streams.err, streams.env);
  streams.err.write(`${c.red(`${error.code}:`)} ${prefix}${error.message}\n`);
}

/** An EditError as plain JSON (Error fields are not enumerable). */
export function errorToJson(error: EditError): { code: string; message: string; detail: unknown } {
  return { code: error.code, message: error.message, detail: error.detail };
}
