/**
 * `fuzzpatch apply --stream`: reads the response as it arrives (stdin, a
 * file or a FIFO) and prints the streaming apply's events as NDJSON, one
 * line each as it happens (`edit-started`, `located`, `edit-complete`), then
 * a `done` line whose `result` is exactly the object `apply --json` prints.
 * `--json` alone keeps printing that one object at the end: a script that
 * parses the whole of stdout as one JSON value keeps working.
 */
import { createReadStream } from "node:fs";
import { EditError } from "../errors.ts";
import type { ApplyEditsOptions, EditReport } from "../fs/apply-edits.ts";
import type { StreamEvent } from "../stream/events.ts";
import { createStreamingApply } from "../stream/streaming-apply.ts";
import { type ApplyCommandOptions, isInlineInput, libraryOptions, toJson } from "./apply.ts";
import { historyFiles } from "./three-way.ts";
import { errorToJson, type Streams, writeError } from "./output.ts";

function reportToJson(e: EditReport): unknown {
  return { ...e, ...(e.error && { error: errorToJson(e.error) }), ...(e.note && { note: errorToJson(e.note) }) };
}

/** One event as its NDJSON line. */
export function eventLine(event: StreamEvent): string {
  if (event.type === "edit-complete") return `${JSON.stringify({ ...event, edits: event.edits.map(reportToJson) })}\n`;
  if (event.type === "done") return `${JSON.stringify({ type: "done", result: toJson(event.result) })}\n`;
  return `${JSON.stringify(event)}\n`;
}

/** The response's chunks as they arrive: stdin, a file (or FIFO), or the text itself. */
async function* chunksOf(file: string | undefined, stdin: () => NodeJS.ReadStream): AsyncGenerator<string> {
  if (isInlineInput(file)) {
    yield file;
    return;
  }
  const source = file === undefined || file === "-" ? stdin() : createReadStream(file);
  source.setEncoding("utf8");
  for await (const chunk of source) yield chunk as string;
}

/** Exit codes as `apply`: 0 all applied, 1 some edit failed, 2 bad usage or unparseable input. */
export async function runApplyStream(file: string | undefined, command: ApplyCommandOptions, streams: Streams, stdin: () => NodeJS.ReadStream): Promise<number> {
  if (file === undefined && stdin().isTTY) {
    writeError(streams, new EditError("INVALID_INPUT", "No input: pipe the response on stdin (or give - or a FILE)."));
    return 2;
  }
  // What needs the whole response before anything is applied cannot stream.
  const whole = (["interactive", "3way", "stat", "numstat", "summary"] as const).filter((k) => command[k]);
  if (whole.length > 0) {
    writeError(streams, new EditError("INVALID_INPUT", `--stream cannot be combined with ${whole.map((k) => `--${k}`).join(", ")}.`));
    return 2;
  }
  try {
    const options: ApplyEditsOptions = libraryOptions(command);
    if (command.history !== undefined) options.history = await historyFiles(command.target, command.history);
    const s = createStreamingApply(command.root, { ...options, onEvent: (event) => streams.out.write(eventLine(event)) });
    try {
      for await (const chunk of chunksOf(file, stdin)) s.push(chunk);
    } catch (error) {
      // The response could not be read whole: nothing is applied.
      s.end().catch(() => undefined);
      throw error instanceof EditError ? error : new EditError("IO", `Cannot read ${file ?? "stdin"}: ${(error as Error).message}`);
    }
    const result = await s.end();
    if (result.files.length === 0) return 2;
    return result.ok ? 0 : 1;
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
}
