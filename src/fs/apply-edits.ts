/**
 * `applyEdits`: applies a model's response (or structured edits) to files
 * under a root directory. Every change is computed in memory first; only
 * when all of them succeed (or, with `partial`, for the files whose edits all
 * succeeded) are files written, atomically and as one transaction.
 */

import { HASH_WHILE_WRITING_FROM, hashWhileWaiting } from "./known-hashes.ts";
import { channel } from "node:diagnostics_channel";
import { accessSync, statSync } from "node:fs";
import { checkFlag, type EngineOptions, optionsObject, resolveOptions } from "../engine/options.ts";
import { describeValue, EditError } from "../errors.ts";
import { alreadyAppliedNote } from "../formats/already-applied.ts";
import { applyFromHistory } from "../formats/history-merge.ts";
import { permissionsFor } from "../formats/git-headers.ts";
import { type EditFormat, formatByName, type ResponseFormat } from "../formats/index.ts";
import { type DetectedEdits, detectEdits, fromStructuredEdits } from "../formats/response.ts";
import type { SearchReplacePayload } from "../formats/search-replace-format.ts";
import type { StructuredEdit } from "../formats/str-replace-format.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, OpOutcome } from "../formats/types.ts";
import { FileCache } from "./file-cache.ts";
import { limiter } from "./limiter.ts";
import { ScratchHold } from "./scratch.ts";
import { encodeChanges, encodeText, type LoadedFile, loadTextFile, type ReadOptions } from "./read-file.ts";
import { encodeKeepingUndecoded } from "./undecoded-bytes.ts";
import { followDoneMoves } from "./done-moves.ts";
import { rewriteEdits, suggestStrip } from "./rewrite-edits.ts";
import { Document } from "../text/document.ts";
import { shareDocument } from "../text/document-pool.ts";
import { EXACT_ONLY, isAllowanceRefusal, SEARCH_ALLOWANCE, type WithAllowance } from "../engine/search-allowance.ts";
import { type CarriedBlock, CarriedText, carriedBlock, carrying, cleanResult } from "./carried-text.ts";
import { type Budget, DEFAULT_LIMITS, overLimit } from "../limits.ts";
import { addChange, MAX_CHANGES, MAX_FILE_CHANGES } from "../text/change-list.ts";
import { changedLineNumbers, type TextChange } from "../text/common-ends.ts";
import { partsDiffIsWhole } from "./report-changes.ts";
import { changeHunks, gitHeader, joinReportDiffs, similarity } from "./report-diff.ts";
import { createPatch } from "../formats/create-patch.ts";
import { resolveRoot, resolveSafePath, type SafePath } from "./safe-path.ts";
import { checkWritable } from "./writable.ts";
import { commitChanges, type PlannedChange, type TransactionHooks } from "./transaction.ts";
import { type RejectedOp, rejectFileText } from "../formats/rejects.ts";
import { type JournalOptions, type JournalRecord, type ResolvedJournal, resolveJournal, type StagedRecord, stageRecord } from "./journal.ts";
import type { SyntaxReport } from "../syntax/report.ts";
import { syntaxTreesFor } from "./syntax-trees.ts";
import { checkTargets, judgeFor, probeJudge, SYNTAX_MODES, type SyntaxMode, tiedOps, VERIFY_MODES, type VerifyMode } from "./syntax-check.ts";

/**
 * The engine's part of each edit (matching and splicing, in the current
 * text and in the history's versions), in ms: `{ path, ms, versions }` per
 * edit, published only while someone subscribes (the file-layer benchmark,
 * which tells it from the reads, writes and diffs around it).
 */
const engineTimes = channel("fuzzpatch:engine");

/** What the model saw of a file, to detect that it changed since. */
export interface ExpectedFile {
  /** sha256 (hex) of the file's bytes. */
  hash?: string;
  /** The file's text as the model saw it. */
  content?: string;
}

/** An ambiguous edit offered to `chooseCandidate`. */
export interface AmbiguityChoice {
  path: string;
  /** The edit's index in the input. */
  index: number;
  /** The file's current text (LF line endings, no BOM). */
  text: string;
  /** For a diff: the ambiguous hunk's 0-based position in it. */
  hunk?: number;
  error: EditError;
  candidates: { startLine: number; endLine: number }[];
}

export interface ApplyEditsOptions extends EngineOptions {
  /**
   * Format of a text input; `auto` finds every supported format in it.
   * @default "auto"
   */
  format?: ResponseFormat;
  /**
   * Write the files whose edits all succeeded even when others failed.
   * @default false
   */
  partial?: boolean;
  /**
   * `apply --reject`: every file gets the ops that apply (hunks, SEARCH/REPLACE
   * blocks, str_replace edits, V4A chunks), and each op that fails is written
   * to `FILE.rej` beside it (replacing one there): diff hunks as `git apply
   * --reject` writes them, the rest as SEARCH/REPLACE blocks under the
   * file's path (a `replaceAll` edit as its JSON edit). Failed ops still
   * count as failed (the call is not `ok`). A failure of the whole file (it
   * is missing, outside the root, stale, binary, read-only; a parse error;
   * an op with no `.rej` form, as an anchored edit) fails that file as
   * without it: nothing of it is written, no `.rej`; other files are
   * written as with `partial`.
   * @default false
   */
  reject?: boolean;
  /**
   * Compute and report everything, write nothing.
   * @default false
   */
  dryRun?: boolean;
  /**
   * Per path (relative to root): what the model saw. A mismatch fails the
   * file's edits with `STALE`. A string is a sha256 hash.
   * @default {}
   */
  expected?: Record<string, ExpectedFile | string>;
  /**
   * Per path (relative to root): earlier versions of the file the model may
   * have read, oldest first (their texts). An edit that does not match the
   * current file, or matches it only fuzzily, but matches one of them is
   * applied there and carried onto the current file by a three-way merge;
   * changes that overlap are a CONFLICT quoting the current lines.
   * @default {}
   */
  history?: Record<string, readonly string[]>;
  /**
   * Largest file, in bytes, that is read for editing.
   * @default 10485760
   */
  maxFileBytes?: number;
  /**
   * Edit files with NUL bytes or invalid UTF-8.
   * @default false
   */
  allowBinary?: boolean;
  /**
   * Leading path components to strip from every path the input names
   * (`patch -p N`), counted on a diff header as written (`a/src/x` with 1
   * is `src/x`).
   * @default undefined (git's a/ and b/ are dropped when both headers carry them)
   */
  strip?: number;
  /**
   * The one file the input edits: the path of SEARCH/REPLACE blocks and
   * diffs that name none (hunks without headers included), and of edits
   * that name another (`patch FILE`). An input naming several files is
   * refused.
   * @default undefined
   */
  target?: string;
  /**
   * Undo the edits instead of applying them (`patch -R`); formats that
   * cannot be reversed (str_replace, SEARCH/REPLACE) are refused.
   * @default false
   */
  reverse?: boolean;
  /**
   * How the caller's interface says "replace every occurrence", for the
   * advice in AMBIGUOUS messages of str_replace edits.
   * @default "set replaceAll"
   */
  replaceAllAdvice?: string;
  /**
   * How the caller's interface says "an empty text to find" (which creates
   * a file), for str_replace messages.
   * @default 'an empty "oldString"'
   */
  emptyOldAdvice?: string;
  /**
   * Prefix of the paths shown in reports, messages and diffs (not of the
   * paths resolved): the CLI's `replace` edits a file under its own
   * directory but names it as the user did.
   * @default ""
   */
  displayPrefix?: string;
  /**
   * Called for each ambiguous edit (any format); returns the index of the
   * candidate to use, or `null` to leave the edit failed. The file's edit
   * is then applied again with the chosen place deciding.
   * @default undefined (ambiguity fails the edit)
   */
  chooseCandidate?: (choice: AmbiguityChoice) => Promise<number | null>;
  /**
   * Hooks into the write transaction (failure injection in tests).
   * @default {}
   */
  hooks?: TransactionHooks;
  /**
   * Keeps each file's decoded text and document between calls (pass the
   * same one to every call of a session): a file whose bytes are unchanged
   * since the cache last saw them, read or written, is not decoded and
   * indexed again. See file-cache.ts for what it checks and what it costs.
   * @default undefined (nothing kept between calls)
   */
  cache?: FileCache;
  /**
   * Record every write in the undo journal (fs/journal.ts): `fuzzpatch
   * undo`, `undoWrite` and the `undo_edit` tool take it back, `fuzzpatch
   * report` makes a reproduction bundle of it. `true` uses the default
   * location; `FUZZPATCH_JOURNAL=0` turns it off whatever this says. A
   * journal that cannot be written is a warning (`result.journal`), never
   * a failed edit.
   * @default false (the CLI, the MCP server and runTool turn it on)
   */
  journal?: boolean | JournalOptions;
  /**
   * The syntax check (tree-sitter, loaded on first use) of each changed file
   * of a known language (docs/syntax.md): "report" puts whether the file
   * parses before and after, and the errors its edits introduced, in
   * `FileReport.syntax`; "off" skips it and never loads a grammar.
   * @default "report"
   */
  syntax?: SyntaxMode;
  /**
   * "syntax": a file whose edits introduce a syntax error is not written;
   * its edits fail with SYNTAX, naming the line, the error and the lines
   * around it. Checks even when `syntax` is "off".
   * @default "none" (the check reports only: agents pass through broken states in multi-step refactors)
   */
  verify?: VerifyMode;
}

