/**
 * One case of a batch: an edit (a model's response, or structured edits)
 * for one file, given by its text (`content`: applied in memory, nothing
 * written) or by its path under a root (applied by `applyEdits`, written
 * unless dry-run). The case's `path` is the file every edit goes to, as
 * `--target` makes it (an input naming another file is that file's edit).
 *
 * A text is read as the file layer reads a file (BOM dropped, uniform CRLF
 * read as LF, both restored) and each edit is applied by its format as the
 * file layer applies it (formats/types.ts `apply`, the syntax judge on a
 * tie between places, the history merge, the already-applied notes), so a case with `content` gets the reports and the
 * text a file with those bytes gets (test/batch.test.ts compares them).
 */
import { type EngineOptions, optionsObject, resolveOptions } from "../engine/options.ts";
import { describeValue, EditError } from "../errors.ts";
import { alreadyAppliedNote } from "../formats/already-applied.ts";
import { applyFromHistory } from "../formats/history-merge.ts";
import { formatByName, type ResponseFormat } from "../formats/index.ts";
import { type DetectedEdits, detectEdits, fromStructuredEdits } from "../formats/response.ts";
import type { StructuredEdit } from "../formats/str-replace-format.ts";
import type { FileApplyContext, FileApplyResult, FileEdit } from "../formats/types.ts";
import { type ApplyEditsOptions, alreadyAppliedReport, applyEdits, type EditReport, type FileStatus, opReport } from "../fs/apply-edits.ts";
import { decodeText, encodeText, type TextLayout } from "../fs/read-file.ts";
import { rewriteEdits } from "../fs/rewrite-edits.ts";
import { judgeFor, probeJudge, readyJudge, tiedOps } from "../fs/syntax-check.ts";
import type { SyntaxJudge } from "../engine/syntax-decide.ts";
import { DEFAULT_LIMITS, overLimit } from "../limits.ts";
import type { TextChange } from "../text/common-ends.ts";
import type { TextDelta } from "./text-delta.ts";

/** Options of one case (`options` in its line). */
export interface BatchCaseOptions extends EngineOptions {
  /**
   * Earlier texts of the file the model may have read, oldest first (see `ApplyEditsOptions.history`).
   * @default []
   */
  history?: string[];
  /**
   * Undo the edit (diffs only), as `apply -R`.
   * @default false
   */
  reverse?: boolean;
}

export interface BatchCase {
  /** Said back in the result; the case's 1-based line in the input when absent. */
  id?: string | number;
  /** The file the edit is for (relative to the root when `content` is absent). */
  path: string;
  /** The file's text: the edit is applied to it in memory and nothing is written. */
  content?: string;
  /** A model's response, or structured edits. */
  edit: string | StructuredEdit[];
  /** @default "auto" */
  format?: ResponseFormat;
  options?: BatchCaseOptions;
}

/** An error as a result line carries it (a plain object: results cross threads and become JSON). */
export interface BatchError {
  code: string;
  message: string;
  detail?: unknown;
}

/** An op's report in a result line: `EditReport` with its errors as plain objects. */
export type BatchEditReport = Omit<EditReport, "error" | "note"> & { error?: BatchError; note?: BatchError };

export interface BatchReport {
  /** What happened to the file (as `FileReport.status`). */
  status: FileStatus;
  applied: number;
  failed: number;
  alreadyApplied: number;
  edits: BatchEditReport[];
  /** A case with a path: the file was written. */
  written?: boolean;
}

export interface BatchResult {
  id: string | number;
  /** Every edit applied or already there, nothing failed. */
  ok: boolean;
  /** A case with `content`, when ok: the text after the edit. */
  content?: string;
  /** The first failure: of the case itself, else of an edit. */
  error?: BatchError;
  report: BatchReport;
}

/** What every case of a run shares. */
export interface CaseContext {
  /** The directory `path` is under, for cases without `content`. */
  root?: string;
  /** Write nothing for cases with a path. */
  dryRun?: boolean;
}

export function errorData(error: EditError): BatchError {
  return { code: error.code, message: error.message, ...(Object.keys(error.detail).length > 0 && { detail: error.detail }) };
}

function asEditError(error: unknown): EditError {
  return error instanceof EditError ? error : new EditError("INVALID_INPUT", String((error as Error)?.message ?? error));
}

function plainReport(e: EditReport): BatchEditReport {
  const { error, note, ...rest } = e;
  return { ...rest, ...(error && { error: errorData(error) }), ...(note && { note: errorData(note) }) };
}

