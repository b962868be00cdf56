/**
 * The file layer's syntax check: after every file's new text is planned and
 * before anything is written, each changed file of a known language is
 * parsed before and after (src/syntax/). The report goes on the file's
 * report; with `verify: "syntax"` a file whose edits introduce a syntax error
 * fails with SYNTAX and is not written.
 *
 * The syntax layer is imported here only when some changed file is of a
 * known language, so other edits never load tree-sitter.
 */

import { EditError } from "../errors.ts";
import type { SyntaxReport } from "../syntax/report.ts";
import type { SyntaxIssue } from "../syntax/report.ts";
import { languageOf } from "../syntax/languages.ts";
import type { SyntaxJudge } from "../engine/syntax-decide.ts";
import type { FileApplyResult } from "../formats/types.ts";
import type { FileReport } from "./apply-edits.ts";

/** `syntax` option: check and report, or skip. */
export const SYNTAX_MODES = ["report", "off"] as const;
export type SyntaxMode = (typeof SYNTAX_MODES)[number];
/** `verify` option: refuse an edit that introduces a syntax error, or only report it. */
export const VERIFY_MODES = ["none", "syntax"] as const;
export type VerifyMode = (typeof VERIFY_MODES)[number];

/** One changed file to check: its path (where it is written), its text before and after. */
export interface SyntaxTarget {
  report: FileReport;
  path: string;
  before: string;
  after: string;
}

/**
 * Texts longer than this (UTF-16 code units, 1 Mi: about 1 MB of code) get
 * no syntax report: `FileReport.syntaxSkipped` says so. Measured on
 * TypeScript's typescript.js (JavaScript) on this 2-core machine: the first
 * parse costs ~0.2 s of CPU per MB (9 MB: 2.4 s, which pushed a fresh MCP
 * server's first edit past its 10 s budget under load) and the incremental
 * re-parse of a one-line edit ~10 ms at 1 MB, ~45 ms at 9 MB (tree-sitter
 * re-lexes 3.8 MB of it there), against ~10 ms of CPU for the whole written
 * edit without it. `verify: "syntax"` checks any size: the caller asked.
 */
export const SYNTAX_REPORT_MAX_CHARS = 1024 * 1024;

/** Lines shown on each side of the error in a SYNTAX message. */
const AROUND = 2;

/** The lines around `line` of `text`, numbered, the error's line marked with ">". */
function numberedAround(text: string, line: number): string {
  const lines = text.split("\n");
  const first = Math.max(1, line - AROUND);
  const last = Math.min(lines.length, line + AROUND);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const body = (lines[n - 1] ?? "").replace(/\r$/, "");
    if (n === last && body === "" && n !== line) break;
    out.push(`${n === line ? ">" : " "} ${String(n).padStart(width)} | ${body}`);
  }
  return out.join("\n");
}