export interface EditReport {
  /** Index of the edit in the input (across all files). */
  index: number;
  format: EditFormat;
  /**
   * "already-applied": what the edit writes is in the file already and what
   * it replaces is not (the response ran before); nothing is changed for it,
   * it is not a failure, and `note` (code ALREADY_APPLIED) says where.
   */
  status: "applied" | "failed" | "already-applied";
  strategy?: string;
  startLine?: number;
  endLine?: number;
  score?: number;
  /** True when the match was not exact. */
  fuzzy?: boolean;
  /** The user picked this place among ambiguous candidates (chooseCandidate). */
  chosen?: boolean;
  /** The code's syntax picked this place among look-alikes: the edit placed at any other would have introduced a syntax error (see `syntax`). */
  bySyntax?: boolean;
  /**
   * The edit matched this earlier version (an index into the file's
   * `history`, oldest first) and was carried onto the file by a three-way
   * merge (strategy "history-merge"); its lines are that version's.
   */
  version?: number;
  error?: EditError;
  /** For "already-applied": code ALREADY_APPLIED, a message saying where the new text is. */
  note?: EditError;
  /** `reject`: this failed op goes to the file's `.rej` (`FileReport.reject`). */
  rejected?: boolean;
}

export type FileStatus = "modified" | "created" | "deleted" | "unchanged" | "failed";

export interface FileReport {
  path: string;
  status: FileStatus;
  /** True when the change reached the disk. */
  written: boolean;
  edits: EditReport[];
  /** A failure of the whole file (unsafe path, binary, stale, ...). */
  error?: EditError;
  /** Unified diff of the change ("" when none). */
  diff: string;
  /** The file was moved to this path (V4A `*** Move to:`, a git diff's `rename to`); `path` is where it was. */
  movedTo?: string;
  /** The file was created as a copy of this one (a git diff's `copy from`). */
  copiedFrom?: string;
  /** A moved or copied file: the share of the original's lines it keeps, in percent. */
  similarity?: number;
  /** Permission bits before the edit, when it changes them (a git diff's `old mode`/`new mode`) or deletes the file. */
  oldMode?: number;
  /** Permission bits after the edit, when it changes them or creates the file with a git mode. */
  newMode?: number;
  /** `reject`: the `.rej` file that holds the ops that failed (relative to the root), and whether it reached the disk. */
  reject?: { path: string; written: boolean };
  /** The syntax check of the file's change (a changed file of a known language, unless `syntax: "off"`): whether it parses before and after, and the errors its edits introduced. */
  syntax?: SyntaxReport;
  /** Why a changed file of a known language got no syntax report: over the report's size limit (`SYNTAX_REPORT_MAX_CHARS`, docs/syntax.md). */
  syntaxSkipped?: string;
}

export interface ApplyEditsResult {
  /** Every edit applied (and, unless dry-run, written). */
  ok: boolean;
  /** Something was written. */
  written: boolean;
  dryRun: boolean;
  files: FileReport[];
  /** Number of edits applied / failed. */
  applied: number;
  failed: number;
  /** Number of edits found already applied (not failures; nothing written for them). */
  alreadyApplied: number;
  /** Errors not tied to one edit: unreadable input, no edits found, a failed write. */
  errors: EditError[];
  /** The response had no real line breaks and was un-escaped (`\n` written literally). */
  unescaped?: boolean;
  /** The unified diff of every change, concatenated. */
  diff: string;
  /** With `journal`, when something was written: the write's journal id, or why it was not recorded. */
  journal?: JournalRecord;
}

const DEFAULTS = Object.freeze({
  format: "auto" as ResponseFormat,
  partial: false,
  reject: false,
  dryRun: false,
  maxFileBytes: 10 * 1024 * 1024,
  allowBinary: false,
  reverse: false,
  displayPrefix: "",
  syntax: "report" as SyntaxMode,
  verify: "none" as VerifyMode,
});

interface ResolvedOptions {
  format: ResponseFormat;
  partial: boolean;
  reject: boolean;
  dryRun: boolean;
  maxFileBytes: number;
  allowBinary: boolean;
  expected: Record<string, ExpectedFile | string> | undefined;
  history: Record<string, readonly string[]>;
  chooseCandidate: ApplyEditsOptions["chooseCandidate"];
  hooks: TransactionHooks | undefined;
  cache: FileCache | undefined;
  /** The call's reused buffers (scratch.ts): the big files' bytes read and written, given back once the write is recorded. */
  hold: ScratchHold;
  journal: ResolvedJournal | undefined;
  strip: number | undefined;
  target: string | undefined;
  reverse: boolean;
  replaceAllAdvice: string | undefined;
  emptyOldAdvice: string | undefined;
  displayPrefix: string;
  syntax: SyntaxMode;
  verify: VerifyMode;
  /** What the core gets: the engine options, validated once here. */
  engine: EngineOptions;
  maxResponseSize: number;
  maxEdits: number;
  /** The whole call's budget (`timeoutMs`, `signal`): each file's edit gets what is left of it, and it is checked once more before anything is written. */
  budget: Budget;
}

function resolveFileOptions(options: unknown): ResolvedOptions {
  const o = optionsObject<ApplyEditsOptions>(options);
  const engine: EngineOptions = {
    ...(o.preset !== undefined && { preset: o.preset }),
    ...(o.fuzzyThreshold !== undefined && { fuzzyThreshold: o.fuzzyThreshold }),
    ...(o.hintWindow !== undefined && { hintWindow: o.hintWindow }),
    ...(o.thresholds !== undefined && { thresholds: o.thresholds }),
    ...(o.limits !== undefined && { limits: o.limits }),
    ...(o.signal !== undefined && { signal: o.signal }),
  };
  // Validates before any file is read (the budget too: a bad timeoutMs is INVALID_INPUT).
  const resolved = resolveOptions({ ...engine, ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }) });
  // One allowance for searches beyond exact text across the call's edits, each of which is an engine call of its own.
  (engine as WithAllowance)[SEARCH_ALLOWANCE] = resolved.allowance;
  const maxFileBytes = o.maxFileBytes ?? DEFAULTS.maxFileBytes;
  if (typeof maxFileBytes !== "number" || !Number.isSafeInteger(maxFileBytes) || maxFileBytes < 0) {
    throw new EditError("INVALID_INPUT", `maxFileBytes must be a whole number of bytes, got ${describeValue(maxFileBytes)}.`);
  }
  if (o.chooseCandidate !== undefined && typeof o.chooseCandidate !== "function") throw new EditError("INVALID_INPUT", "chooseCandidate must be a function.");
  if (o.hooks !== undefined && (typeof o.hooks !== "object" || o.hooks === null || (o.hooks.beforeWrite !== undefined && typeof o.hooks.beforeWrite !== "function"))) {
    throw new EditError("INVALID_INPUT", "hooks must be an object whose beforeWrite, when given, is a function.");
  }
  if (o.cache !== undefined && !(o.cache instanceof FileCache)) throw new EditError("INVALID_INPUT", "cache must be a FileCache.");
  if (o.strip !== undefined && (typeof o.strip !== "number" || !Number.isSafeInteger(o.strip) || o.strip < 0)) {
    throw new EditError("INVALID_INPUT", `strip must be a whole number of path components, got ${describeValue(o.strip)}.`);
  }
  for (const key of ["format", "target", "replaceAllAdvice", "emptyOldAdvice", "displayPrefix"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "string") throw new EditError("INVALID_INPUT", `${key} must be a string.`);
  }
  const history = checkHistory(o.history);
  checkExpected(o.expected);
  if (o.syntax !== undefined && !(SYNTAX_MODES as readonly unknown[]).includes(o.syntax)) {
    throw new EditError("INVALID_INPUT", `syntax must be ${SYNTAX_MODES.map((m) => `"${m}"`).join(" or ")}, got ${describeValue(o.syntax)}.`);
  }
  if (o.verify !== undefined && !(VERIFY_MODES as readonly unknown[]).includes(o.verify)) {
    throw new EditError("INVALID_INPUT", `verify must be ${VERIFY_MODES.map((m) => `"${m}"`).join(" or ")}, got ${describeValue(o.verify)}.`);
  }
  return {
    format: o.format ?? DEFAULTS.format,
    history,
    partial: checkFlag(o.partial, "partial") ?? DEFAULTS.partial,
    reject: checkFlag(o.reject, "reject") ?? DEFAULTS.reject,
    dryRun: checkFlag(o.dryRun, "dryRun") ?? DEFAULTS.dryRun,
    maxFileBytes,
    allowBinary: checkFlag(o.allowBinary, "allowBinary") ?? DEFAULTS.allowBinary,
    expected: o.expected,
    chooseCandidate: o.chooseCandidate,
    hooks: o.hooks,
    cache: o.cache,
    hold: new ScratchHold(),
    journal: resolveJournal(o.journal),
    strip: o.strip,
    target: o.target,
    reverse: checkFlag(o.reverse, "reverse") ?? DEFAULTS.reverse,
    replaceAllAdvice: o.replaceAllAdvice,
    emptyOldAdvice: o.emptyOldAdvice,
    displayPrefix: o.displayPrefix ?? DEFAULTS.displayPrefix,
    syntax: o.syntax ?? DEFAULTS.syntax,
    verify: o.verify ?? DEFAULTS.verify,
    engine,
    maxResponseSize: resolved.limits.maxResponseSize,
    maxEdits: resolved.limits.maxEdits,
    budget: resolved.budget,
  };
}

