/**
 * The appliers measured on the same cases: fuzzpatch's public API with each
 * preset, and baselines — an exact-only applier (unique exact match or
 * refuse), jsdiff's `applyPatch` at fuzz 0 and 2, and GNU `patch`.
 *
 * fuzzpatch is loaded dynamically from `src/index.ts` so the benchmark runs
 * while the API is still growing: a format whose function is not exported yet
 * is skipped with a note.
 *
 * A case with a history (the version the model read, `stale-history`) goes
 * to fuzzpatch through the file layer, `applyEdits` from `src/node.ts`, the
 * only API that takes one; baselines get the current file and the edit.
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { performance } from "node:perf_hooks";
import { applyPatch as jsdiffApplyPatch } from "diff";
import type { RenderedEdit } from "./render.ts";
import { type BenchCase, FORMATS, type Format } from "./types.ts";

export type OutcomeStatus = "applied" | "refused" | "crashed";

export interface Outcome {
  status: OutcomeStatus;
  /** The new content, when applied. */
  content?: string;
  /** EditError code (or a baseline's reason), when refused; the error text when crashed. */
  code?: string;
  message?: string;
  ms: number;
}

export interface Applier {
  /** Stable id used in tables and JSON. */
  name: string;
  formats: readonly Format[];
  /** Applies one rendered edit; may throw (the harness catches). */
  apply(edit: RenderedEdit, content: string): Omit<Outcome, "ms">;
  /**
   * Applies an edit written against `history`, an earlier version of the
   * file that is now `content`; `path` is the file name the edit uses.
   * Appliers without it get `apply`, and no history.
   */
  applyWithHistory?(edit: RenderedEdit, content: string, history: string, path: string): Promise<Omit<Outcome, "ms">>;
  /** Releases temporary files. */
  dispose?(): void;
}

function refused(code: string, message = ""): Omit<Outcome, "ms"> {
  return { status: "refused", code, message };
}

/** Replaces the find text where it occurs exactly once; refuses otherwise. */
export function applyExactly(content: string, find: string, replace: string): Omit<Outcome, "ms"> {
  const at = content.indexOf(find);
  if (find === "" || at < 0) return refused("NOT_FOUND");
  if (content.indexOf(find, at + 1) >= 0) return refused("AMBIGUOUS");
  return { status: "applied", content: content.slice(0, at) + replace + content.slice(at + find.length) };
}

export const exactApplier: Applier = {
  name: "exact",
  formats: FORMATS,
  apply: (edit, content) => applyExactly(content, edit.find, edit.replace),
};

function jsdiffApplier(fuzzFactor: number): Applier {
  return {
    name: `jsdiff-fuzz${fuzzFactor}`,
    formats: ["udiff"],
    apply(edit, content) {
      const out = jsdiffApplyPatch(content, edit.text, { fuzzFactor });
      return out === false ? refused("NOT_APPLIED") : { status: "applied", content: out };
    },
  };
}

