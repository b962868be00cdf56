/** `fuzzpatch apply`: applies a model's response or a patch to files under a root. */

import { readFile } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { type ApplyEditsOptions, type ApplyEditsResult, applyEdits } from "../fs/apply-edits.ts";
import type { ResponseFormat } from "../formats/index.ts";
import { promptCandidate } from "./interactive.ts";
import { colorDiff, colorsFor, errorToJson, type Streams, writeError } from "./output.ts";

export interface ApplyCommandOptions {
  root: string;
  format: ResponseFormat;
  dryRun: boolean;
  partial: boolean;
  json: boolean;
  interactive: boolean;
}

/** Exit codes: 0 all applied, 1 some edit failed, 2 bad usage or unparseable input. */
export async function runApply(file: string | undefined, options: ApplyCommandOptions, streams: Streams, stdin: NodeJS.ReadStream): Promise<number> {
  let input: string;
  try {
    input = await readInput(file, stdin);
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
  const applyOptions: ApplyEditsOptions = { format: options.format, dryRun: options.dryRun, partial: options.partial };
  // Never prompt unless both ends are a terminal: a piped response has
  // already consumed stdin, and a script must not hang on a question.
  if (options.interactive && stdin.isTTY && file !== undefined && file !== "-") {
    applyOptions.chooseCandidate = (choice) => promptCandidate(choice, streams, stdin);
  }
  let result: ApplyEditsResult;
  try {
    result = await applyEdits(options.root, input, applyOptions);
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
  const unparseable = result.files.length === 0;
  if (options.json) {
    streams.out.write(`${JSON.stringify(toJson(result), null, 2)}\n`);
  } else {
    printReport(result, streams);
  }
  if (unparseable) return 2;
  return result.ok ? 0 : 1;
}

async function readInput(file: string | undefined, stdin: NodeJS.ReadStream): Promise<string> {
  if (file === undefined || file === "-") {
    if (file === undefined && stdin.isTTY) {
      throw new EditError("INVALID_INPUT", "No input: give a FILE with the model's response, or pipe it on stdin (use - to read stdin).");
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new EditError("IO", `Cannot read ${file}: ${(error as Error).message}`, { path: file });
  }
}

function printReport(result: ApplyEditsResult, streams: Streams): void {
  const c = colorsFor(streams.out, streams.env);
  if (result.diff !== "") streams.out.write(colorDiff(result.diff, c) + (result.diff.endsWith("\n") ? "" : "\n"));
  for (const file of result.files) {
    if (file.error) {
      writeError(streams, file.error, `${file.path}: `);
      continue;
    }
    for (const edit of file.edits) {
      const end = edit.endLine ?? edit.startLine;
      // A hunk with no old lines reports endLine = startLine - 1: an insertion point.
      const where =
        edit.startLine === undefined ? "" : end !== undefined && end < edit.startLine ? `, at line ${edit.startLine}` : `, lines ${edit.startLine}-${end}`;
      const score = edit.score !== undefined && edit.score < 1 ? `, score ${edit.score.toFixed(2)}` : "";
      if (edit.status === "failed" && edit.error) {
        writeError(streams, edit.error, `${file.path}: edit ${edit.index + 1} (${edit.format}): `);
      } else if (edit.fuzzy) {
        streams.out.write(
          `${c.yellow("warning:")} ${file.path}: edit ${edit.index + 1} (${edit.format}) matched fuzzily (${edit.strategy ?? "fuzzy"}${score}${where}); review the change\n`,
        );
      } else {
        streams.out.write(`${c.green("applied:")} ${file.path}: edit ${edit.index + 1} (${edit.format}, ${edit.strategy ?? "exact"}${where})\n`);
      }
    }
  }
  for (const error of result.errors) writeError(streams, error);
  const files = result.files.filter((f) => f.written).length;
  let summary: string;
  if (result.files.length === 0) summary = "No edits applied.";
  else if (result.dryRun) summary = `Dry run: ${result.applied} edit(s) would apply, ${result.failed} failed; nothing written.`;
  else if (result.written) summary = `Applied ${result.applied} edit(s); wrote ${files} file(s)${result.failed > 0 ? `; ${result.failed} edit(s) failed` : ""}.`;
  else if (result.failed > 0 || result.errors.length > 0) {
    summary = `Nothing written: ${result.failed} edit(s) failed${result.errors.length > 0 ? `, ${result.errors.length} other error(s)` : ""}. Use --partial to write the files whose edits all applied.`;
  } else summary = "Nothing to change.";
  streams.out.write(`${summary}\n`);
}

function toJson(result: ApplyEditsResult): unknown {
  return {
    ok: result.ok,
    written: result.written,
    dryRun: result.dryRun,
    applied: result.applied,
    failed: result.failed,
    errors: result.errors.map(errorToJson),
    files: result.files.map((f) => ({
      path: f.path,
      status: f.status,
      written: f.written,
      ...(f.error && { error: errorToJson(f.error) }),
      edits: f.edits.map((e) => ({ ...e, ...(e.error && { error: errorToJson(e.error) }) })),
      diff: f.diff,
    })),
    diff: result.diff,
  };
}