/** `expected`: per path a sha256 hash, or { hash?, content? } of strings (a number there threw a TypeError, issue 22 item 5). */
function checkExpected(value: unknown): void {
  if (value === undefined) return;
  const bad = (why: string) =>
    new EditError("INVALID_INPUT", `expected must be an object mapping each path to a sha256 hash (a string) or to { hash?, content? } of strings: ${why}.`);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad(`got ${describeValue(value)}`);
  for (const [path, want] of Object.entries(value)) {
    if (typeof want === "string") continue;
    if (typeof want !== "object" || want === null || Array.isArray(want)) throw bad(`${JSON.stringify(path)} has ${describeValue(want)}`);
    for (const key of ["hash", "content"] as const) {
      const v = (want as Record<string, unknown>)[key];
      if (v !== undefined && typeof v !== "string") throw bad(`${JSON.stringify(path)}.${key} is ${describeValue(v)}`);
    }
  }
}

function checkHistory(value: unknown): Record<string, readonly string[]> {
  if (value === undefined) return {};
  const bad = () => new EditError("INVALID_INPUT", "history must be an object mapping each path to a list of the file's earlier texts, oldest first.");
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw bad();
  const out: Record<string, readonly string[]> = Object.create(null);
  for (const [path, versions] of Object.entries(value)) {
    if (!Array.isArray(versions) || versions.some((v) => typeof v !== "string")) throw bad();
    out[path] = versions;
  }
  return out;
}

interface FilePlan {
  report: FileReport;
  loaded?: LoadedFile;
  abs?: string;
  newText?: string;
  deleted: boolean;
  /** The path relative to the root (the report's may carry `displayPrefix`). */
  rel: string;
  /** "did you mean …? use -pN", for a file that does not exist. */
  pathHint?: string;
  /** Where an edit moves the file (relative to the root, as the input names it), and that path resolved. */
  moveTo?: string;
  moveAbs?: string;
  /** The edit that moves it, for its failure. */
  moveEdit?: { index: number; format: EditFormat };
  /** The git mode an edit gives the file (0o100755 / 0o100644). */
  gitMode?: number;
  /** `reject`: the failed ops with their `.rej` form, in order. */
  rejects: { edit: EditReport; op: RejectedOp }[];
  /** `reject`: the `.rej` file's path relative to the root, its text, and its write once planned. */
  rejectRel?: string;
  rejectText?: string;
  rejectChange?: PlannedChange;
  /** Where a move goes, relative to the root. */
  moveRel?: string;
  /** A copy: the file it was made from (relative to the root) and that file's text. */
  copiedFrom?: { rel: string; text: string };
  /** The file as read ahead of planning (lookUpFiles), for its first edit. */
  prefetched?: Promise<LoadedFile | EditError>;
  /** How many edits changed `newText`. */
  changes: number;
  /**
   * `newText` as changes of the text read (sorted ranges, apart), while
   * every edit said what it changed: the diff and the bytes are made from
   * them.
   */
  textChanges?: TextChange[];
  /** SEARCH/REPLACE blocks applied without a new text each (carried-text.ts): while some are pending, `newText` is their base. */
  carried?: CarriedText;
  /** The current text's document, kept for the next block (keepDocument). */
  kept?: Document;
}

/** Where an edit's path leads: the file's identity (plans are keyed by it), and the file read ahead. */
interface FileLookup {
  key: string;
  safe?: SafePath;
  exists: boolean;
  error?: EditError;
  loaded?: Promise<LoadedFile | EditError>;
}

/** How the files an edit names are read: the call's limits, through its cache if it has one. */
function readOptions(opts: ResolvedOptions): ReadOptions {
  return { maxBytes: opts.maxFileBytes, allowBinary: opts.allowBinary, ...(opts.cache && { cache: opts.cache }), hold: opts.hold };
}

/** Files looked up and read at once, ahead of the planning loop: a response over 200 files waited for each read in turn. */
const LOOKAHEAD = 8;

/**
 * Each distinct path of the edits resolved once (a response names a file
 * once per block) and its file read, up to LOOKAHEAD at a time, while the
 * edits before it are being matched. Nothing is written before planning
 * ends, so reading early reads the same bytes; no promise here rejects.
 */
function lookUpFiles(realRoot: string, edits: readonly FileEdit[], opts: ResolvedOptions): Map<string, Promise<FileLookup>> {
  const out = new Map<string, Promise<FileLookup>>();
  const limit = limiter(LOOKAHEAD);
  const one = async (written: string): Promise<FileLookup> => {
    try {
      const safe = await resolveSafePath(realRoot, written);
      const key = await fileIdentity(safe.abs);
      const exists = key.startsWith("inode:");
      const loaded = loadTextFile(safe.abs, `${opts.displayPrefix}${safe.rel}`, readOptions(opts)).catch((error: unknown) => asEditError(error, "IO"));
      await loaded;
      return { key, safe, exists, loaded };
    } catch (error) {
      return { key: `\0${written}`, exists: false, error: asEditError(error, "IO") };
    }
  };
  for (const written of new Set(edits.map((e) => e.path))) out.set(written, limit(() => one(written)));
  return out;
}

/**
 * Applies `input` to files under `root`. Never throws for a bad edit or
 * path: failures are in the result. Throws `EditError` only when `root`
 * itself is unusable.
 */
export async function applyEdits(
  root: string,
  input: string | readonly StructuredEdit[],
  options: ApplyEditsOptions = {},
): Promise<ApplyEditsResult> {
  checkArguments(root, input);
  const opts = resolveFileOptions(options);
  const realRoot = await resolveRoot(root);
  const choices = recordChoices(opts);
  const { edits, errors, unescaped } = await readEdits(input, opts, realRoot);
  const planOrder = await planFiles(realRoot, edits, opts);
  for (const plan of planOrder) await planMove(plan, realRoot, opts.displayPrefix);
  for (const plan of planOrder) finishPlan(plan, opts.reject);
  if (opts.syntax !== "off" || opts.verify === "syntax") await checkTargets(planOrder.flatMap(syntaxTarget), opts.verify === "syntax");
  for (const plan of planOrder) await refuseReadOnly(plan);
  if (opts.reject) for (const plan of planOrder) await planRejectFile(plan, planOrder, realRoot, opts);
  const journal = opts.journal;
  // The write's record, staged while the files' own writes wait on the disk (writePlans), as the result of those writes succeeding.
  const stage =
    journal &&
    ((changes: readonly PlannedChange[]) => {
      const read = planOrder.flatMap((p) => (p.abs !== undefined && p.loaded ? [{ abs: p.abs, exists: p.loaded.exists, bytes: p.loaded.bytes, mode: p.loaded.mode }] : []));
      const recorded = { ...options, ...(choices.length > 0 && { choices }) } as Record<string, unknown>;
      return stageRecord(journal, { realRoot, changes, read, input, options: recorded, result: summarize(planOrder, errors, true, opts.dryRun, unescaped) });
    });
  const { written, record } = await writePlans(planOrder, opts, errors, stage);
  const result = summarize(planOrder, errors, written, opts.dryRun, unescaped);
  if (record) result.journal = record;
  // Nothing of the call reads the bytes read or written after this (the cache keeps its own; a throw above leaves them to the collector).
  opts.hold.release();
  return result;
}

