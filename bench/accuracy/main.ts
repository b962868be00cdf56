/**
 * The accuracy benchmark: `npm run bench:accuracy -- [options]`.
 *
 *   --seed N        run seed (default 1)
 *   --cases N       number of cases, each rendered in every format (default 1000)
 *   --format LIST   formats to run, comma-separated or repeated (str_replace,
 *                   search_replace, udiff, fudiff; default all)
 *   --kind LIST     mistake kinds to run, comma-separated or repeated (default
 *                   all); the other kinds' cases among the --cases indices are
 *                   skipped, so case numbers stay those of a full run
 *   --root DIR      cut cases from DIR (a user's repository) instead of the
 *                   installed dependencies; writes no files unless asked
 *   --json PATH     where to write the JSON (default bench/results/accuracy.json)
 *   --out PATH      where to write the chart (default bench/results/accuracy.svg,
 *                   git-ignored; `--out docs/accuracy.svg` updates the README's
 *                   chart). --svg is the same option.
 *   --no-write      write neither
 *   --case K        only case K; with --show print the file excerpt, each
 *                   format's edit, the expected and the actual output
 *
 * `runAccuracyBench(options)` is the same run as a function, for the CLI's
 * `fuzzpatch bench --root DIR`.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createTwoFilesPatch } from "diff";
import { type Applier, loadAppliers, runCase } from "./appliers.ts";
import { generateCase, kindOfCase } from "./cases.ts";
import { findCorpus } from "./corpus.ts";
import { expectedFor, renderCase } from "./render.ts";
import { type AccuracyReport, buildStats, type CaseResult, judge, renderMarkdown, renderSvg } from "./report.ts";
import { type BenchCase, FORMATS, type Format, isRefusalOk, MISTAKE_KINDS, type MistakeKind, runsIn } from "./types.ts";

export interface AccuracyBenchOptions {
  /** Run seed. @default 1 */
  seed?: number;
  /** Number of cases; each is rendered in every format. @default 1000 */
  cases?: number;
  /** Formats to measure. @default all of FORMATS */
  formats?: Format[];
  /** Mistake kinds to run (cases of other kinds are skipped, not replaced). @default all of MISTAKE_KINDS */
  kinds?: MistakeKind[];
  /** A repository to cut cases from instead of the installed dependencies. @default undefined */
  root?: string;
  /** The project whose node_modules is the default corpus and where outputs go. @default process.cwd() */
  projectRoot?: string;
  /** JSON output path, or false. @default "bench/results/accuracy.json" (false with `root`) */
  json?: string | false;
  /** SVG chart path, or false. @default "bench/results/accuracy.svg" (false with `root`) */
  svg?: string | false;
  /** Where the markdown report and progress go. @default console.log */
  log?: (text: string) => void;
}

const DEFAULTS = Object.freeze({ seed: 1, cases: 1000, formats: FORMATS as readonly Format[] });

function appliersFor(format: Format, appliers: readonly Applier[]): Applier[] {
  return appliers.filter((a) => a.formats.includes(format));
}

