/**
 * Scoring and reporting: verdicts per case, aggregates per format, applier
 * and mistake kind, markdown tables, the JSON record and the SVG chart.
 *
 * Verdicts: a positive case is `correct` when the output equals the expected
 * content byte for byte, `wrong` when something was applied but differs,
 * `refused` otherwise. A negative case is a `correct-refusal` when refused and
 * `wrong` when anything was applied. `crashed` (a throw that is not an
 * EditError) is its own verdict: it is a bug, not a refusal. `wsCorrect`
 * compares with all whitespace removed, so re-indentation quality shows.
 */

import type { Outcome } from "./appliers.ts";
import { MISTAKE_KINDS, type Format, type MistakeKind } from "./types.ts";
import { isNegativeKind, isRefusalOk } from "./types.ts";

/** A kind's label in tables: * must be refused, † a refusal is correct too, ‡ the hint decides. */
function kindLabel(kind: MistakeKind): string {
  if (isNegativeKind(kind)) return `${kind} *`;
  if (isRefusalOk(kind)) return `${kind} †`;
  if (kind === "dup-hinted") return `${kind} ‡`;
  return kind;
}

export type Verdict = "correct" | "wrong" | "refused" | "correct-refusal" | "crashed";

export interface CaseResult {
  index: number;
  kind: MistakeKind;
  format: Format;
  applier: string;
  verdict: Verdict;
  wsCorrect: boolean;
  /** The right outcome was a refusal (default: the kind is negative). */
  negative?: boolean;
  code?: string;
  ms: number;
}

export function judge(expected: string | undefined, outcome: Outcome): { verdict: Verdict; wsCorrect: boolean } {
  if (outcome.status === "crashed") return { verdict: "crashed", wsCorrect: false };
  if (expected === undefined) return { verdict: outcome.status === "applied" ? "wrong" : "correct-refusal", wsCorrect: false };
  if (outcome.status !== "applied") return { verdict: "refused", wsCorrect: false };
  const got = outcome.content ?? "";
  const squash = (s: string): string => s.replace(/\s+/g, "");
  return { verdict: got === expected ? "correct" : "wrong", wsCorrect: squash(got) === squash(expected) };
}

export interface Stats {
  format: Format;
  applier: string;
  /** A mistake kind, or "all". */
  kind: MistakeKind | "all";
  positive: number;
  negative: number;
  correct: number;
  wsCorrect: number;
  /** Wrong outputs on positive cases. */
  wrong: number;
  refused: number;
  /** Refusals of positive cases whose kind accepts a refusal (counted in `refused` too). */
  acceptableRefusals: number;
  correctRefusals: number;
  /** Negative cases that were applied anyway. */
  wrongApplied: number;
  crashed: number;
  medianMs: number;
  p95Ms: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] ?? 0;
}

export function aggregate(results: readonly CaseResult[], format: Format, applier: string, kind: MistakeKind | "all"): Stats {
  const s: Stats = {
    format,
    applier,
    kind,
    positive: 0,
    negative: 0,
    correct: 0,
    wsCorrect: 0,
    wrong: 0,
    refused: 0,
    acceptableRefusals: 0,
    correctRefusals: 0,
    wrongApplied: 0,
    crashed: 0,
    medianMs: 0,
    p95Ms: 0,
  };
  const times: number[] = [];
  for (const r of results) {
    if (r.format !== format || r.applier !== applier || (kind !== "all" && r.kind !== kind)) continue;
    times.push(r.ms);
    const negative = r.negative ?? isNegativeKind(r.kind);
    if (negative) s.negative++;
    else s.positive++;
    if (r.wsCorrect) s.wsCorrect++;
    switch (r.verdict) {
      case "correct":
        s.correct++;
        break;
      case "wrong":
        if (negative) s.wrongApplied++;
        else s.wrong++;
        break;
      case "refused":
        s.refused++;
        if (isRefusalOk(r.kind)) s.acceptableRefusals++;
        break;
      case "correct-refusal":
        s.correctRefusals++;
        break;
      default:
        s.crashed++;
    }
  }
  times.sort((a, b) => a - b);
  s.medianMs = quantile(times, 0.5);
  s.p95Ms = quantile(times, 0.95);
  return s;
}