function checkArguments(root: unknown, input: unknown): void {
  if (typeof root !== "string" || root === "") throw new EditError("INVALID_INPUT", `applyEdits: root must be the path of a directory, got ${describeValue(root)}.`);
  if (typeof input !== "string" && !Array.isArray(input)) {
    throw new EditError("INVALID_INPUT", `applyEdits: input must be a model's response (a string) or a list of edits, got ${describeValue(input)}.`);
  }
}

/** The answers of an interactive run, for the journal: a replay gives the same ones. */
function recordChoices(opts: ResolvedOptions): (number | null)[] {
  const choices: (number | null)[] = [];
  const ask = opts.chooseCandidate;
  if (opts.journal && ask) {
    opts.chooseCandidate = async (choice) => {
      const answer = await ask(choice);
      choices.push(answer);
      return answer;
    };
  }
  return choices;
}

/** The input's edits, rewritten and with moves already done followed, and the errors met reading them. */
async function readEdits(input: string | readonly StructuredEdit[], opts: ResolvedOptions, realRoot: string): Promise<{ edits: FileEdit[]; errors: EditError[]; unescaped?: boolean }> {
  // Checked before any work: a huge response is refused, not parsed.
  const limits = { ...DEFAULT_LIMITS, maxResponseSize: opts.maxResponseSize, maxEdits: opts.maxEdits };
  const tooLarge =
    typeof input === "string" ? overLimit("maxResponseSize", input.length, limits) : overLimit("maxEdits", input.length, limits, "the list of edits");
  const found: DetectedEdits = tooLarge
    ? { edits: [], errors: [tooLarge] }
    : typeof input === "string"
      ? detectEdits(input, opts.format, opts.target === undefined ? {} : { defaultPath: opts.target })
      : fromStructuredEdits(input);
  // The core's limit on edits in one call holds here too (20,000 JSONL edits were applied one by one, issue 22 item 13).
  const tooMany = overLimit("maxEdits", found.edits.length, limits);
  const detected: DetectedEdits = tooMany ? { edits: [], errors: [...found.errors, tooMany] } : found;
  const rewritten = rewriteEdits(detected.edits, opts);
  rewritten.edits = await followDoneMoves(realRoot, rewritten.edits);
  const errors = [...detected.errors, ...rewritten.errors];
  if (rewritten.edits.length === 0 && errors.length === 0) {
    errors.push(
      new EditError(
        "PARSE",
        "No edits found in the input. Send SEARCH/REPLACE blocks after a file name, a unified diff with --- / +++ headers, or a fenced JSON edit {\"path\", \"oldString\", \"newString\"}.",
      ),
    );
  }
  return { edits: rewritten.edits, errors, ...(detected.unescaped && { unescaped: true }) };
}

/**
 * Groups edits by the file they reach, in order of first appearance, and
 * plans each edit: two names of one file (a symlink, a hard link) share one
 * plan, so their edits apply in order to one text instead of the second
 * write undoing the first.
 */
async function planFiles(realRoot: string, edits: readonly FileEdit[], opts: ResolvedOptions): Promise<FilePlan[]> {
  const plans = new Map<string, FilePlan>();
  const planOrder: FilePlan[] = [];
  const lookups = lookUpFiles(realRoot, edits, opts);
  for (const [index, edit] of edits.entries()) {
    const found = await (lookups.get(edit.path) as Promise<FileLookup>);
    let plan = plans.get(found.key);
    if (!plan) {
      plan = await newPlan(found, edit, realRoot, opts);
      plans.set(found.key, plan);
      planOrder.push(plan);
    }
    await planEdit(plan, edit, index, opts, realRoot);
  }
  for (const plan of planOrder) settle(plan);
  return planOrder;
}

async function newPlan(found: FileLookup, edit: FileEdit, realRoot: string, opts: ResolvedOptions): Promise<FilePlan> {
  const rel = found.safe?.rel ?? edit.path;
  const plan: FilePlan = {
    report: {
      path: `${opts.displayPrefix}${rel}`,
      status: "failed",
      written: false,
      edits: [],
      diff: "",
      ...(found.error && { error: found.error }),
    },
    ...(found.safe && { abs: found.safe.abs }),
    ...(found.loaded && { prefetched: found.loaded }),
    deleted: false,
    rel,
    rejects: [],
    changes: 0,
  };
  // A missing file may be a path with a prefix too many (a/, the repository's name).
  if (found.safe && !found.exists) {
    const hint = await suggestStrip(realRoot, edit, opts);
    if (hint !== undefined) plan.pathHint = hint;
  }
  return plan;
}

/**
 * Writes the planned files (and `.rej` files) in one transaction, unless something forbids any write; a write's failure joins `errors`.
 * `stage` (the journal's record) runs once the new bytes' hashes are known, while the transaction waits on the disk; its record is
 * placed once every file is in place, and discarded when the transaction fails.
 */
async function writePlans(
  planOrder: readonly FilePlan[],
  opts: ResolvedOptions,
  errors: EditError[],
  stage?: (changes: readonly PlannedChange[]) => Promise<StagedRecord>,
): Promise<{ written: boolean; changes: PlannedChange[]; record?: JournalRecord }> {
  // The budget once more before writing: an edit that searches nothing (a new or empty file)
  // never checks it, and a call aborted or past its time writes nothing.
  const late = overBudget(opts.budget);
  if (late) errors.push(late);
  const anyFailed = errors.length > 0 || planOrder.some((p) => p.report.status === "failed");
  // Out of time anywhere: nothing is written, not even with `partial`.
  const timedOut = late !== undefined || planOrder.some((p) => p.report.error?.code === "TIMEOUT" || p.report.edits.some((e) => e.error?.code === "TIMEOUT"));
  const nothing = opts.dryRun || timedOut || (anyFailed && !opts.partial && !opts.reject);
  const toWrite = nothing ? [] : planOrder.filter((p) => p.report.status !== "failed" && p.report.status !== "unchanged");
  // The .rej files go in the same transaction: a failed write leaves neither the file's change nor its .rej.
  const rejects = nothing ? [] : planOrder.filter((p) => p.rejectChange !== undefined && p.report.status !== "failed");
  const changes: PlannedChange[] = [...toWrite.flatMap((p) => toChanges(p, opts.allowBinary, opts.hold)), ...rejects.map((p) => p.rejectChange as PlannedChange)];
  if (changes.length === 0) return { written: false, changes };
  // Written as the record staged meanwhile says; taken back below if the transaction fails.
  const setWritten = (value: boolean) => {
    for (const p of toWrite) p.report.written = value;
    for (const p of rejects) if (p.report.reject) p.report.reject.written = value;
  };
  setWritten(true);
  let staging: Promise<StagedRecord> | undefined;
  try {
    // The new bytes' sha256 (the journal's and the answer's) computed while the write waits on the disk, then the record staged.
    const hashing = Promise.all(changes.map((c) => (c.kind !== "delete" && c.bytes.length >= HASH_WHILE_WRITING_FROM ? hashWhileWaiting(c.bytes) : undefined)));
    staging = stage && hashing.then(() => stage(changes));
    // The cache's entries made meanwhile too (the journal's files already on their way to the disk), stored once the files are in place.
    const { cache } = opts;
    const forget = () => {
      for (const p of toWrite) if (p.abs !== undefined) cache?.drop(p.abs);
    };
    const remembering = cache && hashing.then(() => rememberWritten(cache, toWrite, changes)).catch(() => forget);
    await commitChanges(changes, opts.hooks, opts.budget).finally(() => hashing);
    (await remembering)?.();
    const record = staging && (await (await staging).place());
    return { written: true, changes, ...(record && { record }) };
  } catch (error) {
    setWritten(false);
    await (await staging)?.discard();
    const failure = asEditError(error, "IO");
    errors.push(failure);
    // A file changed by someone else meanwhile fails as that file's error.
    const culprit = toWrite.find((p) => p.report.path === failure.detail.path);
    if (culprit && (failure.code === "STALE" || failure.code === "UNSAFE_PATH")) {
      culprit.report.error = failure;
      culprit.report.status = "failed";
    }
    return { written: false, changes };
  }
}

function summarize(planOrder: readonly FilePlan[], errors: EditError[], written: boolean, dryRun: boolean, unescaped: boolean | undefined): ApplyEditsResult {
  const files = planOrder.map((p) => p.report);
  const count = (status: EditReport["status"]) => files.reduce((n, f) => n + f.edits.filter((e) => e.status === status).length, 0);
  const failed = count("failed");
  return {
    ok: failed === 0 && errors.length === 0,
    written,
    dryRun,
    files,
    applied: count("applied"),
    failed,
    alreadyApplied: count("already-applied"),
    errors,
    diff: joinReportDiffs(files),
    ...(unescaped && { unescaped: true }),
  };
}