function gnuPatchApplier(binary: string): Applier {
  const dir = mkdtempSync(join(tmpdir(), "fuzzpatch-accuracy-"));
  const original = join(dir, "file");
  const output = join(dir, "out");
  return {
    name: "gnu-patch",
    formats: ["udiff"],
    apply(edit, content) {
      writeFileSync(original, content);
      rmSync(output, { force: true });
      // -r - discards reject files; --batch never asks; fuzz is patch's default (2).
      const run = spawnSync(binary, ["--batch", "--silent", "--no-backup-if-mismatch", "-r", "-", "-o", output, original], {
        input: edit.text,
        encoding: "utf8",
        timeout: 10_000,
      });
      if (run.status !== 0 || !existsSync(output)) return refused(`exit ${run.status ?? "signal"}`, `${run.stdout}${run.stderr}`.trim());
      return { status: "applied", content: readFileSync(output, "utf8") };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface FuzzpatchApi {
  replace?: (content: string, oldString: string, newString: string, options?: object) => { content: string };
  applySearchReplace?: (
    content: string,
    diffText: string,
    options?: object,
  ) => { content: string; failed: unknown[]; applied: unknown[]; alreadyApplied?: unknown[] };
  applyPatch?: (content: string, patchText: string, options?: object) => { content: string };
  applyV4A?: (content: string, diff: string, options?: object) => { content: string };
}

interface EditReportLike {
  status: string;
  error?: { code?: string; message?: string };
}

/** An edit given to `applyEdits` as data: a str_replace pair or a diff, for one path. */
type StructuredInput = { path: string; oldString: string; newString: string } | { path: string; diff: string };

/** What the benchmark uses of `applyEdits` (src/node.ts). */
type ApplyEditsFn = (
  root: string,
  input: string | StructuredInput[],
  options: { preset: string; history: Record<string, string[]>; target: string },
) => Promise<{ ok: boolean; files: { error?: EditReportLike["error"]; edits: EditReportLike[] }[]; errors: { code?: string; message?: string }[] }>;

/**
 * The edit as the file layer takes it: str_replace and diffs as structured
 * edits, a SEARCH/REPLACE block (which has no structured form) as a response
 * fenced under the file's name. Structured, not a response text, so the case
 * measures history and not response parsing: a bare diff of a markdown file
 * whose lines hold a code fence (" ```ts") is cut at the fence when read as a
 * response.
 */
function fileLayerInput(edit: RenderedEdit, path: string): string | StructuredInput[] {
  switch (edit.format) {
    case "str_replace":
      return [{ path, oldString: edit.oldString, newString: edit.newString }];
    case "search_replace":
      return `${path}\n\`\`\`\n${edit.text}\`\`\`\n`;
    default:
      return [{ path, diff: edit.text }];
  }
}

function errorCode(error: unknown): string | undefined {
  if (error instanceof Error && error.name === "EditError") return String((error as { code?: unknown }).code ?? "EditError");
  return undefined;
}

/** First code found in a `failed` entry of applySearchReplace (its exact shape is the API's business). */
function failedCode(failed: unknown[]): string {
  const first = failed[0] as { error?: unknown; code?: unknown } | undefined;
  return errorCode(first?.error) ?? (typeof first?.code === "string" ? first.code : "FAILED");
}

function fuzzpatchApplier(api: FuzzpatchApi, preset: "default" | "opencode", formats: Format[], applyEdits: ApplyEditsFn | undefined): Applier {
  const options = { preset };
  let dir: string | undefined;
  // The file layer writes a real file: the current content goes to a temporary directory, the result is read back.
  const applyWithHistory: Applier["applyWithHistory"] =
    applyEdits &&
    (async (edit, content, history, path) => {
      dir ??= mkdtempSync(join(tmpdir(), "fuzzpatch-accuracy-history-"));
      const file = join(dir, path);
      writeFileSync(file, content);
      const result = await applyEdits(dir, fileLayerInput(edit, path), { preset, history: { [path]: [history] }, target: path });
      if (result.ok) return { status: "applied", content: readFileSync(file, "utf8") };
      const errors = result.files.flatMap((f) => [f.error, ...f.edits.filter((e) => e.status === "failed").map((e) => e.error)]);
      const error = errors.find((e) => e !== undefined) ?? result.errors[0];
      return refused(error?.code ?? "FAILED", error?.message ?? "");
    });
  return {
    name: preset === "default" ? "fuzzpatch" : "fuzzpatch-opencode",
    formats,
    apply(edit, content) {
      try {
        switch (edit.format) {
          case "str_replace": {
            const opts = edit.startLine === undefined ? options : { ...options, startLine: edit.startLine };
            return { status: "applied", content: (api.replace as NonNullable<FuzzpatchApi["replace"]>)(content, edit.oldString, edit.newString, opts).content };
          }
          case "search_replace": {
            const result = (api.applySearchReplace as NonNullable<FuzzpatchApi["applySearchReplace"]>)(content, edit.text, options);
            if (result.failed.length > 0) return refused(failedCode(result.failed));
            // Blocks found already applied change nothing and are no failure (`resent`): the content is the outcome.
            if (result.applied.length === 0 && (result.alreadyApplied?.length ?? 0) === 0) return refused("NOTHING_APPLIED");
            return { status: "applied", content: result.content };
          }
          case "v4a":
            return { status: "applied", content: (api.applyV4A as NonNullable<FuzzpatchApi["applyV4A"]>)(content, edit.text, options).content };
          default:
            return { status: "applied", content: (api.applyPatch as NonNullable<FuzzpatchApi["applyPatch"]>)(content, edit.text, options).content };
        }
      } catch (error) {
        const code = errorCode(error);
        if (code === undefined) throw error;
        return refused(code, (error as Error).message);
      }
    },
    ...(applyWithHistory && { applyWithHistory }),
    dispose: () => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LoadedAppliers {
  appliers: Applier[];
  /** What is missing and skipped (an API function not exported yet, no GNU patch). */
  notes: string[];
}

/** Every applier available in this checkout, fuzzpatch presets first. */
export async function loadAppliers(): Promise<LoadedAppliers> {
  const notes: string[] = [];
  const appliers: Applier[] = [];
  let api: FuzzpatchApi = {};
  try {
    api = (await import("../../src/index.ts")) as FuzzpatchApi;
  } catch (error) {
    notes.push(`fuzzpatch could not be loaded from src/index.ts (${(error as Error).message}); only baselines run.`);
  }
  let applyEdits: ApplyEditsFn | undefined;
  try {
    const node = (await import("../../src/node.ts")) as { applyEdits?: unknown };
    if (typeof node.applyEdits === "function") applyEdits = node.applyEdits as ApplyEditsFn;
  } catch {
    // Noted below.
  }
  if (!applyEdits) notes.push("fuzzpatch: src/node.ts exports no applyEdits(); cases with a history run without it.");
  const formats: Format[] = [];
  const byFormat: [Format, keyof FuzzpatchApi][] = [
    ["str_replace", "replace"],
    ["search_replace", "applySearchReplace"],
    ["udiff", "applyPatch"],
    ["fudiff", "applyPatch"],
    ["v4a", "applyV4A"],
  ];
  for (const [format, fn] of byFormat) {
    if (typeof api[fn] === "function") formats.push(format);
    else notes.push(`${format}: fuzzpatch does not export ${fn}() yet; only baselines run for this format.`);
  }
  if (formats.length > 0) {
    appliers.push(fuzzpatchApplier(api, "default", formats, applyEdits), fuzzpatchApplier(api, "opencode", formats, applyEdits));
  }
  appliers.push(exactApplier, jsdiffApplier(0), jsdiffApplier(2));
  const patchBinary = ["/usr/bin/patch", "/bin/patch", "/usr/local/bin/patch"].find((p) => existsSync(p));
  if (patchBinary) appliers.push(gnuPatchApplier(patchBinary));
  else notes.push("GNU patch not found: its baseline is skipped.");
  return { appliers, notes };
}

function crashed(error: unknown, started: number): Outcome {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { status: "crashed", code: "CRASH", message, ms: performance.now() - started };
}

/** Runs an applier on one edit; never throws (a throw that is not an EditError is a crash). */
export function runApplier(applier: Applier, edit: RenderedEdit, content: string): Outcome {
  const started = performance.now();
  try {
    const out = applier.apply(edit, content);
    return { ...out, ms: performance.now() - started };
  } catch (error) {
    return crashed(error, started);
  }
}

/** Runs an applier on a case's edit: with the case's history where both exist, else as runApplier. */
export async function runCase(applier: Applier, edit: RenderedEdit, c: Pick<BenchCase, "content" | "history" | "file">): Promise<Outcome> {
  if (c.history === undefined || !applier.applyWithHistory) return runApplier(applier, edit, c.content);
  const started = performance.now();
  try {
    const out = await applier.applyWithHistory(edit, c.content, c.history, basename(c.file));
    return { ...out, ms: performance.now() - started };
  } catch (error) {
    return crashed(error, started);
  }
}