function failedCase(id: string | number, error: EditError): BatchResult {
  return { id, ok: false, error: errorData(error), report: { status: "failed", applied: 0, failed: 0, alreadyApplied: 0, edits: [] } };
}

/** The case's fields, checked: a bad line is a failed case, never a crash. */
export function checkCase(value: unknown): BatchCase {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new EditError("INVALID_INPUT", `A case must be a JSON object, got ${describeValue(value)}.`);
  const c = value as Record<string, unknown>;
  if (typeof c.path !== "string" || c.path === "") throw new EditError("INVALID_INPUT", "A case needs a path (a non-empty string).");
  if (c.content !== undefined && typeof c.content !== "string") throw new EditError("INVALID_INPUT", `A case's content must be a string, got ${describeValue(c.content)}.`);
  if (typeof c.edit !== "string" && !Array.isArray(c.edit)) throw new EditError("INVALID_INPUT", `A case's edit must be a response (a string) or a list of edits, got ${describeValue(c.edit)}.`);
  if (c.format !== undefined && typeof c.format !== "string") throw new EditError("INVALID_INPUT", "A case's format must be a string.");
  if (c.id !== undefined && typeof c.id !== "string" && typeof c.id !== "number") throw new EditError("INVALID_INPUT", "A case's id must be a string or a number.");
  optionsObject<BatchCaseOptions>(c.options);
  return value as BatchCase;
}

/** Applies one case; never throws. `fallbackId`: its line in the input. */
export async function applyCase(value: unknown, fallbackId: number, ctx: CaseContext): Promise<BatchResult> {
  return (await applyCaseWithDelta(value, fallbackId, ctx)).result;
}

/**
 * A case's result and, for a case with content whose text the formats said
 * they changed (`FileApplyResult.changes`), the result's text as a change of
 * the case's `content` (text-delta.ts): a worker sends that instead of the
 * text, without reading the text (a rope; finding the change by comparing it
 * with `content` copied it whole first: ~10 % of a worker's time on the real
 * edits).
 */
export async function applyCaseWithDelta(value: unknown, fallbackId: number, ctx: CaseContext): Promise<{ result: BatchResult; delta?: TextDelta }> {
  const id = typeof value === "object" && value !== null && (typeof (value as BatchCase).id === "string" || typeof (value as BatchCase).id === "number") ? ((value as BatchCase).id as string | number) : fallbackId;
  try {
    const c = checkCase(value);
    return c.content !== undefined ? await applyToText(c, id) : { result: await applyToFile(c, id, ctx) };
  } catch (error) {
    return { result: failedCase(id, asEditError(error)) };
  }
}

/** The delta of one format's changes (sorted ranges of `base`, apart) from `base`. */
function changesDelta(base: string, changes: readonly TextChange[]): TextDelta {
  const first = changes[0];
  const last = changes[changes.length - 1];
  if (!first || !last) return { start: 0, tail: base.length, middle: "" };
  let middle = first.text;
  for (let k = 1; k < changes.length; k++) {
    const c = changes[k] as TextChange;
    middle += base.slice((changes[k - 1] as TextChange).end, c.start) + c.text;
  }
  return { start: first.start, tail: base.length - last.end, middle };
}

/** A case with a path: `applyEdits` with the path as the target. */
async function applyToFile(c: BatchCase, id: string | number, ctx: CaseContext): Promise<BatchResult> {
  if (ctx.root === undefined) throw new EditError("INVALID_INPUT", `The case for ${c.path} has no content and the batch has no root to read it under.`, { path: c.path });
  const { history, ...rest } = optionsObject<BatchCaseOptions>(c.options);
  const options: ApplyEditsOptions = {
    ...rest,
    target: c.path,
    dryRun: ctx.dryRun ?? false,
    ...(c.format !== undefined && { format: c.format }),
    ...(history !== undefined && { history: { [c.path]: history } }),
  };
  const result = await applyEdits(ctx.root, c.edit, options);
  const file = result.files[0];
  const edits = file ? file.edits.map(plainReport) : [];
  const first = result.errors[0] ?? file?.error ?? file?.edits.find((e) => e.status === "failed")?.error;
  return {
    id,
    ok: result.ok,
    ...(first && !result.ok && { error: errorData(first) }),
    report: { status: file?.status ?? "failed", applied: result.applied, failed: result.failed, alreadyApplied: result.alreadyApplied, edits, written: result.written },
  };
}

