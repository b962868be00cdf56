/**
 * The budget properties of issue 14, shared by `test/budget-property.test.ts`
 * (a few dozen inputs each in `npm test`) and `npm run fuzz -- N seed budget`
 * (10^4 and more). Every public entry point, on files and edits up to 64 kB
 * built to reach the slow paths (budget-inputs.ts):
 *
 * - with a generous budget (10 s, a thousand times what these inputs need)
 *   a call returns or throws an EditError, never another error and never
 *   TIMEOUT;
 * - with a tiny budget (an aborted signal, a signal that aborts at the k-th
 *   check, `timeoutMs: 0`) it gives TIMEOUT or a whole result, never part of
 *   one, and `applyEdits` leaves the files byte-identical after a TIMEOUT.
 *
 * Each call's CPU time is measured; the slowest input of each property is
 * kept for the fuzz run's report, and time is asserted only when a bound is
 * set (`setCpuBound`, done by the fuzz run): `npm test` asserts no time.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { EditError } from "../../src/errors.ts";
import { formatByName } from "../../src/formats/index.ts";
import { detectEdits } from "../../src/formats/response.ts";
import { applyPatch, applySearchReplace, createPatch, replace } from "../../src/index.ts";
import { applyEdits } from "../../src/node.ts";
import {
  type BuiltFile,
  buildEdit,
  buildFile,
  describeEdit,
  describeFile,
  type EditSpec,
  editSpec,
  type FileSpec,
  fileSpecUpTo,
  MAX_CHARS,
  type HunkStyle,
  hunk,
  joinFind,
  joinReplace,
  type ResponseStyle,
  response,
  searchReplaceBlock,
  spliced,
} from "./budget-inputs.ts";
import type { FuzzProperty } from "./fuzz-properties.ts";
import { countingSignal } from "./counting-signal.ts";

/** A thousand times what a 64 kB input should need: a TIMEOUT under it is a slow path. */
export const GENEROUS_MS = 10_000;

let cpuBoundMs: number | undefined;
let logSlowerMs: number | undefined;
let reportOnly = false;
/**
 * The fuzz run's settings (npm test asserts no time and prints nothing):
 * each measured call must stay under `boundMs` of CPU time, and each call
 * slower than `logMs` is printed as it happens. With `onlyReport`, time and
 * a TIMEOUT under the generous budget are printed instead of failing the
 * property, so that a long run goes on to the end past the slow paths it
 * finds (a failure stops it and shrinks, each step as slow); an error other
 * than EditError still fails it.
 */
export function setCpuBound(boundMs: number | undefined, logMs?: number, onlyReport = false): void {
  cpuBoundMs = boundMs;
  logSlowerMs = logMs;
  reportOnly = onlyReport;
}

/** The slowest call a property has seen: its CPU time and the input's shape. */
class Slowest {
  ms = 0;
  shape = "none yet";
  calls = 0;
  record(ms: number, shape: () => string): void {
    this.calls++;
    if (ms > this.ms) {
      this.ms = ms;
      this.shape = shape();
    }
  }
  summary(): string {
    return `slowest of ${this.calls} calls: ${this.ms.toFixed(1)} ms CPU, ${this.shape}`;
  }
}

/** Runs `f` (one public call) and measures its CPU time: an EditError is an answer, anything else fails the property. */
function checkTime(slowest: Slowest, ms: number, shape: () => string): void {
  slowest.record(ms, shape);
  if (logSlowerMs !== undefined && ms > logSlowerMs) console.error(`slow: ${ms.toFixed(0)} ms CPU on ${shape()}`);
  if (logSlowerMs !== undefined && slowest.calls % 500 === 0) console.error(`progress: ${slowest.calls} calls, ${slowest.summary().slice(0, 200)}`);
  if (cpuBoundMs !== undefined && !reportOnly) assert.ok(ms <= cpuBoundMs, `${ms.toFixed(0)} ms CPU (bound ${cpuBoundMs} ms) on ${shape()}`);
}

/** A TIMEOUT under the generous budget: a failure, or in a report-only fuzz run a line of the report. */
function timedOut(message: string): void {
  if (reportOnly) console.error(`TIMEOUT: ${message}`);
  else assert.fail(message);
}

