/**
 * Sums accuracy reports of several runs (seeds) into one per-kind table for
 * one applier: `npm run bench:accuracy:combine -- [--applier NAME] a.json b.json ...`
 * (the JSON files `npm run bench:accuracy -- --seed N --json PATH` writes).
 *
 * Cells are correct / wrong / refused per format; for kinds that must be
 * refused (*) correct means refused, and for a hint-decided kind (‡) in a
 * format without a hint, too. † marks kinds where a refusal is also correct.
 */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AccuracyReport, Stats } from "./report.ts";
import { type Format, isNegativeKind, isRefusalOk, MISTAKE_KINDS, type MistakeKind } from "./types.ts";

type Totals = Pick<Stats, "positive" | "negative" | "correct" | "wrong" | "refused" | "acceptableRefusals" | "correctRefusals" | "wrongApplied" | "crashed">;

function zero(): Totals {
  return { positive: 0, negative: 0, correct: 0, wrong: 0, refused: 0, acceptableRefusals: 0, correctRefusals: 0, wrongApplied: 0, crashed: 0 };
}

function add(into: Totals, s: Totals): void {
  for (const key of Object.keys(into) as (keyof Totals)[]) into[key] += s[key] ?? 0;
}

function label(kind: MistakeKind | "all"): string {
  if (kind === "all") return "**all kinds**";
  if (isNegativeKind(kind)) return `${kind} *`;
  if (isRefusalOk(kind)) return `${kind} \u2020`;
  if (kind === "dup-hinted") return `${kind} \u2021`;
  return kind;
}

const pct = (n: number, of: number): string => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);

/** The combined markdown tables for `applier` over `reports`. */
export function combineReports(reports: readonly AccuracyReport[], applier = "fuzzpatch"): string {
  const formats: Format[] = [];
  for (const r of reports) for (const f of r.formats) if (!formats.includes(f)) formats.push(f);
  const totals = new Map<string, Totals>();
  const key = (format: Format, kind: MistakeKind | "all"): string => `${format}|${kind}`;
  for (const r of reports) {
    for (const s of r.stats) {
      if (s.applier !== applier) continue;
      const k = key(s.format, s.kind);
      const t = totals.get(k) ?? zero();
      add(t, s);
      totals.set(k, t);
    }
  }
  const get = (format: Format, kind: MistakeKind | "all"): Totals => totals.get(key(format, kind)) ?? zero();
  const seeds = reports.map((r) => r.seed).join(", ");
  const cases = reports.reduce((n, r) => n + r.cases, 0);
  const out: string[] = [];
  out.push(`### ${applier}: ${cases} cases over seeds ${seeds}, each in every format`, "");
  out.push("| format | positive | correct | wrong | refused († ok) | must refuse | correct refusals | wrong applies | crashes |");
  out.push("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const f of formats) {
    const t = get(f, "all");
    out.push(
      `| ${f} | ${t.positive} | ${t.correct} (${pct(t.correct, t.positive)}) | ${t.wrong} | ${t.refused} (${t.acceptableRefusals}) | ${t.negative} | ${t.correctRefusals} (${pct(t.correctRefusals, t.negative)}) | ${t.wrongApplied} | ${t.crashed} |`,
    );
  }
  out.push("", "Per kind: correct / wrong / refused (for cases that must be refused: refused / applied / –).", "");
  out.push(`| kind | ${formats.join(" | ")} |`);
  out.push(`|---|${formats.map(() => "--:").join("|")}|`);
  for (const kind of [...MISTAKE_KINDS, "all"] as const) {
    const cells = formats.map((f) => {
      const t = get(f, kind);
      const good = t.correct + t.correctRefusals;
      const bad = t.wrong + t.wrongApplied + t.crashed;
      return t.positive === 0 ? `${good} / ${bad} / –` : `${good} / ${bad} / ${t.refused}`;
    });
    out.push(`| ${label(kind)} | ${cells.join(" | ")} |`);
  }
  return out.join("\n");
}

function main(argv: readonly string[]): void {
  let applier = "fuzzpatch";
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--applier") applier = argv[++i] ?? applier;
    else files.push(argv[i] as string);
  }
  if (files.length === 0) {
    console.error("usage: combine.ts [--applier NAME] report.json ...");
    process.exitCode = 2;
    return;
  }
  const reports = files.map((f) => JSON.parse(readFileSync(f, "utf8")) as AccuracyReport);
  console.log(combineReports(reports, applier));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main(process.argv.slice(2));