async function planEdit(plan: FilePlan, edit: FileEdit, index: number, opts: ResolvedOptions, realRoot: string): Promise<void> {
  const report = plan.report;
  const fail = (error: EditError) => {
    report.edits.push({ index, format: edit.format, status: "failed", error: opts.budget.asOwnTimeout(error) });
  };
  const unusable = await loadPlan(plan, edit, opts, realRoot);
  if (unusable) return fail(unusable);
  const guard = checkStale(report.path, plan.loaded as LoadedFile, expectedOf(edit));
  if (guard) return fail(guard);
  if (plan.deleted) {
    return fail(new EditError("CONFLICT", `${report.path} is deleted by an earlier edit in this input; it cannot be edited after.`, { path: report.path, index }));
  }
  const entry = formatByName(edit.format);
  if (!entry) return fail(new EditError("INVALID_INPUT", `No format "${edit.format}".`, { path: report.path, index }));
  const versions = historyOf(opts.history, plan.rel, edit.path);
  // A file's history serves edits not found, or found fuzzily (history-merge.ts): never a carried one, exact and clean.
  const block = plan.loaded?.exists && !plan.copiedFrom && !plan.moveTo ? carriedBlock(edit) : undefined;
  const carried = block && plan.carried?.empty === false && plan.carried.openFor(block.find) ? carryBlock(plan, edit, index, block, entry, versions, opts) : false;
  if (carried === true) return;
  // Placed exactly neither in the base nor over a pending edit, once the call may start no search beyond exact
  // text: the whole text's answer is the allowance's refusal, which the base gives too, without making it whole.
  // (Not with a history: the refusal, NOT_FOUND, is then the history's to answer, in the whole text.)
  const unplaced =
    typeof carried === "object" && block && versions.length === 0 && (opts.engine as WithAllowance)[SEARCH_ALLOWANCE]?.spentAll && !plan.carried?.mayHold(block.find);
  if (!unplaced) settle(plan);
  const current = plan.newText ?? "";
  if (block) keepDocument(plan, current);
  const ctx = editContext(plan, current, versions, opts);
  // A format that reads the file's tree (a lazy snippet's merge) gets it loaded first, as the syntax judge is.
  if (entry.syntaxTrees && ctx.exists && (opts.syntax !== "off" || opts.verify === "syntax")) {
    const trees = await syntaxTreesFor(report.path, current, opts.verify === "syntax");
    if (trees) ctx.trees = trees;
  }
  // An edit that fails whole (one str_replace, a patch) throws; as an op outcome it can be offered to the user.
  const run = (c: FileApplyContext): FileApplyResult => {
    try {
      return entry.apply(current, edit as FileEdit<never>, c);
    } catch (error) {
      if (error instanceof EditError && error.code === "AMBIGUOUS" && opts.chooseCandidate) return { ops: [{ status: "failed", error }] };
      throw error;
    }
  };
  // An edit written against a version the model read earlier: applied there and merged (history-merge.ts).
  const viaHistory = (now: FileApplyResult | EditError) => (versions.length > 0 ? applyFromHistory(entry, edit, current, versions, ctx, now) : undefined);
  try {
    // The first run asks a judge that tells nothing whether a reading inside one place is a tie (probeJudge).
    const probe = opts.syntax !== "off" || opts.verify === "syntax" ? probeJudge(report.path, current, opts.verify === "syntax") : undefined;
    if (probe) ctx.options = { ...ctx.options, syntaxJudge: probe.judge };
    // The base's answer, already had with the call's own spent allowance (carryBlock), is this run's: the same text and options.
    const had = unplaced && !probe ? (carried as Unplaced).spent : undefined;
    let { now, merged } = had ? { now: had, merged: undefined } : runTimed(() => run(ctx), viaHistory, report.path, versions.length);
    // A tie between places, or inside one: once more with the syntax judge, which may break it (engine/syntax-decide.ts).
    const tied = probe ? tiedOps(now) : new Set<number>();
    const judge = tied.size > 0 || probe?.asked() ? await judgeFor(report.path, current) : undefined;
    if (judge) {
      ctx.options = { ...ctx.options, syntaxJudge: judge };
      ({ now, merged } = runTimed(() => run(ctx), viaHistory, report.path, versions.length));
    }
    if (!merged && now instanceof EditError) throw now;
    let result = merged ?? (now as FileApplyResult);
    const choices = await askChoices(result.ops, report.path, index, current, entry.unit, opts);
    if (choices.size > 0) result = run({ ...ctx, options: { ...opts.engine, ...(judge && { syntaxJudge: judge }), choices: Object.fromEntries(choices) }, choices });
    // Every op of the edit already there: applied before, nothing to do (a mix of both is a real mismatch).
    const notes = result.ops.map((op) => (op.status === "failed" && op.error ? alreadyAppliedNote(op.error, entry.unit) : undefined));
    if (result.content === undefined && notes.length > 0 && notes.every((n) => n !== undefined)) {
      for (const note of notes) report.edits.push(alreadyAppliedReport(index, edit.format, note as EditError, report.path));
      return;
    }
    for (const op of result.ops) if (op.error) op.error = opts.budget.asOwnTimeout(op.error);
    recordResult(plan, result, merged !== undefined, { index, format: edit.format }, choices, judge ? tied : undefined, block && !merged && choices.size === 0 && !judge ? current : undefined);
    // A text made by an edit found beyond its exact text is read anew by the next edit (search-allowance.ts). The
    // texts are compared last: two of 1 MB and one length are read whole, for every edit not carried.
    if (result.content !== undefined && result.ops.some((op) => op.status === "applied" && op.fuzzy === true) && result.content !== current) {
      (opts.engine as WithAllowance)[SEARCH_ALLOWANCE]?.rebuilt(result.content.length);
    }
  } catch (error) {
    const note = error instanceof EditError ? alreadyAppliedNote(error, entry.unit) : undefined;
    if (note) report.edits.push(alreadyAppliedReport(index, edit.format, note, report.path));
    else fail(withPath(asEditError(error, "INVALID_INPUT"), report.path, index));
  }
}
/** Reads the plan's file on its first edit (and a copy's source): the error that makes the file unusable, if any. */
async function loadPlan(plan: FilePlan, edit: FileEdit, opts: ResolvedOptions, realRoot: string): Promise<EditError | undefined> {
  const report = plan.report;
  if (report.error) return report.error;
  if (plan.abs === undefined) return new EditError("UNSAFE_PATH", `No usable path for ${edit.path}.`, { path: edit.path });
  if (plan.loaded) return undefined;
  try {
    const read = await (plan.prefetched ?? loadTextFile(plan.abs, report.path, readOptions(opts)));
    delete plan.prefetched;
    if (read instanceof EditError) throw read;
    plan.loaded = read;
    plan.newText = plan.loaded.text;
  } catch (error) {
    report.error = asEditError(error, "IO");
    return report.error;
  }
  const stale = checkStale(report.path, plan.loaded, opts.expected?.[plan.rel] ?? opts.expected?.[edit.path]);
  if (stale) {
    report.error = stale;
    return stale;
  }
  if (edit.sourcePath !== undefined) {
    const copyError = await loadCopySource(plan, edit.sourcePath, realRoot, opts);
    if (copyError) {
      report.error = copyError;
      return copyError;
    }
  }
  return undefined;
}

/** What the format's apply is told about the file: its path, whether it exists, the options with the time left, its history. */
function editContext(plan: FilePlan, current: string, versions: readonly string[], opts: ResolvedOptions): FileApplyContext {
  const loaded = plan.loaded as LoadedFile;
  const left = opts.budget.remainingMs();
  return {
    path: plan.report.path,
    exists: loaded.exists || current !== "" || plan.copiedFrom !== undefined,
    ...(opts.reject && { keepApplied: true }),
    options: left === undefined ? opts.engine : { ...opts.engine, timeoutMs: left },
    ...(plan.pathHint !== undefined && { pathHint: plan.pathHint }),
    ...(loaded.layout.bom && { bom: true }),
    ...(loaded.mode !== undefined && plan.gitMode === undefined && { mode: loaded.mode }),
    ...(opts.replaceAllAdvice !== undefined && { replaceAllAdvice: opts.replaceAllAdvice }),
    ...(opts.emptyOldAdvice !== undefined && { emptyOldAdvice: opts.emptyOldAdvice }),
    ...(versions.length > 0 && { versions }),
  };
}