/** Generates the cases, applies them with every applier, prints and writes the report. */
export async function runAccuracyBench(options: AccuracyBenchOptions = {}): Promise<AccuracyReport> {
  const started = performance.now();
  const seed = options.seed ?? DEFAULTS.seed;
  const count = options.cases ?? DEFAULTS.cases;
  const formats = (options.formats ?? [...DEFAULTS.formats]).filter((f) => FORMATS.includes(f));
  const projectRoot = options.projectRoot ?? process.cwd();
  const log = options.log ?? ((text: string) => console.log(text));
  const corpus = findCorpus({ root: options.root, projectRoot });
  const { appliers, notes } = await loadAppliers();
  const results: CaseResult[] = [];
  const defaultWrong: AccuracyReport["defaultWrong"] = [];
  let generated = 0;
  try {
    for (let index = 0; index < count; index++) {
      if (options.kinds && !options.kinds.includes(kindOfCase(index))) continue;
      const c = generateCase(corpus, seed, index);
      if (!c) {
        notes.push(`case ${index}: no file could carry this mistake kind; skipped.`);
        continue;
      }
      generated++;
      for (const format of formats) {
        if (!runsIn(c, format)) continue;
        const edit = renderCase(c, format);
        for (const applier of appliersFor(format, appliers)) {
          const outcome = await runCase(applier, edit, c);
          const expected = expectedFor(c, format);
          const { verdict, wsCorrect } = judge(expected, outcome);
          const negative = expected === undefined;
          results.push({ index, kind: c.kind, format, applier: applier.name, verdict, wsCorrect, negative, code: outcome.code, ms: outcome.ms });
          if (applier.name === "fuzzpatch" && (verdict === "wrong" || verdict === "crashed")) {
            defaultWrong.push({ index, format, kind: c.kind, file: c.file });
          }
        }
      }
    }
  } finally {
    for (const applier of appliers) applier.dispose?.();
  }
  const byFormat: Record<string, string[]> = {};
  for (const format of formats) byFormat[format] = appliersFor(format, appliers).map((a) => a.name);
  const report: AccuracyReport = {
    seed,
    cases: generated,
    corpus: { root: corpus.root, files: corpus.fileCount },
    formats,
    appliers: byFormat,
    notes,
    stats: buildStats(results, byFormat, formats),
    defaultWrong,
    elapsedMs: performance.now() - started,
  };
  log(renderMarkdown(report));
  const json = options.json ?? (options.root === undefined ? "bench/results/accuracy.json" : false);
  // Outputs default to the git-ignored bench/results/: running the documented bench must not dirty the checkout.
  const svg = options.svg ?? (options.root === undefined ? "bench/results/accuracy.svg" : false);
  if (json !== false) {
    const path = resolve(projectRoot, json);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(report, null, 1)}\n`);
    log(`\nJSON written to ${path}`);
  }
  if (svg !== false) {
    const chartApplier = appliers.some((a) => a.name === "fuzzpatch") ? "fuzzpatch" : "exact";
    const path = resolve(projectRoot, svg);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, renderSvg(report, chartApplier));
    log(`Chart written to ${path}`);
  }
  return report;
}

function numbered(text: string, from: number, to: number): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = Math.max(1, from); i <= Math.min(lines.length, to); i++) {
    out.push(`${String(i).padStart(6)} | ${JSON.stringify(lines[i - 1]).slice(1, -1)}`);
  }
  return out.join("\n");
}

/** Describes one case and how every applier handled it, for debugging a wrong edit. */
export async function showCase(index: number, options: AccuracyBenchOptions = {}, verbose = true): Promise<string> {
  const seed = options.seed ?? DEFAULTS.seed;
  const formats = (options.formats ?? [...DEFAULTS.formats]).filter((f) => FORMATS.includes(f));
  const corpus = findCorpus({ root: options.root, projectRoot: options.projectRoot ?? process.cwd() });
  const c: BenchCase | undefined = generateCase(corpus, seed, index);
  if (!c) return `case ${index}: no file could carry this mistake kind`;
  const { appliers, notes } = await loadAppliers();
  const out: string[] = [];
  out.push(`# case ${index} (seed ${seed}): ${c.kind}, ${c.editKind} edit`);
  out.push(`file: ${c.file}, region lines ${c.startLine}-${c.endLine}${c.hint === undefined ? "" : `, hint ${c.hint}`}`);
  out.push(`mistake: ${c.note}`);
  out.push(
    `expected: ${c.expected === undefined ? "refusal" : "the intended edit"}${c.hintDecides ? " where the format carries the hint, else refusal" : ""}${isRefusalOk(c.kind) ? " (a refusal is correct too)" : ""}`,
  );
  for (const note of notes) out.push(`note: ${note}`);
  if (verbose) {
    out.push("", "## file excerpt (as the applier sees it)", numbered(c.content, c.startLine - 5, c.endLine + 5));
  }
  try {
    for (const format of formats) {
      if (!runsIn(c, format)) continue;
      const edit = renderCase(c, format);
      out.push("", `## ${format}`);
      if (verbose) out.push("```", edit.text.trimEnd(), "```");
      for (const applier of appliersFor(format, appliers)) {
        const outcome = await runCase(applier, edit, c);
        const expected = expectedFor(c, format);
        const { verdict } = judge(expected, outcome);
        const detail = outcome.status === "applied" ? "" : ` ${outcome.code ?? ""}`;
        out.push(`- ${applier.name}: ${verdict}${detail} (${outcome.ms.toFixed(2)} ms)`);
        if (verbose && applier.name === "fuzzpatch") {
          if (outcome.status === "applied" && outcome.content !== expected) {
            out.push(
              "  expected vs actual:",
              "```diff",
              createTwoFilesPatch("expected", "actual", expected ?? c.content, outcome.content ?? "", "", "", { context: 3 }).trimEnd(),
              "```",
            );
            if (expected !== undefined) out.push("  expected excerpt:", numbered(expected, c.startLine - 3, c.endLine + 6));
            out.push("  actual excerpt:", numbered(outcome.content ?? "", c.startLine - 3, c.endLine + 6));
          } else if (outcome.message) {
            out.push(`  message: ${outcome.message.split("\n").join("\n  ")}`);
          }
        }
      }
    }
  } finally {
    for (const applier of appliers) applier.dispose?.();
  }
  return out.join("\n");
}

interface CliArgs extends AccuracyBenchOptions {
  caseIndex?: number;
  show: boolean;
}

function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { show: false };
  const formats: Format[] = [];
  const kinds: MistakeKind[] = [];
  const number = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer, got ${value ?? "nothing"}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? "";
    const [name, inline] = flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case "--seed":
        args.seed = number(name, value());
        break;
      case "--cases":
        args.cases = number(name, value());
        break;
      case "--format":
      case "--formats":
        for (const f of (value() ?? "").split(",")) {
          if (!(FORMATS as readonly string[]).includes(f)) throw new Error(`unknown format ${f}; use ${FORMATS.join(", ")}`);
          formats.push(f as Format);
        }
        break;
      case "--kind":
      case "--kinds":
        for (const k of (value() ?? "").split(",")) {
          if (!(MISTAKE_KINDS as readonly string[]).includes(k)) throw new Error(`unknown mistake kind ${k}; use ${MISTAKE_KINDS.join(", ")}`);
          kinds.push(k as MistakeKind);
        }
        break;
      case "--root":
        args.root = value();
        break;
      case "--json":
        args.json = value() ?? false;
        break;
      case "--out":
      case "--svg":
        args.svg = value() ?? false;
        break;
      case "--no-write":
        args.json = false;
        args.svg = false;
        break;
      case "--case":
        args.caseIndex = number(name, value());
        break;
      case "--show":
        args.show = true;
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (formats.length > 0) args.formats = formats;
  if (kinds.length > 0) args.kinds = kinds;
  return args;
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
    return;
  }
  if (args.caseIndex !== undefined) {
    console.log(await showCase(args.caseIndex, args, args.show));
    return;
  }
  const report = await runAccuracyBench(args);
  if (report.defaultWrong.length > 0) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