function measured<T>(slowest: Slowest, shape: () => string, f: () => T): T | EditError {
  const start = process.cpuUsage();
  let out: T | EditError;
  try {
    out = f();
  } catch (error) {
    if (!(error instanceof EditError)) throw new Error(`threw ${(error as Error)?.name}: ${(error as Error)?.message} on ${shape()}`);
    out = error;
  }
  const spent = process.cpuUsage(start);
  checkTime(slowest, (spent.user + spent.system) / 1000, shape);
  return out;
}

async function measuredAsync<T>(slowest: Slowest, shape: () => string, f: () => Promise<T>): Promise<T> {
  const start = process.cpuUsage();
  const out = await f();
  const spent = process.cpuUsage(start);
  checkTime(slowest, (spent.user + spent.system) / 1000, shape);
  return out;
}

/** With the generous budget, running out of time is a slow path found. */
function notTimedOut(r: unknown, shape: () => string): void {
  if (r instanceof EditError && r.code === "TIMEOUT") timedOut(`TIMEOUT within ${GENEROUS_MS} ms on ${shape()}: ${r.message}`);
  const failed = (r as { failed?: unknown })?.failed;
  if (Array.isArray(failed)) for (const e of failed) assert.notEqual((e as EditError).code, "TIMEOUT", `a block timed out on ${shape()}`);
}

const generous = { timeoutMs: GENEROUS_MS };

const shapeOf = (f: FileSpec, edits: readonly EditSpec[], extra = "") => () => {
  const file = buildFile(f);
  return `${extra}${describeFile(f)}; ${edits.map((e) => describeEdit(file, e)).join("; ")}; spec ${JSON.stringify({ f, edits })}`;
};

// --- the calls, one per entry point -------------------------------------------------
// Each builds its texts first and returns the call alone, so that building
// a 64 kB file (or reading typescript.js once) is not measured as the call.

type HintKind = "none" | "right" | "wrong";
type Call = (options: object) => unknown;

function replaceCall(f: FileSpec, e: EditSpec, replaceAll: boolean, hint: HintKind): Call {
  const file = buildFile(f);
  const b = buildEdit(file, e);
  const [find, repl] = [joinFind(b), joinReplace(b)];
  const startLine = hint === "none" ? undefined : hint === "right" ? b.at + 1 : b.at + 40;
  return (options) => replace(file.raw, find, repl, { ...options, replaceAll, ...(startLine !== undefined && { startLine }) });
}

function searchReplaceCall(f: FileSpec, edits: readonly EditSpec[]): Call {
  const file = buildFile(f);
  const text = edits.map((e) => searchReplaceBlock(buildEdit(file, e))).join("\n");
  return (options) => applySearchReplace(file.raw, text, options);
}

function patchCall(f: FileSpec, edits: readonly EditSpec[], style: HunkStyle): Call {
  const file = buildFile(f);
  const patch = edits.map((e) => hunk(file, buildEdit(file, e), style)).join("");
  return (options) => applyPatch(file.raw, patch, options);
}

const PATH = "src/file.ts";

/** A response detected, then each of its edits applied by its format, as the file layer does (without the disk). */
function detectAndApplyCall(f: FileSpec, edits: readonly EditSpec[], style: ResponseStyle): Call {
  const file = buildFile(f);
  const text = response(PATH, file, edits.map((e) => buildEdit(file, e)), style);
  return (options) => {
    const detected = detectEdits(text);
    let content = file.raw;
    for (const edit of detected.edits) {
      const format = formatByName(edit.format);
      assert.ok(format, `detectEdits gave an edit of unknown format ${edit.format}`);
      const result = format.apply(content, edit as never, { path: edit.path, exists: true, options });
      if (result.content !== undefined) content = result.content;
    }
    return { content, errors: detected.errors };
  };
}

function createPatchCall(f: FileSpec, e: EditSpec, other: FileSpec | null, fuzzy: boolean): () => string {
  const file = buildFile(f);
  const after = other ? buildFile(other).raw : spliced(file, buildEdit(file, e));
  return () => createPatch(file.raw, after, { fuzzy });
}

// --- properties ---------------------------------------------------------------------

const edits = (max: number) => fc.array(editSpec, { minLength: 1, maxLength: max });
/**
 * How many times the edits are sent (issue 39 item 6): the same window again
 * and again is an ambiguous hunk or block each time, on a file of repeated
 * lines thousands of places; ten such hunks took ~8 s of CPU.
 */