/** The edit's result on the current text (or the EditError it threw) and its merge from history, if one applies; timed for `engineTimes`. */
function runTimed(
  run: () => FileApplyResult,
  viaHistory: (now: FileApplyResult | EditError) => FileApplyResult | undefined,
  path: string,
  versions: number,
): { now: FileApplyResult | EditError; merged: FileApplyResult | undefined } {
  const started = engineTimes.hasSubscribers ? performance.now() : 0;
  let now: FileApplyResult | EditError;
  try {
    now = run();
  } catch (error) {
    if (!(error instanceof EditError)) throw error;
    now = error;
  }
  const merged = viaHistory(now);
  if (engineTimes.hasSubscribers) engineTimes.publish({ path, ms: performance.now() - started, versions });
  return { now, merged };
}

/** The edit's ops go to the report, and its text, move, mode and changes to the plan. */
/** `bySyntax`: the ops that were a tie before the syntax judge weighed them (an applied one is marked `bySyntax`). */
function recordResult(
  plan: FilePlan,
  result: FileApplyResult,
  merged: boolean,
  edit: { index: number; format: EditFormat },
  choices: ReadonlyMap<number, number>,
  bySyntax?: ReadonlySet<number>,
  carryFrom?: string,
): void {
  for (const [k, op] of result.ops.entries()) {
    const editReport = opReport(edit.index, edit.format, op, plan.report.path, choices);
    if (bySyntax?.has(k) && editReport.status === "applied" && !editReport.chosen) editReport.bySyntax = true;
    plan.report.edits.push(editReport);
    if (op.status === "failed" && op.rejected) plan.rejects.push({ edit: editReport, op: op.rejected });
  }
  if (result.deleted) plan.deleted = true;
  if (result.moveTo !== undefined) {
    plan.moveTo = result.moveTo;
    plan.moveEdit = edit;
  }
  if (result.gitMode !== undefined) plan.gitMode = result.gitMode;
  if (result.content === undefined) return;
  const loaded = plan.loaded as LoadedFile;
  // Each edit's changes are of the text the edits before it gave; a merge from history brings none.
  let known = plan.changes === 0 ? [] : plan.textChanges;
  if (!result.changes || merged || !loaded.exists || plan.copiedFrom) known = undefined;
  // Last first: each is then a range of the text the ones after it (in the text) gave, unmoved by them.
  // (The list is the plan's alone: changed in place. Past MAX_CHANGES ranges only carried blocks keep it, see carryBlock.)
  for (let k = (result.changes?.length ?? 0) - 1; k >= 0 && known; k--) {
    if (!addChange(loaded.text, known, result.changes?.[k] as TextChange, MAX_CHANGES)) known = undefined;
  }
  plan.textChanges = known;
  plan.changes++;
  // A clean block's change is kept pending on the text it was applied to, not made a new text (carried-text.ts).
  const clean = carryFrom !== undefined ? cleanResult(result) : undefined;
  if (clean && carryFrom !== undefined) {
    plan.carried = new CarriedText(carryFrom);
    if (plan.carried.open && plan.carried.start(clean.op, clean.changes)) return;
    delete plan.carried;
  }
  plan.newText = result.content;
}

/**
 * The current text's document kept alive (and shared) while blocks are
 * applied to it: each block's engine call finds it, with its line table and
 * search context, instead of building them again (a failed block leaves the
 * text as it was: 1,740 of them each rebuilt both, issue 39).
 */
function keepDocument(plan: FilePlan, current: string): void {
  if (plan.kept?.raw === current) return;
  plan.kept = Document.from(current);
  shareDocument(plan.kept);
}

/** The plan's text made whole, when blocks are pending on it. */
function settle(plan: FilePlan): void {
  if (!plan.carried) return;
  plan.newText = plan.carried.text();
  delete plan.carried;
}

/** A block the exact strategy placed nowhere in the base; `spent`: its answer there, when the call's allowance was already spent. */
interface Unplaced {
  spent?: FileApplyResult | EditError;
}

/**
 * A clean block applied in the base of the blocks pending (carried-text.ts):
 * recorded as the per-block path would, and true; false when its result in
 * the base cannot stand for its result in the edited text (nothing recorded),
 * an `Unplaced` when the exact strategy placed it nowhere in the base.
 */
function carryBlock(plan: FilePlan, edit: FileEdit, index: number, block: CarriedBlock, entry: FormatEntry, versions: readonly string[], opts: ResolvedOptions): boolean | Unplaced {
  const carried = plan.carried as CarriedText;
  const base = carried.base;
  const started = engineTimes.hasSubscribers ? performance.now() : 0;
  let result: FileApplyResult;
  // Only an exact result is kept here: a block that is not one is searched once, after, in the whole text. A spent
  // allowance refuses every search past exact text as EXACT_ONLY does, so with it the refusal is the base's whole
  // answer, which planEdit then takes instead of running the block again (880 of 1,997 blocks of a budget input).
  const allowance = (opts.engine as WithAllowance)[SEARCH_ALLOWANCE];
  const spent = allowance?.spentAll === true;
  const ctx = editContext(plan, base, versions, opts);
  ctx.options = { ...ctx.options, [SEARCH_ALLOWANCE]: spent ? allowance : EXACT_ONLY } as EngineOptions;
  const publish = () => engineTimes.hasSubscribers && engineTimes.publish({ path: plan.report.path, ms: performance.now() - started, versions: 0 });
  // A hinted block is located in the base with its hint on the base's line of the hinted one (carried-text.ts, rule 1).
  const baseHint = block.hint === undefined ? undefined : carried.baseHint(block);
  if (block.hint !== undefined && baseHint === undefined) return false;
  const located = baseHint === undefined ? edit : { ...edit, payload: { ...(edit.payload as SearchReplacePayload), startLine: baseHint } };
  try {
    result = entry.apply(base, located as FileEdit<never>, ctx);
  } catch (error) {
    if (!isAllowanceRefusal(error)) return false;
    if (spent) publish();
    return spent ? { spent: error as EditError } : {};
  }
  if (result.ops.length === 1 && isAllowanceRefusal(result.ops[0]?.error)) {
    if (spent) publish();
    return spent ? { spent: result } : {};
  }
  publish();
  const clean = cleanResult(result);
  const moved = clean && carried.carry(block, clean.op, clean.changes, baseHint);
  if (!moved) return false;
  plan.report.edits.push(opReport(index, edit.format, moved.op, plan.report.path, new Map()));
  const loaded = plan.loaded as LoadedFile;
  const known = plan.changes === 0 ? [] : plan.textChanges;
  // A carried edit's change is exact and apart from the others: up to MAX_FILE_CHANGES are kept, for the
  // bytes written and, where it is the same diff, the report's (finishPlan; the whole texts' of 1 MB: ~160 ms warm).
  // Last first, as finishPlan adds them: each a range of the text the ones after it gave, unmoved by them.
  let kept = known;
  for (let k = moved.changes.length - 1; k >= 0 && kept; k--) if (!addChange(loaded.text, kept, moved.changes[k] as TextChange, MAX_FILE_CHANGES)) kept = undefined;
  plan.textChanges = kept;
  if (plan.textChanges && plan.textChanges.length > carrying.ranges) carrying.ranges = plan.textChanges.length;
  plan.changes++;
  return true;
}

/**
 * A git `copy from`: the copy must not exist yet, and its text starts as the
 * source's (as it is on disk, before any edit of this input: git copies the
 * preimage), with the source's layout and mode.
 */
async function loadCopySource(plan: FilePlan, sourcePath: string, realRoot: string, opts: ResolvedOptions): Promise<EditError | undefined> {
  const loaded = plan.loaded as LoadedFile;
  const path = plan.report.path;
  if (loaded.exists) {
    return new EditError("CONFLICT", `The diff copies ${sourcePath} to ${path}, but ${path} already exists. Delete it first or copy to another path.`, { path });
  }
  try {
    const safe = await resolveSafePath(realRoot, sourcePath);
    const source = await loadTextFile(safe.abs, `${opts.displayPrefix}${safe.rel}`, { maxBytes: opts.maxFileBytes, allowBinary: opts.allowBinary });
    if (!source.exists) return new EditError("NOT_FOUND", `The diff copies ${sourcePath} to ${path}, but ${sourcePath} does not exist.`, { path: sourcePath });
    plan.loaded = { ...loaded, layout: source.layout, ...(source.mode !== undefined && { mode: source.mode }) };
    plan.newText = source.text;
    plan.copiedFrom = { rel: `${opts.displayPrefix}${safe.rel}`, text: source.text };
    return undefined;
  } catch (error) {
    return asEditError(error, "IO");
  }
}

