/**
 * `applyEdits`: applies a model's response (or structured edits) to files
 * under a root directory. Every change is computed in memory first; only
 * when all of them succeed (or, with `partial`, for the files whose edits all
 * succeeded) are files written, atomically and as one transaction.
 */

import { stat } from "node:fs/promises";
import { createTwoFilesPatch } from "diff";
import { EditError } from "../errors.ts";
import { type CoreEngine, type CoreMatch, loadCoreEngine } from "./core-bridge.ts";
import {
  asEditError,
  type DetectedEdits,
  detectEdits,
  type EditFormat,
  type FileEdit,
  fromStructuredEdits,
  type ResponseFormat,
  type StructuredEdit,
} from "./detect-response.ts";
import { encodeText, type LoadedFile, loadTextFile } from "./read-file.ts";
import { resolveRoot, resolveSafePath } from "./safe-path.ts";
import { commitChanges, type PlannedChange, type TransactionHooks } from "./transaction.ts";

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
  error: EditError;
  candidates: { startLine: number; endLine: number }[];
}

export interface ApplyEditsOptions {
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
   * Compute and report everything, write nothing.
   * @default false
   */
  dryRun?: boolean;
  /**
   * Matcher preset passed to the core.
   * @default "default"
   */
  preset?: "default" | "opencode";
  /**
   * Per path (relative to root): what the model saw. A mismatch fails the
   * file's edits with `STALE`. A string is a sha256 hash.
   * @default {}
   */
  expected?: Record<string, ExpectedFile | string>;
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
   * Called for an ambiguous str_replace or SEARCH/REPLACE edit; returns the
   * index of the candidate to use, or `null` to leave the edit failed.
   * @default undefined (ambiguity fails the edit)
   */
  chooseCandidate?: (choice: AmbiguityChoice) => Promise<number | null>;
  /**
   * Hooks into the write transaction (failure injection in tests).
   * @default {}
   */
  hooks?: TransactionHooks;
}

export interface EditReport {
  /** Index of the edit in the input (across all files). */
  index: number;
  format: EditFormat;
  status: "applied" | "failed";
  strategy?: string;
  startLine?: number;
  endLine?: number;
  score?: number;
  /** True when the match was not exact. */
  fuzzy?: boolean;
  error?: EditError;
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
  /** Errors not tied to one edit: unreadable input, no edits found, a failed write. */
  errors: EditError[];
  /** The unified diff of every change, concatenated. */
  diff: string;
}

const DEFAULTS = Object.freeze({
  format: "auto" as ResponseFormat,
  partial: false,
  dryRun: false,
  preset: "default" as "default" | "opencode",
  maxFileBytes: 10 * 1024 * 1024,
  allowBinary: false,
});

interface FilePlan {
  report: FileReport;
  loaded?: LoadedFile;
  abs?: string;
  newText?: string;
  deleted: boolean;
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
  const opts: ResolvedOptions = { ...options, ...DEFAULTS, ...stripUndefined(options) } as ResolvedOptions;
  const engine = await loadCoreEngine();
  const realRoot = await resolveRoot(root);

  const detected: DetectedEdits = typeof input === "string" ? detectEdits(input, opts.format, engine) : fromStructuredEdits(input, engine);
  const errors = [...detected.errors];
  if (detected.edits.length === 0 && errors.length === 0) {
    errors.push(
      new EditError(
        "PARSE",
        "No edits found in the input. Send SEARCH/REPLACE blocks after a file name, a unified diff with --- / +++ headers, or a fenced JSON edit {\"path\", \"oldString\", \"newString\"}.",
      ),
    );
  }

  // Group edits by the file they reach, in order of first appearance: two
  // names of one file (a symlink, a hard link) share one plan, so their edits
  // apply in order to one text instead of the second write undoing the first.
  const plans = new Map<string, FilePlan>();
  const planOrder: FilePlan[] = [];
  for (const [index, edit] of detected.edits.entries()) {
    let key: string;
    let rel = edit.path;
    let abs: string | undefined;
    let pathError: EditError | undefined;
    try {
      const safe = await resolveSafePath(realRoot, edit.path);
      key = await fileIdentity(safe.abs);
      rel = safe.rel;
      abs = safe.abs;
    } catch (error) {
      key = `\0${edit.path}`;
      pathError = asEditError(error, "IO");
    }
    let plan = plans.get(key);
    if (!plan) {
      plan = {
        report: { path: rel, status: "failed", written: false, edits: [], diff: "", ...(pathError && { error: pathError }) },
        ...(abs !== undefined && { abs }),
        deleted: false,
      };
      plans.set(key, plan);
      planOrder.push(plan);
    }
    await planEdit(plan, edit, index, engine, opts);
  }