/** The text as the file layer reads a file of these bytes: without its BOM, uniform CRLF as LF. */
function readText(content: string, path: string): { text: string; layout: TextLayout } {
  if (!content.includes("\r") && content.charCodeAt(0) !== 0xfeff) return { text: content, layout: { bom: false, crlf: false } };
  return decodeText(Buffer.from(content, "utf8"), path, true);
}

function detect(c: BatchCase, reverse: boolean): DetectedEdits {
  const found = typeof c.edit === "string" ? detectEdits(c.edit, c.format ?? "auto", { defaultPath: c.path }) : fromStructuredEdits(c.edit);
  const rewritten = rewriteEdits(found.edits, { target: c.path, reverse });
  return { edits: rewritten.edits, errors: [...found.errors, ...rewritten.errors] };
}

/** A case with content: every edit applied in memory, in order, as the file layer applies a file's edits. */
async function applyToText(c: BatchCase, id: string | number): Promise<{ result: BatchResult; delta?: TextDelta }> {
  const { history = [], reverse = false, ...engineInput } = optionsObject<BatchCaseOptions>(c.options);
  // Resolved here only to check the options (a bad one fails the case) and read the response's
  // limit; a case without options has the defaults, and the format's apply resolves them for its
  // run: one resolve a case instead of two (each allocates its budget and search allowance).
  const maxResponseSize = c.options === undefined ? DEFAULT_LIMITS.maxResponseSize : resolveOptions(engineInput).limits.maxResponseSize;
  const engine: EngineOptions = engineInput;
  if (typeof c.edit === "string") {
    const tooLarge = overLimit("maxResponseSize", c.edit.length, { ...DEFAULT_LIMITS, maxResponseSize });
    if (tooLarge) return { result: failedCase(id, tooLarge) };
  }
  const detected = detect(c, reverse);
  if (detected.errors.length > 0 || detected.edits.length === 0) {
    return { result: failedCase(id, detected.errors[0] ?? new EditError("PARSE", "No edits found in the input.")) };
  }
  const { text, layout } = readText(c.content as string, c.path);
  let current = text;
  const edits: EditReport[] = [];
  let deleted = false;
  // The change of the one edit that gave a text, as its format said it (undefined: not said, or several edits gave one).
  let delta: TextDelta | undefined;
  let changedBy = 0;
  for (const [index, edit] of detected.edits.entries()) {
    // A file is there once the case's text or an edit's result is, however empty an edit made it (as the file layer has it).
    const outcome = await applyOne(edit, index, current, c.path, engine, history, text !== "" || changedBy > 0);
    for (const r of outcome.reports) edits.push(r);
    const next = outcome.result?.content;
    if (next !== undefined) {
      const changes = outcome.result?.changes;
      delta = changedBy++ === 0 && changes ? changesDelta(current, changes) : undefined;
      current = next;
    }
    if (outcome.result?.deleted) deleted = true;
  }
  const count = (s: EditReport["status"]) => edits.filter((e) => e.status === s).length;
  const failed = count("failed");
  const ok = failed === 0;
  const status: FileStatus = !ok ? "failed" : deleted ? "deleted" : text === "" && current !== "" ? "created" : current === text ? "unchanged" : "modified";
  const firstError = edits.find((e) => e.error)?.error;
  const result: BatchResult = {
    id,
    ok,
    ...(ok && { content: deleted ? "" : layout.bom || layout.crlf ? encodeText(current, layout).toString("utf8") : current }),
    ...(firstError && { error: errorData(firstError) }),
    report: { status, applied: count("applied"), failed, alreadyApplied: count("already-applied"), edits: edits.map(plainReport) },
  };
  // The text as read is the case's content only without a BOM or CRLF; the result's text, as changed, only when not deleted.
  const plainText = text === c.content && !deleted;
  if (!ok || result.content === undefined) return { result };
  if (changedBy === 0 && plainText) return { result, delta: { start: 0, tail: text.length, middle: "" } };
  return delta && plainText ? { result, delta } : { result };
}