/** The history of the file an edit names: under its path relative to the root, or as the input wrote it. */
function historyOf(history: Record<string, readonly string[]>, rel: string, written: string): readonly string[] {
  if (Object.hasOwn(history, rel)) return history[rel] ?? [];
  return Object.hasOwn(history, written) ? (history[written] ?? []) : [];
}

export function alreadyAppliedReport(index: number, format: EditFormat, note: EditError, path: string): EditReport {
  const report: EditReport = { index, format, status: "already-applied", note: withPath(note, path, index) };
  const { startLine, endLine } = note.detail as { startLine?: unknown; endLine?: unknown };
  if (typeof startLine === "number") report.startLine = startLine;
  if (typeof endLine === "number") report.endLine = endLine;
  return report;
}

/** Interactive disambiguation: for each AMBIGUOUS op, the start line of the place the user picks. */
async function askChoices(ops: readonly OpOutcome[], path: string, index: number, text: string, unit: string, opts: ResolvedOptions): Promise<Map<number, number>> {
  const choices = new Map<number, number>();
  if (!opts.chooseCandidate) return choices;
  for (const op of ops) {
    const error = op.error;
    if (!error) continue;
    // A patch reports every failed hunk in `detail.failures`; other formats one error per op.
    const failures = Array.isArray(error.detail.failures) ? (error.detail.failures as EditError["detail"][]) : [{ ...error.detail, code: error.code }];
    for (const f of failures) {
      if (f.code !== "AMBIGUOUS") continue;
      const candidates = (f.candidates ?? []).map((c) => ({ startLine: c.startLine, endLine: c.endLine }));
      if (candidates.length < 2) continue;
      const one = failures.length > 1 ? new EditError("AMBIGUOUS", String(f.message ?? error.message), f) : error;
      const hunk = unit === "hunk" ? { hunk: Number(f.index ?? 0) } : {};
      const choice = await opts.chooseCandidate({ path, index, text, error: one, candidates, ...hunk });
      const picked = choice === null ? undefined : candidates[choice];
      if (picked) choices.set(Number(f.index ?? 0), picked.startLine);
    }
  }
  return choices;
}

/**
 * A move's destination: a safe path that does not exist yet (moving onto
 * another file would lose it; the model should delete that one first).
 */
async function planMove(plan: FilePlan, realRoot: string, displayPrefix: string): Promise<void> {
  const report = plan.report;
  if (plan.moveTo === undefined || report.error || plan.deleted) return;
  const fail = (error: EditError) => {
    report.error = error;
    if (plan.moveEdit) report.edits.push({ ...plan.moveEdit, status: "failed", error });
  };
  try {
    const safe = await resolveSafePath(realRoot, plan.moveTo);
    if (safe.abs === plan.abs) return; // moved onto itself: an update
    if (await exists(safe.abs)) {
      fail(
        new EditError("CONFLICT", `${report.path} cannot be moved to ${displayPrefix}${safe.rel}: that file already exists. Delete it first ("*** Delete File:") or choose another path.`, {
          path: report.path,
        }),
      );
      return;
    }
    plan.moveAbs = safe.abs;
    plan.moveRel = safe.rel;
    report.movedTo = `${displayPrefix}${safe.rel}`;
  } catch (error) {
    fail(asEditError(error, "IO"));
  }
}

/** A file to change or delete that this user may not write fails whole (READ_ONLY), before anything is written. */
async function refuseReadOnly(plan: FilePlan): Promise<void> {
  const report = plan.report;
  if (!plan.loaded?.exists || plan.abs === undefined || (report.status !== "modified" && report.status !== "deleted")) return;
  try {
    await checkWritable(plan.abs, report.path);
  } catch (error) {
    const refused = asEditError(error, "IO");
    report.error = refused;
    report.status = "failed";
    report.diff = "";
    dropRejects(plan);
    // Its edits could not be written: they count as failed, so the call is not `ok`.
    for (const edit of report.edits) {
      if (edit.status !== "applied") continue;
      edit.status = "failed";
      edit.error = refused;
    }
  }
}

/**
 * `reject`: the write of a file's `.rej`, beside it (beside where it moves),
 * through the same path checks as every write; an existing one is replaced,
 * as git apply does. A `.rej` that cannot be written (a directory there, a
 * path out of the root, a file this input edits) fails the file whole.
 */
async function planRejectFile(plan: FilePlan, plans: readonly FilePlan[], realRoot: string, opts: ResolvedOptions): Promise<void> {
  const report = plan.report;
  if (plan.rejectRel === undefined || plan.rejectText === undefined || report.status === "failed") return;
  const shown = `${opts.displayPrefix}${plan.rejectRel}`;
  try {
    const safe = await resolveSafePath(realRoot, plan.rejectRel);
    if (plans.some((p) => p.abs === safe.abs || p.moveAbs === safe.abs)) {
      throw new EditError("CONFLICT", `The failed edits of ${report.path} go to ${shown}, but this input edits that file too; apply it without --reject.`, { path: shown });
    }
    const existing = await loadTextFile(safe.abs, shown, { maxBytes: opts.maxFileBytes, allowBinary: true });
    plan.rejectChange = {
      rel: shown,
      abs: safe.abs,
      kind: existing.exists ? "write" : "create",
      bytes: Buffer.from(plan.rejectText, "utf8"),
      original: existing.bytes,
      ...(existing.exists && existing.mode !== undefined && { mode: existing.mode }),
    };
    report.reject = { path: shown, written: false };
  } catch (error) {
    report.error = asEditError(error, "IO");
    report.status = "failed";
    report.diff = "";
    for (const edit of report.edits) {
      if (edit.status !== "applied") continue;
      edit.status = "failed";
      edit.error = report.error;
    }
    dropRejects(plan);
  }
}

/** The file fails whole after all: its ops are no longer in a `.rej`. */
function dropRejects(plan: FilePlan): void {
  for (const r of plan.rejects) delete r.edit.rejected;
  delete plan.rejectText;
  delete plan.rejectChange;
  delete plan.report.reject;
}

/** A changed file's texts before and after, for the syntax check (none for a deleted or unchanged file). */
function syntaxTarget(plan: FilePlan): { report: FileReport; path: string; before: string; after: string }[] {
  const { report, loaded } = plan;
  if ((report.status !== "modified" && report.status !== "created") || !loaded) return [];
  const before = loaded.exists ? loaded.text : (plan.copiedFrom?.text ?? "");
  return [{ report, path: plan.moveRel ?? plan.rel, before, after: plan.newText ?? "" }];
}

function finishPlan(plan: FilePlan, reject: boolean): void {
  const report = plan.report;
  const failed = report.edits.filter((e) => e.status === "failed");
  // --reject keeps what applied when every failure has a .rej form; any other failure fails the file as before.
  const rejecting = reject && failed.length > 0 && failed.every((e) => plan.rejects.some((r) => r.edit === e));
  if (report.error || (failed.length > 0 && !rejecting) || !plan.loaded) {
    report.status = "failed";
    return;
  }
  if (rejecting) {
    for (const r of plan.rejects) r.edit.rejected = true;
    const to = plan.moveRel ?? plan.rel;
    plan.rejectRel = `${to}.rej`;
    plan.rejectText = rejectFileText(to, plan.rejects.map((r) => r.op));
  }
  const oldText = plan.loaded.exists ? plan.loaded.text : (plan.copiedFrom?.text ?? "");
  const modes = modeChange(plan);
  // The text's changes, when known, say what the whole new text would (it is a rope over the old one: read whole, it is copied).
  const changes = plan.deleted || plan.moveAbs !== undefined ? undefined : plan.textChanges;
  const same = changes ? changes.every((c) => c.text === oldText.slice(c.start, c.end)) : plan.newText === oldText;
  if (plan.deleted) report.status = "deleted";
  // A missing file whose edits all stood already (an undone creation undone again) is not created.
  else if (!plan.loaded.exists) report.status = plan.changes === 0 && !plan.copiedFrom ? "unchanged" : "created";
  else report.status = same && plan.moveAbs === undefined && modes.newMode === undefined ? "unchanged" : "modified";
  if (report.status === "unchanged") return;
  if (modes.oldMode !== undefined) report.oldMode = modes.oldMode;
  if (modes.newMode !== undefined) report.newMode = modes.newMode;
  if (plan.copiedFrom) report.copiedFrom = plan.copiedFrom.rel;
  const from = plan.copiedFrom?.rel ?? report.path;
  const paths = {
    oldPath: plan.loaded.exists || plan.copiedFrom ? `a/${from}` : "/dev/null",
    newPath: plan.deleted ? "/dev/null" : `b/${report.movedTo ?? report.path}`,
  };
  // An undecoded text's bytes are written back otherwise (undecoded-bytes.ts): its diff stays the text's.
  const { layout } = plan.loaded;
  // Past MAX_CHANGES ranges (carried blocks only), from the ranges when that gives the whole texts' diff (report-changes.ts).
  const diffed = changes && (changes.length <= MAX_CHANGES || partsDiffIsWhole(oldText, changes)) ? changes : undefined;
  if (diffed && diffed.length > MAX_CHANGES) carrying.partsDiffs++;
  const hunks = changeHunks(
    {
      oldText,
      newText: () => plan.newText ?? "",
      ...(diffed && { changes: diffed }),
      ...(layout.undecoded === undefined && { layout }),
      created: !plan.loaded.exists && !plan.copiedFrom,
      deleted: plan.deleted === true,
    },
    paths,
  );
  if (plan.copiedFrom || plan.moveAbs !== undefined) report.similarity = similarity(oldText, hunks);
  report.diff = gitHeader(report) + hunks;
}

