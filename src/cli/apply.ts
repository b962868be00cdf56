/** `fuzzpatch apply`: applies a model's response or a patch to files under a root. */

import { DEFAULT_CLI_TIMEOUT_MS } from "../limits.ts";
import { readFile } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { type ApplyEditsOptions, type ApplyEditsResult, applyEdits } from "../fs/apply-edits.ts";
import { introducedLines, type SyntaxMode, type VerifyMode } from "../fs/syntax-check.ts";
import { formatByName, formatNames, type ResponseFormat } from "../formats/index.ts";
import { promptCandidate } from "./interactive.ts";
import { historyFiles, threeWayHistory } from "./three-way.ts";
import { createColors } from "./colors.ts";
import { colorDiff, colorsFor, countChanges, errorToJson, formatNumstat, formatStat, formatSummary, type StatFile, type Streams, writeError, writeNote } from "./output.ts";
import { formatApplyStat, patchTableFiles } from "./patch-tables.ts";
import { count } from "../text/plural.ts";
import { slowerTierUp } from "./tier-up.ts";

export interface ApplyCommandOptions {
  root: string;
  format: ResponseFormat;
  dryRun: boolean;
  partial: boolean;
  /** Write what applies of each file and its failed hunks or blocks to FILE.rej (as git apply --reject). */
  reject: boolean;
  json: boolean;
  interactive: boolean;
  /** Validate only: dry run, nothing on stdout, errors on stderr, exit 0/1. */
  check: boolean;
  /** Nothing on stdout; errors still on stderr. */
  quiet: boolean;
  /** A diffstat instead of the diff; like `git apply --stat`, writes nothing. */
  stat: boolean;
  /** Added and deleted lines per file, tab-separated; like `git apply --numstat`, writes nothing. */
  numstat: boolean;
  /** Files created, deleted, renamed, whose mode changed; like `git apply --summary`, writes nothing. */
  summary: boolean;
  strip?: number;
  target?: string;
  reverse: boolean;
  preset: "default" | "opencode";
  maxFileBytes?: number;
  /** Milliseconds before the edit gives up (TIMEOUT, nothing written); 0: no limit. */
  timeout?: number;
  allowBinary: boolean;
  /** Merge a git diff from the blobs its index lines name. */
  "3way"?: boolean;
  /** Earlier versions of the --target file. */
  history?: string[];
  /** `--no-journal` makes it false: the write is not recorded for undo. */
  journal?: boolean;
  /** `--replay BUNDLE`: reproduce a report bundle instead of applying an input. */
  replay?: string;
  /** `--verify syntax`: refuse an edit that introduces a syntax error. */
  verify?: VerifyMode;
  /** `--syntax off`: no syntax check (no warnings, no grammar loaded). */
  syntax?: SyntaxMode;
  /** Read the response as it arrives and print the streaming events as NDJSON (src/cli/stream.ts). */
  stream?: boolean;
}