const copies = fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.integer({ min: 2, max: 10 }), weight: 1 });
const repeated = <T>(xs: readonly T[], times: number): T[] => Array.from({ length: times }, () => xs).flat();
const hint = fc.constantFrom<HintKind>("none", "right", "wrong");
const hunkStyle = fc.constantFrom<HunkStyle>("fuzzy", "numbered", "numbered-off", "context", "unprefixed-context");
const responseStyle = fc.constantFrom<ResponseStyle>("search-replace", "search-replace-unfenced", "udiff", "json");

function replaceProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: replace, with and without replaceAll and a line hint, answers within a generous budget with a result or an EditError",
    entry: "replace",
    summary: () => slowest.summary(),
    property: fc.property(fileSpec, editSpec, fc.boolean(), hint, (f, e, replaceAll, h) => {
      const shape = shapeOf(f, [e], `replace${replaceAll ? " (replaceAll)" : ""}, hint ${h}: `);
      const call = replaceCall(f, e, replaceAll, h);
      notTimedOut(
        measured(slowest, shape, () => call(generous)),
        shape,
      );
    }),
  };
}

function searchReplaceProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: applySearchReplace, several blocks, answers within a generous budget",
    entry: "applySearchReplace",
    summary: () => slowest.summary(),
    property: fc.property(fileSpec, edits(4), copies, (f, sent, times) => {
      const es = repeated(sent, times);
      const shape = shapeOf(f, es, "applySearchReplace: ");
      const call = searchReplaceCall(f, es);
      notTimedOut(
        measured(slowest, shape, () => call(generous)),
        shape,
      );
    }),
  };
}

function patchProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: applyPatch, @@ @@ and numbered hunks of the same windows, answers within a generous budget",
    entry: "applyPatch",
    summary: () => slowest.summary(),
    property: fc.property(fileSpec, edits(3), hunkStyle, copies, (f, sent, style, times) => {
      const es = repeated(sent, times);
      const shape = shapeOf(f, es, `applyPatch (${style} hunks): `);
      const call = patchCall(f, es, style);
      notTimedOut(
        measured(slowest, shape, () => call(generous)),
        shape,
      );
    }),
  };
}

function detectProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: detectEdits and each edit applied by its format, on a response text, answers within a generous budget",
    entry: "parse",
    summary: () => slowest.summary(),
    property: fc.property(fileSpec, edits(3), responseStyle, (f, es, style) => {
      const shape = shapeOf(f, es, `detectEdits + apply (${style} response): `);
      const call = detectAndApplyCall(f, es, style);
      const r = measured(slowest, shape, () => call(generous));
      notTimedOut(r, shape);
      if (!(r instanceof EditError)) for (const e of (r as { errors: EditError[] }).errors) assert.ok(e instanceof EditError);
    }),
  };
}

function createPatchProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: createPatch of a file and its edit (or another file), and applyPatch of that patch, answer within a generous budget",
    entry: "createPatch",
    summary: () => slowest.summary(),
    property: fc.property(fileSpec, editSpec, fc.option(fileSpec, { freq: 4, nil: null }), fc.boolean(), (f: FileSpec, e: EditSpec, other: FileSpec | null, fuzzy: boolean) => {
      const shape = shapeOf(f, [e], `createPatch (fuzzy ${fuzzy})${other ? ` to ${describeFile(other)} (spec ${JSON.stringify(other)})` : ""}: `);
      const call = createPatchCall(f, e, other, fuzzy);
      const patch = measured(slowest, shape, call);
      if (typeof patch !== "string" || patch === "") return;
      notTimedOut(
        measured(slowest, () => `applyPatch of the created patch (${patch.length} chars) on ${shape()}`, () => applyPatch(buildFile(f).raw, patch, generous)),
        shape,
      );
    }),
  };
}

// --- the file layer, on a temporary directory ---------------------------------------

let tempBase: string | undefined;
/** One temporary directory per process, removed at exit; each run gets a fresh tree in it. */
function freshRoot(): string {
  if (!tempBase) {
    const base = mkdtempSync(path.join(tmpdir(), "fuzzpatch-budget-"));
    tempBase = base;
    process.on("exit", () => rmSync(base, { recursive: true, force: true }));
  }
  rmSync(path.join(tempBase, "root"), { recursive: true, force: true });
  const root = path.join(tempBase, "root");
  mkdirSync(path.join(root, "src"), { recursive: true });
  return root;
}