/** One edit, as the file layer's planEdit applies it to a file's current text. */
async function applyOne(
  edit: FileEdit,
  index: number,
  current: string,
  path: string,
  engine: EngineOptions,
  versions: readonly string[],
  exists: boolean,
): Promise<{ reports: EditReport[]; result?: FileApplyResult }> {
  const entry = formatByName(edit.format);
  if (!entry) return { reports: [{ index, format: edit.format, status: "failed", error: new EditError("INVALID_INPUT", `No format "${edit.format}".`, { path, index }) }] };
  const ctx: FileApplyContext = { path, exists, options: engine, ...(versions.length > 0 && { versions }) };
  const run = (): FileApplyResult | EditError => {
    try {
      return entry.apply(current, edit as FileEdit<never>, ctx);
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      return error;
    }
  };
  try {
    const ready = readyJudge(path, current);
    const weighed = ready ? runJudged(run, ctx, engine, ready) : await runProbed(run, ctx, engine, path, current);
    const { tied, judge } = weighed;
    const now = weighed.now;
    const merged = versions.length > 0 ? applyFromHistory(entry, edit, current, versions, ctx, now) : undefined;
    if (!merged && now instanceof EditError) throw now;
    const result = merged ?? (now as FileApplyResult);
    const notes = result.ops.map((op) => (op.status === "failed" && op.error ? alreadyAppliedNote(op.error, entry.unit) : undefined));
    if (result.content === undefined && notes.length > 0 && notes.every((n) => n !== undefined)) {
      return { reports: notes.map((note) => alreadyAppliedReport(index, edit.format, note as EditError, path)) };
    }
    const reports = result.ops.map((op, k) => {
      const report = opReport(index, edit.format, op, path, new Map());
      if (judge && tied.has(k) && report.status === "applied") report.bySyntax = true;
      return report;
    });
    return { reports, result };
  } catch (error) {
    const e = asEditError(error);
    const note = alreadyAppliedNote(e, entry.unit);
    if (note) return { reports: [alreadyAppliedReport(index, edit.format, note, path)] };
    if (e.detail.path === undefined) e.detail.path = path;
    if (e.detail.index === undefined) e.detail.index = index;
    return { reports: [{ index, format: edit.format, status: "failed", error: e }] };
  }
}

/** An edit's outcome, the ops it tied without a judge, and the judge that weighed them (undefined: none was asked). */
interface Weighed {
  now: FileApplyResult | EditError;
  tied: Set<number>;
  judge?: SyntaxJudge;
}

/** A judge that tells nothing, for a history merge after a run that never asked one (as the probe stays). */
const silentJudge: SyntaxJudge = () => undefined;

/**
 * The first time a file's grammar is needed: a run with the probe, then, when
 * it was asked (a tie between places, or inside one), once more with the
 * syntax judge, as the file layer does (engine/syntax-decide.ts). A tie it
 * was never asked about (an exact match is never weighed: 53 of the 59 ties
 * of the real edits) would not ask the judge either: not run again.
 */
async function runProbed(run: () => FileApplyResult | EditError, ctx: FileApplyContext, engine: EngineOptions, path: string, current: string): Promise<Weighed> {
  const probe = probeJudge(path, current);
  if (probe) ctx.options = { ...engine, syntaxJudge: probe.judge };
  const now = run();
  const tied = tiedOps(now);
  const judge = probe?.asked() ? await judgeFor(path, current) : undefined;
  if (!judge) return { now, tied };
  ctx.options = { ...engine, syntaxJudge: judge };
  return { now: run(), tied, judge };
}

/**
 * With the judge and the grammar loaded already (a batch meets the same
 * languages again): one run with the judge from the start, the outcome
 * `runProbed` ends with. A judge decides a tie only when it finds an error
 * in some reading (syntax-decide.ts: one reading clean, every other broken);
 * while it finds none, the run is the one without a judge, whose ties it
 * reports as they are. When it does find one, the run without a judge is
 * made too, for the ties it had (`bySyntax`). Measured on the real edits: the
 * 7 Python ties (every reading parsing clean) each ran the cascade twice on
 * files of 2-177 kB, ~15 ms of CPU a second run on the largest.
 */
function runJudged(run: () => FileApplyResult | EditError, ctx: FileApplyContext, engine: EngineOptions, ready: SyntaxJudge): Weighed {
  let asked = false;
  let broke = false;
  const judge: SyntaxJudge = (before, after) => {
    asked = true;
    const introduced = ready(before, after);
    if (introduced !== undefined && introduced > 0) broke = true;
    return introduced;
  };
  // A tie no verdict decides: asked, and nothing broken that the run without a judge would not have.
  const noteTie = () => {
    asked = true;
  };
  ctx.options = { ...engine, syntaxJudge: Object.assign(judge, { noteTie }) };
  const now = run();
  let tied = tiedOps(now);
  if (broke) {
    ctx.options = { ...engine, syntaxJudge: silentJudge };
    tied = tiedOps(run());
  }
  // The history merge weighs with the judge when the edit's run asked it, as after `runProbed`.
  ctx.options = { ...engine, syntaxJudge: asked ? ready : silentJudge };
  return asked ? { now, tied, judge: ready } : { now, tied };
}