/** Exit codes: 0 all applied, 1 some edit failed, 2 bad usage or unparseable input. */
/** `stdin` is a getter: process.stdin is built on first use, and most applies read a file. */
export async function runApply(file: string | undefined, options: ApplyCommandOptions, streams: Streams, stdin: () => NodeJS.ReadStream): Promise<number> {
  if (options.format !== "auto" && formatByName(options.format) === undefined) {
    const choices = ["auto", ...formatNames()].join(", ");
    writeError(streams, new EditError("INVALID_INPUT", `option '--format <format>' argument '${options.format}' is invalid. Allowed choices are ${choices}.`));
    return 2;
  }
  if (options.replay !== undefined) {
    const { runReplay } = await import("./replay.ts");
    return runReplay(options.replay, options, streams);
  }
  if (options.stream) {
    const { runApplyStream } = await import("./stream.ts");
    return runApplyStream(file, options, streams, stdin);
  }
  let input: string;
  try {
    input = await readInput(file, stdin);
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
  // The tables of a diff read from the patch alone, as git apply --stat reads it (patch-tables.ts).
  const tables = tablesOnly(options) && !options.json && !options["3way"] ? patchTableFiles(input, options) : undefined;
  if (tables !== undefined) {
    printTables(tables, options, streams, true);
    return 0;
  }
  const applyOptions = libraryOptions(options);
  try {
    if (options.history !== undefined) applyOptions.history = await historyFiles(options.target, options.history);
    if (options["3way"]) {
      const { history, missing } = await threeWayHistory(options.root, input);
      applyOptions.history = { ...applyOptions.history, ...history };
      if (missing.length > 0) writeNote(streams, `--3way: git has no blob for ${missing.join(", ")}; applied without it.`);
    }
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
  if (options.interactive) {
    // Never prompt unless both ends are a terminal: a piped response has
    // already consumed stdin, and a script must not hang on a question.
    const ignored =
      file === undefined || file === "-"
        ? "the response came from stdin, which then cannot answer questions"
        : stdin().isTTY !== true
          ? "stdin is not a terminal"
          : undefined;
    if (ignored === undefined) applyOptions.chooseCandidate = (choice) => promptCandidate(choice, streams, stdin());
    else writeNote(streams, `--interactive ignored: ${ignored}; ambiguous edits fail.`);
  }
  let result: ApplyEditsResult;
  await slowerTierUp(input);
  try {
    result = await applyEdits(options.root, input, applyOptions);
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String(error)));
    return 2;
  }
  if (result.journal?.warning) writeNote(streams, result.journal.warning);
  const unparseable = result.files.length === 0;
  if (options.json) {
    streams.out.write(`${JSON.stringify(toJson(result), null, 2)}\n`);
  } else {
    printReport(result, options, streams);
  }
  if (unparseable) return 2;
  return result.ok ? 0 : 1;
}

/** The library's options for the command's flags (what --history and --3way add is read later). */
export function libraryOptions(options: ApplyCommandOptions): ApplyEditsOptions {
  return {
    format: options.format,
    dryRun: options.dryRun || options.check || tablesOnly(options),
    partial: options.partial,
    reject: options.reject,
    preset: options.preset,
    allowBinary: options.allowBinary,
    reverse: options.reverse,
    journal: options.journal !== false && { source: "cli apply" },
    ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
    ...(options.timeout !== 0 && { timeoutMs: options.timeout ?? DEFAULT_CLI_TIMEOUT_MS }),
    ...(options.strip !== undefined && { strip: options.strip }),
    ...(options.target !== undefined && { target: options.target }),
    ...(options.verify !== undefined && { verify: options.verify }),
    ...(options.syntax !== undefined && { syntax: options.syntax }),
  };
}

/** `--stat`, `--numstat`, `--summary`: tables instead of the diff, nothing written (as git apply). */
function tablesOnly(options: Pick<ApplyCommandOptions, "stat" | "numstat" | "summary">): boolean {
  return options.stat || options.numstat || options.summary;
}

/**
 * The argument as the input itself rather than a path to it: any text with a
 * line break. Codex's convention passes the patch this way
 * (`apply_patch "*** Begin Patch\n…"`); a file name with a line break is not
 * worth the confusion.
 */
export function isInlineInput(file: string | undefined): file is string {
  return file !== undefined && /[\r\n]/.test(file);
}

