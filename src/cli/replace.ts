/** `fuzzpatch replace FILE --old TEXT --new TEXT`: one str_replace edit on one file. */

import { DEFAULT_CLI_TIMEOUT_MS } from "../limits.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../errors.ts";
import { applyEdits } from "../fs/apply-edits.ts";
import { colorDiff, colorsFor, errorToJson, type Streams, writeError, writeNote } from "./output.ts";

export interface ReplaceCommandOptions {
  old?: string;
  new?: string;
  oldFile?: string;
  newFile?: string;
  all: boolean;
  dryRun: boolean;
  json: boolean;
  /** Nothing on stdout (no diff, no report line), no notes; errors still on stderr. */
  quiet?: boolean;
  preset: "default" | "opencode";
  maxFileBytes?: number;
  /** Milliseconds before the edit gives up (TIMEOUT, nothing written); 0: no limit. */
  timeout?: number;
  allowBinary: boolean;
  /** `--no-journal` makes it false. */
  journal?: boolean;
}

export async function runReplace(file: string, options: ReplaceCommandOptions, streams: Streams): Promise<number> {
  let oldString: string;
  let newString: string;
  try {
    oldString = await pickText("old", options.old, options.oldFile);
    newString = await pickText("new", options.new, options.newFile);
  } catch (error) {
    writeError(streams, error as EditError);
    return 2;
  }
  // The user names the file on the command line, so the root is its own
  // directory: the path checks guard against models, not against the user.
  // Reports name the file as the user did.
  const abs = path.resolve(file);
  const name = path.basename(abs);
  const result = await applyEdits(path.dirname(abs), [{ path: name, oldString, newString, replaceAll: options.all }], {
    format: "str-replace",
    dryRun: options.dryRun,
    preset: options.preset,
    allowBinary: options.allowBinary,
    journal: options.journal !== false && { source: "cli replace" },
    ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    ...(options.timeout !== 0 && { timeoutMs: options.timeout ?? DEFAULT_CLI_TIMEOUT_MS }),
    replaceAllAdvice: "use --all",
    emptyOldAdvice: "--old ''",
    displayPrefix: file.endsWith(name) ? file.slice(0, file.length - name.length) : "",
  });
  if (result.journal?.warning) writeNote(streams, result.journal.warning);
  const report = result.files[0];
  if (options.json) {
    streams.out.write(
      `${JSON.stringify(
        {
          ok: result.ok,
          written: result.written,
          diff: result.diff,
          edits: report?.edits.map((e) => ({ ...e, ...(e.error && { error: errorToJson(e.error) }), ...(e.note && { note: errorToJson(e.note) }) })) ?? [],
          errors: result.errors.map(errorToJson),
        },
        null,
        2,
      )}\n`,
    );
  } else if (options.quiet) {
    for (const e of report?.edits ?? []) if (e.error) writeError(streams, e.error, `${file}: `);
    for (const e of result.errors) writeError(streams, e);
  } else {
    const c = colorsFor(streams, "out");
    if (result.diff !== "") streams.out.write(colorDiff(result.diff, c));
    // Report lines on stderr, as apply prints them: stdout holds the diff alone, a patch to save.
    const ec = colorsFor(streams, "err");
    for (const e of report?.edits ?? []) {
      if (e.status === "already-applied") writeNote(streams, `${file}: ${e.note?.message ?? "already applied; nothing to do."}`);
      else if (e.error) writeError(streams, e.error, `${file}: `);
      else if (e.fuzzy) streams.err.write(`${ec.yellow("warning:")} ${file}: matched fuzzily (${e.strategy}${e.score !== undefined ? `, score ${e.score.toFixed(2)}` : ""}, lines ${e.startLine}-${e.endLine}); review the change\n`);
      else streams.err.write(`${ec.green("applied:")} ${file}: ${e.strategy ?? "exact"}${e.startLine !== undefined ? `, lines ${e.startLine}-${e.endLine}` : ""}\n`);
    }
    for (const e of result.errors) writeError(streams, e);
  }
  return result.ok ? 0 : 1;
}

async function pickText(name: string, inline: string | undefined, file: string | undefined): Promise<string> {
  if (inline !== undefined && file !== undefined) {
    throw new EditError("INVALID_INPUT", `Give either --${name} or --${name}-file, not both.`);
  }
  if (inline !== undefined) return inline;
  if (file === undefined) throw new EditError("INVALID_INPUT", `Missing --${name} TEXT (or --${name}-file FILE).`);
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new EditError("IO", `Cannot read --${name}-file ${file}: ${(error as Error).message}`, { path: file });
  }
}