interface TreeCase {
  files: { spec: FileSpec; edits: EditSpec[] }[];
  style: ResponseStyle;
  partial: boolean;
}

const treeCase = (fileSpec: fc.Arbitrary<FileSpec>): fc.Arbitrary<TreeCase> =>
  fc.record({
    files: fc.array(fc.record({ spec: fileSpec, edits: edits(2) }), { minLength: 1, maxLength: 3 }),
    style: responseStyle,
    partial: fc.boolean(),
  });

/** Writes the case's files under a fresh root and returns the root, the response and the bytes written. */
function layTree(c: TreeCase): { root: string; input: string; before: Map<string, string> } {
  const root = freshRoot();
  const before = new Map<string, string>();
  const parts: string[] = [];
  c.files.forEach(({ spec, edits: es }, i) => {
    const rel = `src/f${i}.ts`;
    const file: BuiltFile = buildFile(spec);
    writeFileSync(path.join(root, rel), file.raw);
    before.set(rel, file.raw);
    parts.push(response(rel, file, es.map((e) => buildEdit(file, e)), c.style));
  });
  // JSON responses are one array a line (JSONL); text responses are read one after the other.
  return { root, input: parts.join(c.style === "json" ? "\n" : "\n\n"), before };
}

function unchangedOnDisk(root: string, before: ReadonlyMap<string, string>): boolean {
  for (const [rel, raw] of before) if (readFileSync(path.join(root, rel), "utf8") !== raw) return false;
  return true;
}

/** Every error an applyEdits result holds. */
function resultErrors(r: Awaited<ReturnType<typeof applyEdits>>): EditError[] {
  const out = [...r.errors];
  for (const f of r.files) {
    if (f.error) out.push(f.error);
    for (const e of f.edits) {
      if (e.error) out.push(e.error);
    }
  }
  return out;
}

/**
 * The file layer turns whatever an edit throws into an EditError for its
 * report (asEditError), so a crash in the core shows only as its message:
 * these are the messages of JavaScript's own errors.
 */
const CRASH = /Maximum call stack|is not a function|Cannot read propert|is not defined|Invalid (array|string) length|is not iterable/;

function treeShape(c: TreeCase, extra: string): () => string {
  return () =>
    `${extra}applyEdits (${c.style} response${c.partial ? ", partial" : ""}) on ${c.files.map((x) => `${describeFile(x.spec)} with ${x.edits.length} edits`).join("; ")}; spec ${JSON.stringify(c)}`;
}

function applyEditsProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: applyEdits on a temporary directory answers within a generous budget, and reports only EditErrors",
    entry: "applyEdits",
    summary: () => slowest.summary(),
    property: fc.asyncProperty(treeCase(fileSpec), async (c) => {
      const { root, input, before } = layTree(c);
      const shape = treeShape(c, "");
      const r = await measuredAsync(slowest, shape, () => applyEdits(root, input, { ...generous, partial: c.partial }));
      for (const e of resultErrors(r)) {
        assert.ok(e instanceof EditError);
        if (e.code === "TIMEOUT") timedOut(`TIMEOUT within ${GENEROUS_MS} ms on ${shape()}`);
        assert.doesNotMatch(e.message, CRASH, `a JavaScript error reported as ${e.code} on ${shape()}`);
      }
      if (!r.written) assert.ok(unchangedOnDisk(root, before), "nothing written, yet a file changed");
    }),
  };
}

// --- tiny budgets -------------------------------------------------------------------

export type TinyBudget = { kind: "aborted" } | { kind: "expires"; afterChecks: number } | { kind: "timeoutMs"; ms: number };

const tinyBudget: fc.Arbitrary<TinyBudget> = fc.oneof(
  fc.constant<TinyBudget>({ kind: "aborted" }),
  fc.nat(12).map<TinyBudget>((afterChecks) => ({ kind: "expires", afterChecks })),
  fc.constantFrom<TinyBudget>({ kind: "timeoutMs", ms: 0 }, { kind: "timeoutMs", ms: 1 }, { kind: "timeoutMs", ms: 3 }),
);

/** The options of a tiny budget (`expires`: see countingSignal). */
export function tinyOptions(b: TinyBudget): { signal?: AbortSignal; timeoutMs?: number } {
  if (b.kind === "timeoutMs") return { timeoutMs: b.ms };
  const controller = new AbortController();
  if (b.kind === "aborted") {
    controller.abort();
    return { signal: controller.signal };
  }
  return { signal: countingSignal(b.afterChecks).signal };
}