/** The permission bits a git mode changes (before and after), or what a created or deleted file had. */
function modeChange(plan: FilePlan): { oldMode?: number; newMode?: number } {
  const loaded = plan.loaded as LoadedFile;
  if (plan.deleted) return loaded.mode === undefined ? {} : { oldMode: loaded.mode };
  if (plan.gitMode === undefined) return {};
  const created = !loaded.exists;
  // A new file's bits are the umask's unless a mode says otherwise; a copy starts from its source's.
  const newMode = permissionsFor(plan.gitMode, created && !plan.copiedFrom ? undefined : loaded.mode);
  if (created) return { newMode };
  return newMode === loaded.mode ? {} : { ...(loaded.mode !== undefined && { oldMode: loaded.mode }), newMode };
}

/**
 * What the transaction writes, for the next call's reads: a file edited in place keeps its document (line table carried over the
 * edit); a moved or deleted one is forgotten. The entries are made now (while the write waits on the disk) and stored by the
 * function returned, once the files are in place.
 */
function rememberWritten(cache: FileCache, written: readonly FilePlan[], changes: readonly PlannedChange[]): () => void {
  const steps: (() => void)[] = [];
  for (const plan of written) {
    const { abs, loaded, moveAbs } = plan;
    if (abs === undefined || !loaded) continue;
    const change = changes.find((c) => c.abs === abs);
    if (plan.deleted || moveAbs !== undefined || !change || change.kind === "delete") {
      steps.push(() => {
        cache.drop(abs);
        if (moveAbs !== undefined) cache.drop(moveAbs);
      });
      continue;
    }
    steps.push(cache.prepareWritten(abs, change.bytes, plan.newText ?? "", loaded.layout, loaded.text));
  }
  return () => {
    for (const store of steps) store();
  };
}

/** The writes of one file: one, or for a move the new path created and the old one deleted. */
function toChanges(plan: FilePlan, allowBinary: boolean, hold: ScratchHold): PlannedChange[] {
  const change = toChange(plan, allowBinary, hold);
  if (plan.moveAbs === undefined || plan.deleted || plan.moveAbs === plan.abs) return [change];
  const { originalMode: _, ...rest } = change;
  const loaded = plan.loaded as LoadedFile;
  return [
    { ...rest, rel: plan.report.movedTo ?? plan.report.path, abs: plan.moveAbs, kind: "create", original: new Uint8Array() },
    { rel: plan.report.path, abs: plan.abs as string, kind: "delete", bytes: new Uint8Array(), original: loaded.bytes },
  ];
}

/** The new text's bytes: from its changes where known (the bytes read, valid UTF-8, kept around them), else encoded whole. */
function newBytes(plan: FilePlan, loaded: LoadedFile, allowBinary: boolean, hold: ScratchHold): Buffer {
  const changes = plan.moveAbs === undefined ? plan.textChanges : undefined;
  // Bytes that did not decode are written back as they were, outside the lines the edits changed.
  const { undecoded } = loaded.layout;
  if (undecoded) return encodeKeepingUndecoded(loaded.bytes, loaded.layout.bom ? 3 : 0, loaded.text, undecoded, plan.newText ?? "", changes, plan.report.path);
  // Bytes read with allowBinary may not be what their text encodes to (an invalid byte is written back as U+FFFD).
  const pieces = changes && !allowBinary ? encodeChanges(loaded.bytes, loaded.text, changes, loaded.layout, hold) : undefined;
  return pieces ?? encodeText(plan.newText ?? "", loaded.layout);
}

function toChange(plan: FilePlan, allowBinary: boolean, hold: ScratchHold): PlannedChange {
  const loaded = plan.loaded as LoadedFile;
  const kind = plan.deleted ? "delete" : loaded.exists ? "write" : "create";
  const mode = plan.report.newMode ?? loaded.mode;
  return {
    rel: plan.report.path,
    abs: plan.abs as string,
    kind,
    bytes: plan.deleted ? new Uint8Array() : newBytes(plan, loaded, allowBinary, hold),
    original: loaded.bytes,
    ...(mode !== undefined && { mode }),
    ...(loaded.exists && loaded.mode !== undefined && loaded.mode !== mode && { originalMode: loaded.mode }),
  };
}

export function opReport(index: number, format: EditFormat, op: OpOutcome, path: string, choices: ReadonlyMap<number, number>): EditReport {
  if (op.status === "failed") return { index, format, status: "failed", ...(op.error && { error: withPath(op.error, path, index) }) };
  if (op.status === "already-applied" && op.note) return alreadyAppliedReport(index, format, op.note, path);
  const report: EditReport = { index, format, status: "applied" };
  if (op.strategy !== undefined) report.strategy = op.strategy;
  if (op.startLine !== undefined) report.startLine = op.startLine;
  if (op.endLine !== undefined) report.endLine = op.endLine;
  if (op.score !== undefined) report.score = op.score;
  report.fuzzy = op.fuzzy ?? false;
  if (op.version !== undefined) report.version = op.version;
  if (choices.size > 0 && op.startLine !== undefined && [...choices.values()].includes(op.startLine)) report.chosen = true;
  return report;
}

function expectedOf(edit: FileEdit): ExpectedFile | undefined {
  if (edit.expectedHash === undefined && edit.expectedContent === undefined) return undefined;
  return { ...(edit.expectedHash !== undefined && { hash: edit.expectedHash }), ...(edit.expectedContent !== undefined && { content: edit.expectedContent }) };
}

function checkStale(path: string, loaded: LoadedFile, expected: ExpectedFile | string | undefined): EditError | undefined {
  if (expected === undefined) return undefined;
  const want = typeof expected === "string" ? { hash: expected } : expected;
  if (want.hash !== undefined && want.hash.toLowerCase() !== loaded.hash) {
    return new EditError(
      "STALE",
      `${path} changed since you read it (its sha256 is ${loaded.hash}, you read ${want.hash}). Read the file again and send the edit against its current content.`,
      { path, expectedHash: want.hash, actualHash: loaded.hash },
    );
  }
  if (want.content !== undefined) {
    const seen = want.content.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
    const now = loaded.text.replace(/\r\n/g, "\n");
    if (seen !== now) {
      const changes = createPatch(seen, now, { fuzzy: false, context: 1, oldPath: `${path} (as you read it)`, newPath: `${path} (now)` })
        .split("\n")
        .slice(2);
      const shown = changes.slice(0, 40).join("\n");
      const more = changes.length > 40 ? `\n... (${changes.length - 40} more diff lines)` : "";
      const changedLines = changedLineNumbers(seen, now);
      return new EditError(
        "STALE",
        `${path} changed since you read it${loaded.exists ? "" : " (it no longer exists)"}. What changed:\n${shown}${more}\nRead the file again and send the edit against its current content.`,
        { path, changedLines },
      );
    }
  }
  return undefined;
}

function withPath(error: EditError, path: string, index: number): EditError {
  if (error.detail.path === undefined) error.detail.path = path;
  if (error.detail.index === undefined) error.detail.index = index;
  return error;
}

/** The budget's TIMEOUT, if the call is past it or aborted. */
function overBudget(budget: Budget): EditError | undefined {
  try {
    budget.check("writing the files");
    return undefined;
  } catch (error) {
    return asEditError(error, "IO");
  }
}

function asEditError(error: unknown, code: "PARSE" | "IO" | "INVALID_INPUT"): EditError {
  if (error instanceof EditError) return error;
  return new EditError(code, String((error as Error)?.message ?? error));
}

async function exists(abs: string): Promise<boolean> {
  try {
    accessSync(abs);
    return true;
  } catch {
    return false;
  }
}

/** The file `abs` reaches: its device and inode when it exists, else its real path. */
async function fileIdentity(abs: string): Promise<string> {
  try {
    const s = statSync(abs);
    return `inode:${s.dev}:${s.ino}`;
  } catch {
    return `path:${abs}`;
  }
}