  for (const plan of planOrder) finishPlan(plan);

  const anyFailed = errors.length > 0 || planOrder.some((p) => p.report.status === "failed");
  const toWrite = opts.dryRun || (anyFailed && !opts.partial) ? [] : planOrder.filter((p) => p.report.status !== "failed" && p.report.status !== "unchanged");
  const changes: PlannedChange[] = toWrite.map((p) => toChange(p));
  let written = false;
  if (changes.length > 0) {
    try {
      await commitChanges(changes, opts.hooks);
      for (const p of toWrite) p.report.written = true;
      written = true;
    } catch (error) {
      const failure = asEditError(error, "IO");
      errors.push(failure);
      // A file changed by someone else meanwhile fails as that file's error.
      const culprit = toWrite.find((p) => p.report.path === failure.detail.path);
      if (culprit && (failure.code === "STALE" || failure.code === "UNSAFE_PATH")) {
        culprit.report.error = failure;
        culprit.report.status = "failed";
      }
    }
  }

  const files = planOrder.map((p) => p.report);
  const applied = files.reduce((n, f) => n + f.edits.filter((e) => e.status === "applied").length, 0);
  const failed = files.reduce((n, f) => n + f.edits.filter((e) => e.status === "failed").length, 0);
  const ok = failed === 0 && errors.length === 0;
  return {
    ok,
    written,
    dryRun: opts.dryRun,
    files,
    applied,
    failed,
    errors,
    diff: files.map((f) => f.diff).join(""),
  };
}

type ResolvedOptions = ApplyEditsOptions & { -readonly [K in keyof typeof DEFAULTS]: (typeof DEFAULTS)[K] };