export interface AccuracyReport {
  seed: number;
  cases: number;
  corpus: { root: string; files: number };
  formats: Format[];
  /** Appliers per format, in table order. */
  appliers: Record<string, string[]>;
  notes: string[];
  /** One row per (format, applier, kind) plus "all" rows. */
  stats: Stats[];
  /** Cases the default preset got wrong: every one is a bug. */
  defaultWrong: { index: number; format: Format; kind: MistakeKind; file: string }[];
  elapsedMs: number;
}

export function buildStats(results: readonly CaseResult[], appliers: Record<string, string[]>, formats: readonly Format[]): Stats[] {
  const stats: Stats[] = [];
  for (const format of formats) {
    for (const applier of appliers[format] ?? []) {
      stats.push(aggregate(results, format, applier, "all"));
      for (const kind of MISTAKE_KINDS) stats.push(aggregate(results, format, applier, kind));
    }
  }
  return stats;
}

const pct = (n: number, of: number): string => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);
const ms = (n: number): string => (n >= 10 ? n.toFixed(0) : n.toFixed(2));

function find(report: AccuracyReport, format: Format, applier: string, kind: MistakeKind | "all"): Stats | undefined {
  return report.stats.find((s) => s.format === format && s.applier === applier && s.kind === kind);
}