function lineSpan(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}-${end}`;
}

function describeIssue(issue: SyntaxIssue): string {
  return `line ${issue.line}: ${issue.message}`;
}

/** The SYNTAX error of a file whose edits introduce `report.introduced`, written for the model. */
export function syntaxError(path: string, report: SyntaxReport, after: string): EditError {
  const first = report.introduced[0] as SyntaxIssue;
  const more = report.introduced.length > 1 ? ` (and ${report.introduced.length - 1} more: ${report.introduced.slice(1, 4).map(describeIssue).join("; ")})` : "";
  const message =
    `The edit would leave ${path} with a syntax error (${report.language}) at ${describeIssue(first)}${more}. ` +
    `The file would read:\n${numberedAround(after, first.line)}\n` +
    `The edit changed ${lineSpan(report.changed.startLine, report.changed.endLine)}; ${report.parsesBefore ? "the file parsed before it" : "the file had syntax errors elsewhere before it, which do not count"}. ` +
    "Nothing was written to this file. Fix the edit so the code stays well-formed (balanced brackets, complete statements, the block's indentation) and send it again.";
  return new EditError("SYNTAX", message, { path, line: first.line, syntax: report });
}

/**
 * One line per introduced error of a file, for a report that does not
 * refuse: `line 2: missing ")" ("y = f(x")`, at most `max`, then how many more.
 */
export function introducedLines(report: SyntaxReport, max = 3): string[] {
  const lines = report.introduced.slice(0, max).map((i) => `${describeIssue(i)} (${JSON.stringify(i.excerpt)})`);
  if (report.introduced.length > max) lines.push(`${report.introduced.length - max} more`);
  return lines;
}

/**
 * Checks each target of a known language and puts the result on its report
 * (`syntax`). With `verify`, a target with introduced errors fails: each of
 * its applied edits gets the SYNTAX error (none of them is written). A grammar that cannot load leaves the file unchecked, never
 * fails the edit: the check is an addition, not a condition of writing.
 */
export async function checkTargets(targets: readonly SyntaxTarget[], verify: boolean): Promise<void> {
  const known = targets.filter((t) => languageOf(t.path, t.after) !== undefined && (verify || !skipLarge(t)));
  if (known.length === 0) return;
  const { checkSyntax } = await import("../syntax/check.ts");
  for (const target of known) {
    let report: SyntaxReport | undefined;
    try {
      report = await checkSyntax(target.path, target.before, target.after);
    } catch (error) {
      // A parse past its time (syntax/parse-within.ts) leaves the file unchecked, and the report says so.
      if (error instanceof Error && error.name === "ParseTimeout") target.report.syntaxSkipped = error.message;
      continue;
    }
    if (report === undefined) continue;
    target.report.syntax = report;
    if (!verify || report.introduced.length === 0) continue;
    const error = syntaxError(target.report.path, report, target.after);
    target.report.status = "failed";
    target.report.diff = "";
    // The error goes on the edits (as NOT_FOUND would), on the file only when no edit carries it (a move).
    const applied = target.report.edits.filter((e) => e.status === "applied");
    if (applied.length === 0) target.report.error = error;
    for (const edit of applied) {
      edit.status = "failed";
      edit.error = new EditError("SYNTAX", error.message, { ...error.detail, index: edit.index });
    }
  }
}

/**
 * A judge for an edit's first run, before any grammar is loaded: it tells
 * nothing (the engine decides as without one) and notes whether the engine
 * asked it, that is, met a tie inside one place that syntax may break (the
 * frame of a re-indented replacement, engine/merge.ts). Then the real judge
 * is loaded and the edit run again. Undefined for a file of no known language,
 * and for a text over the report's size limit unless `anySize` (verify: "syntax"
 * asks for it): a 9 MB file's first parse costs seconds.
 */
export function probeJudge(path: string, text: string, anySize = false): { judge: SyntaxJudge; asked: () => boolean } | undefined {
  if (languageOf(path, text) === undefined || (!anySize && text.length > SYNTAX_REPORT_MAX_CHARS)) return undefined;
  let asked = false;
  const judge: SyntaxJudge = Object.assign(
    () => {
      asked = true;
      return undefined;
    },
    // A tie no verdict decides is still a tie the probe was asked about (as a call would have said).
    {
      noteTie: () => {
        asked = true;
      },
    },
  );
  return { judge, asked: () => asked };
}

/** True, and the report says why, when the target is too large for the report (see SYNTAX_REPORT_MAX_CHARS). */
function skipLarge(target: SyntaxTarget): boolean {
  const chars = Math.max(target.before.length, target.after.length);
  if (chars <= SYNTAX_REPORT_MAX_CHARS) return false;
  target.report.syntaxSkipped = `not checked: ${chars} characters, over the syntax report's limit of ${SYNTAX_REPORT_MAX_CHARS} (verify: "syntax" checks any size)`;
  return true;
}

/** The ops of an edit's outcome that are a tie between places (AMBIGUOUS), which the code's syntax may break: their indices. */
export function tiedOps(outcome: FileApplyResult | EditError): Set<number> {
  if (outcome instanceof EditError) return new Set(outcome.code === "AMBIGUOUS" ? [0] : []);
  const tied = new Set<number>();
  for (const [k, op] of outcome.ops.entries()) if (op.status === "failed" && op.error?.code === "AMBIGUOUS") tied.add(k);
  return tied;
}

let judgeModule: Promise<typeof import("../syntax/judge.ts")> | undefined;
/** The judge's module once its import has finished (`readyJudge`). */
let judgeLoaded: typeof import("../syntax/judge.ts") | undefined;

/**
 * The syntax judge for a file of a known language, loaded on the first tie
 * (never for an edit that places without one, so other edits pay nothing
 * for it); undefined for another file or when the grammar cannot load.
 */
export async function judgeFor(path: string, text: string): Promise<SyntaxJudge | undefined> {
  if (languageOf(path, text) === undefined) return undefined;
  try {
    // Imported once: each import() of a loaded module still costs a resolve (under tsx's hooks, a
    // round trip to the hooks thread: ~0.8 ms a tie in bench:batch's profile).
    judgeModule ??= import("../syntax/judge.ts");
    judgeLoaded = await judgeModule;
    return await judgeLoaded.loadSyntaxJudge(path, text);
  } catch {
    return undefined;
  }
}

/**
 * The syntax judge for a file `probeJudge` would probe, when an earlier
 * `judgeFor` has loaded the judge and the file's grammar: then a caller can
 * run an edit once with it instead of a first run with the probe and a
 * second with the judge. Undefined otherwise (nothing is loaded here).
 */
export function readyJudge(path: string, text: string, anySize = false): SyntaxJudge | undefined {
  if (judgeLoaded === undefined || probeJudge(path, text, anySize) === undefined) return undefined;
  return judgeLoaded.readySyntaxJudge(path, text);
}