async function planEdit(plan: FilePlan, edit: FileEdit, index: number, engine: CoreEngine, opts: ResolvedOptions): Promise<void> {
  const report = plan.report;
  const fail = (error: EditError) => {
    report.edits.push({ index, format: edit.format, status: "failed", error });
  };
  if (report.error) return fail(report.error);
  if (plan.abs === undefined) return fail(new EditError("UNSAFE_PATH", `No usable path for ${edit.path}.`, { path: edit.path }));

  if (!plan.loaded) {
    try {
      plan.loaded = await loadTextFile(plan.abs, report.path, { maxBytes: opts.maxFileBytes, allowBinary: opts.allowBinary });
      plan.newText = plan.loaded.text;
    } catch (error) {
      report.error = asEditError(error, "IO");
      return fail(report.error);
    }
    const stale = checkStale(report.path, plan.loaded, opts.expected?.[report.path] ?? opts.expected?.[edit.path]);
    if (stale) {
      report.error = stale;
      return fail(stale);
    }
  }
  const guard = checkStale(report.path, plan.loaded, expectedOf(edit));
  if (guard) return fail(guard);

  const loaded = plan.loaded;
  const current = plan.newText ?? "";
  const exists = loaded.exists && !plan.deleted;
  if (plan.deleted) {
    return fail(new EditError("CONFLICT", `${report.path} is deleted by an earlier edit in this input; it cannot be edited after.`, { path: report.path, index }));
  }
  try {
    switch (edit.format) {
      case "str-replace": {
        if (!exists && edit.oldString !== "") throw missingFile(report.path, 'an empty "oldString"');
        if (exists && edit.oldString === "" && current !== "") {
          throw new EditError(
            "INVALID_INPUT",
            `${report.path} already exists and is not empty; an empty "oldString" only creates new files. Quote the text to replace in "oldString".`,
            { path: report.path, index },
          );
        }
        let result: { content: string; match: CoreMatch };
        try {
          result = engine.replace(current, edit.oldString, edit.newString, { replaceAll: edit.replaceAll ?? false, preset: opts.preset });
        } catch (error) {
          const picked = await pickCandidate(error, report.path, index, current, opts, (slice) =>
            engine.replace(slice, edit.oldString, edit.newString, { preset: opts.preset }),
          );
          if (!picked) throw error;
          result = picked;
        }
        plan.newText = result.content;
        report.edits.push(appliedReport(index, edit.format, result.match));
        return;
      }
      case "search-replace": {
        const options = { preset: opts.preset, ...(edit.startLine !== undefined && { startLine: edit.startLine }) };
        let diff = edit.diff;
        let base = current;
        if (current === "") {
          // An empty SEARCH creates a missing (or empty) file: the core only
          // edits existing text, so the file layer takes that block itself.
          const blocks = engine.parseSearchReplace(edit.diff);
          const first = blocks[0];
          if (first && first.search.trim() === "") {
            base = first.replace === "" || first.replace.endsWith("\n") ? first.replace : `${first.replace}\n`;
            report.edits.push({ index, format: edit.format, status: "applied", strategy: "create", startLine: 1, endLine: base.split("\n").length - 1 });
            if (blocks.length === 1) {
              plan.newText = base;
              return;
            }
            diff = blocks
              .slice(1)
              .map((b) => `<<<<<<< SEARCH\n${b.search}\n=======\n${b.replace}\n>>>>>>> REPLACE`)
              .join("\n");
          }
        }
        const sawFile = exists || base !== current;
        const result = engine.applySearchReplace(base, diff, options);
        let text = result.content;
        const applied = [...result.applied];
        const failures: EditError[] = [];
        for (const failure of result.failed) {
          const picked = await pickCandidate(failure, report.path, index, text, opts, (slice) => {
            const r = engine.applySearchReplace(slice, edit.diff, { preset: opts.preset });
            if (r.failed.length > 0 || r.applied.length !== 1) throw r.failed[0] ?? failure;
            return { content: r.content, match: r.applied[0] as CoreMatch };
          });
          if (picked && result.failed.length === 1 && result.applied.length === 0) {
            text = picked.content;
            applied.push(picked.match);
          } else {
            failures.push(failure);
          }
        }
        // On a missing file every SEARCH fails against empty text; say what is really wrong.
        if (!sawFile && failures.length > 0) throw missingFile(report.path, "an empty SEARCH section");
        for (const m of applied) report.edits.push(appliedReport(index, edit.format, m));
        for (const f of failures) {
          report.edits.push({ index, format: edit.format, status: "failed", error: withPath(f, report.path, index) });
        }
        if (failures.length === 0) plan.newText = text;
        if (!sawFile && failures.length === 0 && applied.length === 0) throw missingFile(report.path, "an empty SEARCH section");
        return;
      }
      case "udiff": {
        if (edit.isNew && exists && current !== "") {
          throw new EditError(
            "CONFLICT",
            `The diff creates ${report.path} (--- /dev/null), but the file already exists. Send a diff against its current content instead.`,
            { path: report.path, index },
          );
        }
        if (!edit.isNew && !exists) throw missingFile(report.path, "a diff from --- /dev/null");
        const hasHunks = /^@@/m.test(edit.patch);
        if (edit.isDeleted && !hasHunks) {
          plan.deleted = true;
          report.edits.push({ index, format: edit.format, status: "applied", strategy: "delete" });
          return;
        }
        const result = engine.applyPatch(edit.isNew ? "" : current, edit.patch, { preset: opts.preset });
        if (edit.isDeleted) {
          if (result.content.trim() !== "") {
            throw new EditError(
              "CONFLICT",
              `The diff deletes ${report.path} (+++ /dev/null) but does not remove all of its lines; the file holds more than the diff shows. Send the whole content as removed lines, or a diff that edits it.`,
              { path: report.path, index },
            );
          }
          plan.deleted = true;
        }
        plan.newText = result.content;
        const hunks = result.hunks.length > 0 ? result.hunks : [{ strategy: "exact" }];
        for (const h of hunks) report.edits.push(appliedReport(index, edit.format, h));
        return;
      }
    }
  } catch (error) {
    fail(withPath(asEditError(error, "INVALID_INPUT"), report.path, index));
  }
}