async function readInput(file: string | undefined, input: () => NodeJS.ReadStream): Promise<string> {
  if (isInlineInput(file)) return file;
  if (file === undefined || file === "-") {
    const stdin = input();
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

/**
 * The diff (or the tables) alone on stdout, so `--dry-run > x.patch` is a
 * patch `git apply` takes; the report lines (applied, warnings, notes, the
 * summary) and the errors on stderr. `--check` and `--quiet` keep only the errors.
 */
function printReport(result: ApplyEditsResult, options: ApplyCommandOptions, streams: Streams): void {
  const silent = options.check || options.quiet;
  // Silent: stdout is never asked whether it is a terminal (that builds the stream: start-up).
  const c = silent ? createColors(false) : colorsFor(streams, "out");
  const out = (s: string) => {
    if (!silent) streams.out.write(s);
  };
  // The tables alone on stdout, as git apply prints them (in its order); the errors still go to stderr.
  const tables = tablesOnly(options);
  if (!silent) printTables(result.files, options, streams);
  if (!tables && result.diff !== "") out(colorDiff(result.diff, c) + (result.diff.endsWith("\n") ? "" : "\n"));
  const e = silent ? c : colorsFor(streams, "err");
  const progress = (s: string) => {
    if (!tables && !silent) streams.err.write(s);
  };
  for (const file of result.files) {
    if (file.error) {
      writeError(streams, file.error, `${file.path}: `);
      continue;
    }
    // After the file's errors: which of them went to the .rej (stderr, as git apply says "Rejected hunk #2").
    const rejected = () => {
      if (file.reject) streams.err.write(`${colorsFor(streams, "err").yellow("rejected:")} ${file.path}: ${rejectedOps(file.edits)} ${result.dryRun ? "would be written" : "written"} to ${file.reject.path}\n`);
    };
    for (const edit of file.edits) {
      const end = edit.endLine ?? edit.startLine;
      // A hunk with no old lines reports endLine = startLine - 1: an insertion point.
      const where =
        edit.startLine === undefined ? "" : end !== undefined && end < edit.startLine ? `, at line ${edit.startLine}` : `, lines ${edit.startLine}-${end}`;
      const score = edit.score !== undefined && edit.score < 1 ? `, score ${edit.score.toFixed(2)}` : "";
      // Lines of a merged edit are the earlier version's.
      const from = edit.version === undefined ? "" : ` from version ${edit.version + 1} you read`;
      if (edit.status === "already-applied") {
        if (!silent && !tables && edit.note) writeNote(streams, `${file.path}: edit ${edit.index + 1} (${edit.format}) ${edit.note.message}`);
      } else if (edit.status === "failed" && edit.error) {
        writeError(streams, edit.error, `${file.path}: edit ${edit.index + 1} (${edit.format}): `);
      } else if (edit.fuzzy) {
        progress(`${e.yellow("warning:")} ${file.path}: edit ${edit.index + 1} (${edit.format}) matched fuzzily (${edit.strategy ?? "fuzzy"}${from}${score}${where}); review the change\n`);
      } else {
        progress(`${e.green("applied:")} ${file.path}: edit ${edit.index + 1} (${edit.format}, ${edit.strategy ?? "exact"}${from}${where})\n`);
      }
    }
    rejected();
    // The syntax check's report (the edits applied, but the file no longer parses where it did).
    if (file.syntax && file.status !== "failed") {
      const how = file.syntax.parsesBefore ? "it parsed before" : "errors elsewhere were there before";
      for (const line of introducedLines(file.syntax)) {
        progress(`${e.yellow("warning:")} ${file.path}: the edit introduces a syntax error (${file.syntax.language}; ${how}) at ${line}; review the change\n`);
      }
    }
  }
  for (const error of result.errors) writeError(streams, error);
  progress(`${summarize(result, options)}\n`);
}

/** The tables alone on stdout, as git apply prints them (in its order); `--stat` in git apply's layout for a patch read alone. */
function printTables(files: readonly StatFile[], options: ApplyCommandOptions, streams: Streams, patchAlone = false): void {
  if (options.check || options.quiet) return;
  const c = colorsFor(streams, "out");
  if (options.stat) streams.out.write(patchAlone ? formatApplyStat(files, c) : formatStat(files, c));
  if (options.numstat) streams.out.write(formatNumstat(files));
  if (options.summary) streams.out.write(formatSummary(files));
}

/** "1 hunk, 2 blocks": a file's failed ops that went to its .rej, in the words of their formats. */
function rejectedOps(edits: ApplyEditsResult["files"][number]["edits"]): string {
  const units = new Map<string, number>();
  for (const e of edits) {
    if (!e.rejected) continue;
    const unit = formatByName(e.format)?.unit ?? "edit";
    units.set(unit, (units.get(unit) ?? 0) + 1);
  }
  return [...units].map(([unit, n]) => count(n, unit)).join(", ");
}

/** The closing line. Failures are counted in the same words whatever was written. */
export function summarize(result: ApplyEditsResult, options: Pick<ApplyCommandOptions, "partial">): string {
  const problems: string[] = [];
  const rejects = result.files.filter((f) => f.reject !== undefined);
  const rejected = result.files.reduce((n, f) => n + f.edits.filter((e) => e.rejected).length, 0);
  const inRej = rejects.length === 0 ? "" : ` (${rejected} ${result.dryRun ? "would go" : "went"} to ${rejects.length === 1 ? (rejects[0]?.reject?.path ?? "") : `${rejects.length} .rej files`})`;
  if (result.failed > 0) problems.push(`${count(result.failed, "edit")} failed${inRej}`);
  if (result.errors.length > 0) problems.push(`${count(result.errors.length, "other error")}`);
  const failures = problems.join(", ");
  if (result.files.length === 0) return "No edits applied.";
  const already = result.alreadyApplied > 0 ? `; ${result.alreadyApplied} already applied` : "";
  if (result.dryRun) return `Dry run: ${count(result.applied, "edit")} would apply${already}${failures ? `, ${failures}` : ""}; nothing written.`;
  if (result.written) {
    const files = result.files.filter((f) => f.written).length;
    return `Applied ${count(result.applied, "edit")}${already}; wrote ${count(files, "file")}${failures ? `; ${failures}` : ""}.`;
  }
  if (failures) {
    // --partial helps only when it was not given, some file has a change
    // ready to write, and what stopped it was an edit, not a failed write.
    const ready = result.files.some((f) => f.status !== "failed" && f.status !== "unchanged");
    const editProblem = result.failed > 0 || result.errors.some((e) => e.code !== "IO");
    const advice = !options.partial && ready && editProblem ? " Use --partial to write the files whose edits all applied." : "";
    return `Nothing written: ${failures}.${advice}`;
  }
  return result.alreadyApplied > 0 ? `Nothing to change: ${count(result.alreadyApplied, "edit")} already applied.` : "Nothing to change.";
}

/**
 * Every failure of a run, once: each file's own error, each failed edit's
 * error (they carry `path` and `index` in `detail`), then the errors tied to
 * no file. A script reads one list instead of walking `files[].edits[]`.
 */
export function everyFailure(result: Pick<ApplyEditsResult, "files" | "errors">): EditError[] {
  const seen = new Set<EditError>();
  const out: EditError[] = [];
  const add = (e: EditError | undefined) => {
    if (e === undefined || seen.has(e)) return;
    seen.add(e);
    out.push(e);
  };
  for (const f of result.files) {
    add(f.error);
    for (const e of f.edits) if (e.status === "failed") add(e.error);
  }
  for (const e of result.errors) add(e);
  return out;
}

export function toJson(result: ApplyEditsResult): unknown {
  return {
    ok: result.ok,
    written: result.written,
    dryRun: result.dryRun,
    applied: result.applied,
    failed: result.failed,
    alreadyApplied: result.alreadyApplied,
    errors: everyFailure(result).map(errorToJson),
    files: result.files.map((f) => ({
      path: f.path,
      ...(f.movedTo !== undefined && { movedTo: f.movedTo }),
      ...(f.copiedFrom !== undefined && { copiedFrom: f.copiedFrom }),
      ...(f.similarity !== undefined && { similarity: f.similarity }),
      // Permission bits in octal, as chmod takes them ("755").
      ...(f.oldMode !== undefined && { oldMode: f.oldMode.toString(8) }),
      ...(f.newMode !== undefined && { newMode: f.newMode.toString(8) }),
      status: f.status,
      written: f.written,
      ...(f.reject !== undefined && { reject: f.reject }),
      ...countChanges(f.diff),
      ...(f.error && { error: errorToJson(f.error) }),
      ...(f.syntax && { syntax: f.syntax }),
      edits: f.edits.map((e) => ({ ...e, ...(e.error && { error: errorToJson(e.error) }), ...(e.note && { note: errorToJson(e.note) }) })),
      diff: f.diff,
    })),
    diff: result.diff,
  };
}