type CoreEntry = "replace" | "applySearchReplace" | "applyPatch" | "detect";

function tinyCall(entry: CoreEntry, f: FileSpec, es: readonly EditSpec[]): Call {
  const [first] = es as [EditSpec];
  switch (entry) {
    case "replace":
      return replaceCall(f, first, false, "none");
    case "applySearchReplace":
      return searchReplaceCall(f, es);
    case "applyPatch":
      return patchCall(f, es, "fuzzy");
    case "detect":
      return detectAndApplyCall(f, es, "search-replace");
  }
}

/** The largest wall time past a `timeoutMs` budget: the budget is checked between strategies, so one slow strategy overruns it. */
class Overrun {
  ms = 0;
  shape = "none";
  record(ms: number, shape: () => string): void {
    if (ms > this.ms) {
      this.ms = ms;
      this.shape = shape();
    }
  }
}

function tinyCoreProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  const overrun = new Overrun();
  return {
    name: "budget: a tiny budget (aborted signal, a signal aborting at the k-th check, timeoutMs 0–3) gives TIMEOUT or a whole result, never part of one",
    entry: "replace",
    summary: () => `${slowest.summary()}\n      largest wall time past a timeoutMs budget: ${overrun.ms.toFixed(1)} ms, ${overrun.shape}`,
    property: fc.property(
      fc.constantFrom<CoreEntry>("replace", "applySearchReplace", "applyPatch", "detect"),
      fileSpec,
      edits(3),
      tinyBudget,
      (entry, f, es, budget) => {
        const shape = shapeOf(f, es, `${entry} with budget ${JSON.stringify(budget)}: `);
        const call = tinyCall(entry, f, es);
        const options = tinyOptions(budget);
        const started = performance.now();
        const r = measured(slowest, shape, () => call(options));
        if (budget.kind === "timeoutMs") overrun.record(performance.now() - started - budget.ms, shape);
        if (r instanceof EditError) {
          if (r.code === "TIMEOUT") assert.match(r.message, /nothing was written/);
          return;
        }
        // A result is whole: what the call gives without a budget (no block of it cut short).
        const failed = (r as { failed?: EditError[] }).failed ?? [];
        for (const e of failed) assert.notEqual(e.code, "TIMEOUT", "a timed-out block reported as one failure among others");
        assert.deepEqual(r, call({}), `a result under a tiny budget differs from the whole one: ${shape()}`);
      },
    ),
  };
}

function tinyFilesProperty(fileSpec: fc.Arbitrary<FileSpec>): FuzzProperty {
  const slowest = new Slowest();
  return {
    name: "budget: applyEdits with a tiny budget leaves the files byte-identical after a TIMEOUT, also with partial",
    entry: "applyEdits",
    summary: () => slowest.summary(),
    property: fc.asyncProperty(treeCase(fileSpec), tinyBudget, async (c, budget) => {
      const { root, input, before } = layTree(c);
      const shape = treeShape(c, `budget ${JSON.stringify(budget)}: `);
      const r = await measuredAsync(slowest, shape, () => applyEdits(root, input, { ...tinyOptions(budget), partial: c.partial }));
      const timedOut = resultErrors(r).some((e) => e.code === "TIMEOUT");
      if (timedOut) assert.equal(r.written, false, `written after a TIMEOUT: ${shape()}`);
      if (timedOut || !r.written) assert.ok(unchangedOnDisk(root, before), `a file changed after ${timedOut ? "a TIMEOUT" : "nothing was written"}: ${shape()}`);
      if (budget.kind === "aborted") assert.equal(r.written, false, "aborted before the call, yet files were written");
    }),
  };
}

/**
 * The budget properties on files up to `maxChars`, in the order the fuzz run
 * prints them. The fuzz run uses the issue's 64 kB; npm test a smaller size
 * while the matcher has quadratic paths at 64 kB (see the test file).
 */
export function budgetProperties(maxChars = MAX_CHARS): FuzzProperty[] {
  const files = fileSpecUpTo(maxChars);
  return [replaceProperty, searchReplaceProperty, patchProperty, detectProperty, createPatchProperty, tinyCoreProperty, applyEditsProperty, tinyFilesProperty].map((make) => make(files));
}