/** Interactive disambiguation: applies the edit inside the chosen candidate's lines only. */
async function pickCandidate(
  error: unknown,
  path: string,
  index: number,
  text: string,
  opts: ResolvedOptions,
  applyInSlice: (slice: string) => { content: string; match: CoreMatch },
): Promise<{ content: string; match: CoreMatch } | null> {
  if (!opts.chooseCandidate || !(error instanceof EditError) || error.code !== "AMBIGUOUS") return null;
  const candidates = (error.detail.candidates ?? []).map((c) => ({ startLine: c.startLine, endLine: c.endLine }));
  if (candidates.length < 2) return null;
  const choice = await opts.chooseCandidate({ path, index, text, error, candidates });
  const picked = choice === null ? undefined : candidates[choice];
  if (!picked) return null;
  // Cut the chosen lines out, apply the edit there (where it is unique), and
  // splice the result back: bytes outside the chosen lines never change.
  const lines = text.split("\n");
  const start = picked.startLine - 1;
  const end = picked.endLine;
  const before = lines.slice(0, start);
  const slice = lines.slice(start, end).join("\n");
  const after = lines.slice(end);
  let result: { content: string; match: CoreMatch };
  try {
    result = applyInSlice(slice);
  } catch {
    return null;
  }
  const content = [...before, result.content, ...after].join("\n");
  const shift = (n: unknown) => (typeof n === "number" ? n + start : n);
  return {
    content,
    match: { ...result.match, startLine: shift(result.match.startLine) as number, endLine: shift(result.match.endLine) as number, chosen: true },
  };
}

function finishPlan(plan: FilePlan): void {
  const report = plan.report;
  if (report.error || report.edits.some((e) => e.status === "failed") || !plan.loaded) {
    report.status = "failed";
    return;
  }
  const oldText = plan.loaded.exists ? plan.loaded.text : "";
  if (plan.deleted) report.status = "deleted";
  else if (!plan.loaded.exists) report.status = "created";
  else report.status = plan.newText === oldText ? "unchanged" : "modified";
  if (report.status === "unchanged") return;
  report.diff = createTwoFilesPatch(
    plan.loaded.exists ? `a/${report.path}` : "/dev/null",
    plan.deleted ? "/dev/null" : `b/${report.path}`,
    oldText,
    plan.deleted ? "" : (plan.newText ?? ""),
    undefined,
    undefined,
    { context: 3 },
  ).replace(/^=+\n/m, "");
}

function toChange(plan: FilePlan): PlannedChange {
  const loaded = plan.loaded as LoadedFile;
  const kind = plan.deleted ? "delete" : loaded.exists ? "write" : "create";
  return {
    rel: plan.report.path,
    abs: plan.abs as string,
    kind,
    bytes: plan.deleted ? new Uint8Array() : encodeText(plan.newText ?? "", loaded.layout),
    original: loaded.bytes,
    ...(loaded.mode !== undefined && { mode: loaded.mode }),
  };
}

/** Strategies that place an edit without any approximation. */
const EXACT_STRATEGIES = new Set(["exact", "create", "delete"]);

function appliedReport(index: number, format: EditFormat, match: CoreMatch): EditReport {
  const report: EditReport = { index, format, status: "applied" };
  if (typeof match.strategy === "string") report.strategy = match.strategy;
  if (typeof match.startLine === "number") report.startLine = match.startLine;
  if (typeof match.endLine === "number") report.endLine = match.endLine;
  if (typeof match.score === "number") report.score = match.score;
  // The core says which matches were fuzzy; older shapes are judged by strategy and score.
  report.fuzzy =
    typeof match.fuzzy === "boolean"
      ? match.fuzzy
      : (report.strategy !== undefined && !EXACT_STRATEGIES.has(report.strategy)) || (report.score !== undefined && report.score < 1);
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
      const changes = createTwoFilesPatch(`${path} (as you read it)`, `${path} (now)`, seen, now, undefined, undefined, { context: 1 })
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

function changedLineNumbers(a: string, b: string): number[] {
  const x = a.split("\n");
  const y = b.split("\n");
  const out: number[] = [];
  for (let i = 0; i < Math.max(x.length, y.length) && out.length < 100; i++) if (x[i] !== y[i]) out.push(i + 1);
  return out;
}

function missingFile(path: string, howToCreate: string): EditError {
  return new EditError("NOT_FOUND", `${path} does not exist. To create it, send ${howToCreate}; otherwise check the path.`, { path });
}

function withPath(error: EditError, path: string, index: number): EditError {
  if (error.detail.path === undefined) error.detail.path = path;
  if (error.detail.index === undefined) error.detail.index = index;
  return error;
}

/** The file `abs` reaches: its device and inode when it exists, else its real path. */
async function fileIdentity(abs: string): Promise<string> {
  try {
    const s = await stat(abs);
    return `inode:${s.dev}:${s.ino}`;
  } catch {
    return `path:${abs}`;
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