export function renderMarkdown(report: AccuracyReport): string {
  const out: string[] = [];
  out.push(`## Accuracy: ${report.cases} cases, seed ${report.seed}, ${report.corpus.files} candidate files under ${report.corpus.root}`);
  out.push("");
  for (const note of report.notes) out.push(`- note: ${note}`);
  if (report.notes.length > 0) out.push("");
  out.push("### Summary (all mistake kinds)");
  out.push("");
  out.push(
    "| format | applier | positive | correct | ws-correct | wrong | refused | negative | correct refusals | wrong (applied) | crashes | median ms | p95 ms |",
  );
  out.push("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const format of report.formats) {
    for (const applier of report.appliers[format] ?? []) {
      const s = find(report, format, applier, "all");
      if (!s) continue;
      out.push(
        `| ${format} | ${applier} | ${s.positive} | ${s.correct} (${pct(s.correct, s.positive)}) | ${pct(s.wsCorrect, s.positive)} | ${s.wrong} | ${s.refused}${s.acceptableRefusals > 0 ? ` (${s.acceptableRefusals} †)` : ""} | ${s.negative} | ${s.correctRefusals} (${pct(s.correctRefusals, s.negative)}) | ${s.wrongApplied} | ${s.crashed} | ${ms(s.medianMs)} | ${ms(s.p95Ms)} |`,
      );
    }
  }
  for (const format of report.formats) {
    const appliers = report.appliers[format] ?? [];
    const detailed = appliers[0];
    out.push("");
    out.push(`### ${format}: per mistake kind`);
    out.push("");
    out.push(
      `Cells are correct / wrong / refused (negative kinds, marked *, should be refused; for kinds marked † a refusal is correct too; ‡ the hinted place is correct, and a format without a hint must refuse). ws = whitespace-insensitive correct, times for ${detailed ?? "–"}.`,
    );
    out.push("");
    out.push(`| kind | n | ${appliers.map((a, i) => (i === 0 ? `${a} | ws | med/p95 ms` : a)).join(" | ")} |`);
    out.push(`|---|--:|${appliers.map((_, i) => (i === 0 ? "--:|--:|--:" : "--:")).join("|")}|`);
    for (const kind of MISTAKE_KINDS) {
      const cells: string[] = [];
      let n = 0;
      appliers.forEach((applier, i) => {
        const s = find(report, format, applier, kind);
        if (!s) return;
        n = s.positive + s.negative;
        const wrong = s.wrong + s.wrongApplied;
        const good = s.correct + s.correctRefusals;
        const bad = `${wrong}${s.crashed > 0 ? ` (+${s.crashed} crash)` : ""}`;
        cells.push(s.positive === 0 ? `${good} / ${bad} / –` : `${good} / ${bad} / ${s.refused}`);
        if (i === 0) {
          cells.push(s.positive === 0 ? "–" : pct(s.wsCorrect, s.positive));
          cells.push(`${ms(s.medianMs)} / ${ms(s.p95Ms)}`);
        }
      });
      out.push(`| ${kindLabel(kind)} | ${n} | ${cells.join(" | ")} |`);
    }
  }
  if (report.defaultWrong.length > 0) {
    out.push("");
    out.push("### Wrong edits by the default preset (each is a bug; inspect with `--case K --show`)");
    out.push("");
    for (const w of report.defaultWrong.slice(0, 50)) out.push(`- case ${w.index} (${w.format}, ${w.kind}): ${w.file}`);
    if (report.defaultWrong.length > 50) out.push(`- … ${report.defaultWrong.length - 50} more in the JSON`);
  }
  out.push("");
  out.push(`Run time ${(report.elapsedMs / 1000).toFixed(1)} s.`);
  return out.join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const COLORS = { correct: "#2e7d32", wrong: "#c62828", refused: "#b0bec5", crashed: "#6a1b9a" };

/**
 * A stacked bar per mistake kind (rows) and format (columns) for one applier:
 * correct, wrong, refused, as shares of the kind's cases. For negative kinds a
 * refusal is the correct outcome, so it is drawn as correct.
 */
export function renderSvg(report: AccuracyReport, applier: string): string {
  const labelWidth = 190;
  const barWidth = 170;
  const gap = 24;
  const rowHeight = 22;
  const top = 78;
  const formats = report.formats.filter((f) => (report.appliers[f] ?? []).includes(applier));
  const width = Math.max(560, labelWidth + formats.length * (barWidth + gap) + 10);
  const height = top + MISTAKE_KINDS.length * rowHeight + 40;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(
    `<text x="10" y="20" font-size="15" font-weight="bold">${escapeXml(`Accuracy of ${applier === "fuzzpatch" ? "fuzzpatch (default preset)" : applier}: ${report.cases} cases, seed ${report.seed}`)}</text>`,
  );
  const legend: [string, string][] = [
    [COLORS.correct, "correct (for negative kinds: refused)"],
    [COLORS.wrong, "wrong"],
    [COLORS.refused, "refused"],
    [COLORS.crashed, "crashed"],
  ];
  let lx = 10;
  for (const [color, label] of legend) {
    parts.push(`<rect x="${lx}" y="32" width="12" height="12" fill="${color}"/>`);
    parts.push(`<text x="${lx + 16}" y="42">${escapeXml(label)}</text>`);
    lx += Math.round(24 + label.length * 6.2);
  }
  formats.forEach((format, col) => {
    const x = labelWidth + col * (barWidth + gap);
    parts.push(`<text x="${x}" y="${top - 8}" font-weight="bold">${escapeXml(format)}</text>`);
  });
  MISTAKE_KINDS.forEach((kind, row) => {
    const y = top + row * rowHeight;
    const negative = isNegativeKind(kind);
    const label = negative ? `${kind} (should refuse)` : isRefusalOk(kind) ? `${kind} (refusal ok)` : kind;
    parts.push(`<text x="10" y="${y + 14}">${escapeXml(label)}</text>`);
    formats.forEach((format, col) => {
      const s = report.stats.find((t) => t.format === format && t.applier === applier && t.kind === kind);
      const x0 = labelWidth + col * (barWidth + gap);
      const n = s ? s.positive + s.negative : 0;
      if (!s || n === 0) {
        parts.push(`<rect x="${x0}" y="${y + 3}" width="${barWidth}" height="${rowHeight - 6}" fill="#eeeeee"/>`);
        return;
      }
      const segments: [string, number, string][] = [
        [COLORS.correct, s.correct + s.correctRefusals, "correct"],
        [COLORS.wrong, s.wrong + s.wrongApplied, "wrong"],
        [COLORS.refused, s.refused, "refused"],
        [COLORS.crashed, s.crashed, "crashed"],
      ];
      let x = x0;
      for (const [color, count, label] of segments) {
        if (count === 0) continue;
        const w = (barWidth * count) / n;
        parts.push(
          `<rect x="${x.toFixed(1)}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 6}" fill="${color}"><title>${escapeXml(`${format} / ${kind}: ${label} ${count} of ${n}`)}</title></rect>`,
        );
        x += w;
      }
      const good = s.correct + s.correctRefusals;
      parts.push(`<text x="${x0 + barWidth + 3}" y="${y + 14}" font-size="9" fill="#555">${Math.round((100 * good) / n)}</text>`);
    });
  });
  parts.push(
    `<text x="10" y="${height - 14}" fill="#555">${escapeXml("Wrong = applied but the output differs, or applied what should be refused. Numbers: % correct.")}</text>`,
  );
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
