/**
 * bench:lazy: lazy snippets merged by applyLazyEdit, scored against the file
 * the snippet was rendered from.
 *
 * Positive cases: the real before/after pairs of ../shared/real-edits
 * (expected.outcome apply, with an after_sha1; read at run time), and changes
 * made to real files of other languages (generate.ts), each rendered in
 * every style that fits (render.ts). Negative cases: a snippet whose only
 * anchor occurs twice in the file, and new code between two markers (its
 * place unknowable): both must be refused; so must a rendering that shows
 * new lines with no line of the file around them but blank ones, between
 * two markers or as a new definition sent bare ("unplaceable"), and one
 * that is byte for byte the rendering of another after file too, the change
 * made at another place with the same lines ("undecided", undecided.ts).
 * A pair whose after file has syntax errors its before file had not (by
 * the file's grammar, the syntax checker applyLazyEdit is given; the check
 * reads the two files, never the merge): a generated change of that kind is
 * the generator's mistake (a function put in a class body, a line put into
 * a struct literal) and is dropped; a real model edit of that kind is a
 * snippet that breaks the file, to be refused ("broken-after"). The
 * checker classifies the cases even with --no-syntax, so the case set is the
 * same with and without it.
 *
 * correct: the merged text is the after file (positives) or the merge is
 * refused (negatives); wrong: any other text; refused: an EditError on a
 * positive. Every refusal's message must name the snippet line and the
 * candidates (checked, counted as "unnamed" otherwise). The naive baseline
 * (markers keep what lies between exactly-found neighbours) is scored on the
 * same cases.
 *
 * Each merge gets the file's definitions reader (its syntax tree) and its
 * syntax checker (a merge that breaks the file's syntax is refused), loaded
 * before it as a caller of applyLazyEdit would; --no-tree merges by the
 * text alone, --no-syntax without the syntax checker.
 *
 * Usage: npm run bench:lazy -- [--show wrong|refused] [--only style|lang] [--limit n]
 *        [--dump wrong|refused FILE] [--speed] [--speed-only] [--no-tree] [--no-syntax]
 * --dump writes one JSON line per such case (id, style, lang, path, snippet,
 * the expected text and the merged one or the refusal), for classifying them.
 * --speed adds the ms per merge on 1k-, 10k- and 100k-line files; --speed-only prints only that.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createTwoFilesPatch } from "diff";
import { encode } from "gpt-tokenizer";
import { EditError } from "../../src/errors.ts";
import { applyLazyEdit } from "../../src/lazy/apply-lazy-edit.ts";
import { type DefinitionsReader, loadDefinitionsReader, readerLanguage } from "../../src/syntax/definitions-reader.ts";
import { loadSyntaxChecker, type SyntaxChecker } from "../../src/syntax/merge-checker.ts";
import { median } from "../median.ts";
import { makeChanges, sourceFiles } from "./generate.ts";
import { naiveMerge } from "./naive.ts";
import { undecided } from "./undecided.ts";
import { kindTable, refusalKind } from "./reasons.ts";
import { type Lang, langOf, type RenderInfo, renderSnippet, STYLES, type Style, settleTrailingSpace } from "./render.ts";

const args = process.argv.slice(2);
const show = args.includes("--show") ? args[args.indexOf("--show") + 1] : undefined;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const limit = args.includes("--limit") ? Number(args[args.indexOf("--limit") + 1]) : 20;
const dump = args.includes("--dump") ? { verdict: args[args.indexOf("--dump") + 1], file: args[args.indexOf("--dump") + 2] as string } : undefined;
if (dump) writeFileSync(dump.file, "");
let shown = 0;
const noTree = args.includes("--no-tree");
const noSyntax = noTree || args.includes("--no-syntax");
const REAL = "../shared/real-edits";

/** The merged text against the expected one, as a short unified diff. */
function showDiff(got: string, want: string): string {
  return createTwoFilesPatch("expected", "merged", want, got, "", "", { context: 2 }).split("\n").slice(4, 40).join("\n");
}

interface Case {
  id: string;
  lang: Lang;
  style: Style | "anchor-twice" | "unknowable-extent" | "unplaceable" | "undecided" | "broken-after";
  path: string;
  before: string;
  snippet: string;
  /** Undefined: must be refused. */
  after?: string;
}

function realPairs(): { id: string; path: string; before: string; after: string }[] {
  if (!existsSync(`${REAL}/cases.jsonl`)) return [];
  const seen = new Set<string>();
  const out: { id: string; path: string; before: string; after: string }[] = [];
  for (const line of readFileSync(`${REAL}/cases.jsonl`, "utf8").split("\n")) {
    if (!line) continue;
    const c = JSON.parse(line) as { id: string; path: string; path_applied?: string; before_sha1: string; expected: { outcome: string; after_sha1?: string } };
    if (c.expected.outcome !== "apply" || !c.expected.after_sha1 || !c.before_sha1) continue;
    const key = `${c.before_sha1}:${c.expected.after_sha1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const blob = (sha: string) => readFileSync(`${REAL}/blobs/${sha}.txt`, "utf8");
    out.push({ id: c.id, path: c.path_applied ?? c.path, before: blob(c.before_sha1), after: blob(c.expected.after_sha1) });
  }
  return out;
}

async function positives(): Promise<Case[]> {
  const cases: Case[] = [];
  const add = async (id: string, path: string, before: string, afterAsWritten: string, generated: boolean) => {
    const lang = langOf(path);
    const after = settleTrailingSpace(before, afterAsWritten);
    if (before === after) return;
    const broken = ((await loadFor(path, true)).syntax?.(before, after)?.length ?? 0) > 0;
    if (broken && generated) return;
    for (const style of STYLES) {
      const info: RenderInfo = {};
      const snippet = renderSnippet(before, after, lang, style, info);
      if (snippet === undefined) continue;
      // A snippet that does not say where its new text goes: to be refused.
      if (broken) cases.push({ id, lang, style: "broken-after", path, before, snippet });
      else if (info.unplaceable) cases.push({ id, lang, style: "unplaceable", path, before, snippet });
      // The same snippet rendered from another after file (undecided.ts): to be refused.
      else if (undecided(before, after, lang, style, snippet)) cases.push({ id, lang, style: "undecided", path, before, snippet });
      else cases.push({ id, lang, style, path, before, snippet, after });
    }
  };
  for (const p of realPairs()) await add(p.id, p.path, p.before, p.after, false);
  for (const f of sourceFiles("/work/.mirror")) {
    for (const [k, c] of makeChanges(f.text, langOf(f.path), 6, 1).entries()) await add(`${f.path}#${k}:${c.kind}`, f.path, f.text, c.after, true);
  }
  return cases;
}

const MARKER: Record<Lang, string> = { python: "# ... existing code ...", markdown: "<!-- ... -->", ts: "// ...", js: "// ...", go: "// ...", rust: "// ...", java: "// ..." };

function negatives(): Case[] {
  const cases: Case[] = [];
  const files = [...sourceFiles("/work/.mirror"), ...realPairs().slice(0, 60).map((p) => ({ path: p.path, text: p.before }))];
  for (const f of files) {
    const lang = langOf(f.path);
    const lines = f.text.split("\n");
    const counts = new Map<string, number>();
    for (const l of lines) if (l.trim().length > 12) counts.set(l.trim(), (counts.get(l.trim()) ?? 0) + 1);
    const twice = lines.find((l) => counts.get(l.trim()) === 2);
    const m = MARKER[lang];
    const added = lang === "markdown" ? "A new sentence." : lang === "python" ? "x = compute_it()" : "compute_it();";
    if (twice) cases.push({ id: `${f.path}#twice`, lang, style: "anchor-twice", path: f.path, before: f.text, snippet: [m, twice, added, m].join("\n") });
    const newDef = lang === "python" ? ["def brand_new_helper(v):", "    return v + 1"] : lang === "markdown" ? ["## A new section", "", "Its text."] : ["function brandNewHelper(v) {", "  return v + 1;", "}"];
    cases.push({ id: `${f.path}#unknowable`, lang, style: "unknowable-extent", path: f.path, before: f.text, snippet: [m, ...newDef, m].join("\n") });
  }
  return cases;
}

type Verdict = "correct" | "wrong" | "refused";

function score(c: Case, run: () => string): { verdict: Verdict; error?: EditError } {
  try {
    const out = run();
    if (c.after === undefined) return { verdict: "wrong" };
    return { verdict: out === c.after ? "correct" : "wrong" };
  } catch (e) {
    if (!(e instanceof EditError)) throw e;
    return { verdict: c.after === undefined ? "correct" : "refused", error: e };
  }
}

/** A refusal names the snippet's line and the file's candidate lines. */
function named(e: EditError): boolean {
  return /snippet line \d+/i.test(e.message) && (e.code === "CONFLICT" || e.code === "NOT_FOUND" || (e.detail.candidates?.length ?? 0) > 0);
}

interface Loaded {
  definitions?: DefinitionsReader;
  syntax?: SyntaxChecker;
}

const loaded = new Map<string, Loaded>();

/**
 * The definitions reader and the syntax checker for the language of `path`,
 * loaded once per language before any merge of it; `all`: both, whatever
 * --no-tree and --no-syntax say (the cases' classification).
 */
async function loadFor(path: string, all = false): Promise<Loaded> {
  const lang = readerLanguage(path) ?? "";
  let both = loaded.get(lang);
  if (!both) {
    const definitions = await loadDefinitionsReader(path);
    const syntax = await loadSyntaxChecker(path);
    both = { ...(definitions && { definitions }), ...(syntax && { syntax }) };
    loaded.set(lang, both);
  }
  if (all) return both;
  return noTree ? {} : noSyntax ? { ...(both.definitions && { definitions: both.definitions }) } : both;
}

async function main(): Promise<void> {
  const cases = [...(await positives()), ...negatives()];
  const options = new Map<string, Loaded>();
  for (const c of cases) options.set(c.path, await loadFor(c.path));
  const optionsOf = (c: Case) => ({ path: c.path, ...options.get(c.path) });
  const rows = new Map<string, Record<string, number>>();
  const bump = (key: string, field: string) => {
    const r = rows.get(key) ?? {};
    r[field] = (r[field] ?? 0) + 1;
    rows.set(key, r);
  };
  let unnamed = 0;
  const codes = new Map<string, number>();
  // Refusals of positive cases: kind -> style or language -> count.
  const reasons = new Map<string, Map<string, number>>();
  for (const c of cases) {
    const ours = score(c, () => applyLazyEdit(c.before, c.snippet, optionsOf(c)).content);
    const naive = score(c, () => naiveMerge(c.before, c.snippet));
    for (const key of [`style ${c.style}`, `lang ${c.lang}`, c.after === undefined ? "all negative" : "all positive"]) {
      bump(key, ours.verdict);
      bump(key, `naive ${naive.verdict}`);
    }
    if (ours.error) {
      codes.set(ours.error.code, (codes.get(ours.error.code) ?? 0) + 1);
      if (!named(ours.error) && ours.error.code !== "ALREADY_APPLIED") unnamed++;
      if (c.after !== undefined) {
        const kind = `${ours.error.code} ${refusalKind(ours.error.message)}`;
        const r = reasons.get(kind) ?? new Map<string, number>();
        for (const g of ["all", c.style, c.lang]) r.set(g, (r.get(g) ?? 0) + 1);
        reasons.set(kind, r);
      }
    }
    if (dump && ours.verdict === dump.verdict) {
      const got = ours.error ? undefined : applyLazyEdit(c.before, c.snippet, optionsOf(c)).content;
      const record = { id: c.id, style: c.style, lang: c.lang, path: c.path, snippet: c.snippet, before: c.before, after: c.after, got, error: ours.error?.message };
      appendFileSync(dump.file, `${JSON.stringify(record)}\n`);
    }
    if (show && ours.verdict === show && (!only || c.style === only || c.lang === only) && shown++ < limit) {
      console.log(`--- ${c.id} [${c.style}] ${ours.error ? ours.error.toString().slice(0, 400) : ""}\n${c.snippet.slice(0, 1500)}\n`);
      if (ours.verdict === "wrong" && c.after !== undefined) console.log(showDiff(applyLazyEdit(c.before, c.snippet, optionsOf(c)).content, c.after));
    }
  }
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`${"".padEnd(26)}${pad("cases", 7)}${pad("correct", 9)}${pad("wrong", 7)}${pad("refused", 9)}   | naive: ${pad("correct", 8)}${pad("wrong", 7)}${pad("refused", 9)}`);
  for (const key of [...rows.keys()].sort()) {
    const r = rows.get(key) as Record<string, number>;
    const n = (r.correct ?? 0) + (r.wrong ?? 0) + (r.refused ?? 0);
    console.log(
      `${key.padEnd(26)}${pad(n, 7)}${pad(r.correct ?? 0, 9)}${pad(r.wrong ?? 0, 7)}${pad(r.refused ?? 0, 9)}   |        ${pad(r["naive correct"] ?? 0, 8)}${pad(r["naive wrong"] ?? 0, 7)}${pad(r["naive refused"] ?? 0, 9)}`,
    );
  }
  const pos = rows.get("all positive") ?? {};
  const npos = (pos.correct ?? 0) + (pos.wrong ?? 0) + (pos.refused ?? 0);
  console.log(`\npositive cases merged correctly: ${(((pos.correct ?? 0) / Math.max(1, npos)) * 100).toFixed(1)}%`);
  console.log(`refusals by code: ${[...codes].map(([k, v]) => `${k} ${v}`).join(", ")}; refusals not naming the snippet line and candidates: ${unnamed}`);
  const langs = [...new Set(cases.map((c) => c.lang))].sort();
  console.log(`\nrefused positive cases by kind and language:\n${kindTable(reasons, langs)}`);
  console.log(`\nrefused positive cases by kind and style:\n${kindTable(reasons, STYLES)}`);
  if (args.includes("--speed")) speed(await loadFor("big.ts"));
}

/** ms per merge on 1k-, 10k- and 100k-line files, against a 10k tokens/s apply model re-emitting the file. */
function speed(loaded: Loaded): void {
  const base = sourceFiles("/work/.mirror")
    .filter((f) => /\.(?:ts|js)$/.test(f.path))
    .map((f) => f.text)
    .join("\n");
  const baseLines = base.split("\n");
  console.log("\nlines      tokens   merge ms (median of 15)   first merge ms   10k tok/s model s   ratio");
  for (const n of [1_000, 10_000, 100_000]) {
    const lines: string[] = [];
    // Copies of real sources, each copy's identifiers suffixed so the copies differ.
    for (let copy = 0; lines.length < n; copy++) for (const l of baseLines) if (lines.length < n) lines.push(copy ? l.replace(/\b(function|const|let|class) ([A-Za-z_$][\w$]*)/g, `$1 $2_${copy}`) : l);
    const before = `${lines.join("\n")}\n`;
    const changes = makeChanges(before, "ts", 1, 3);
    const change = changes[0];
    if (!change) continue;
    const snippet = renderSnippet(before, change.after, "ts", "existing-code") as string;
    const times: number[] = [];
    for (let k = 0; k < 15; k++) {
      const t0 = performance.now();
      const out = applyLazyEdit(before, snippet, { path: "big.ts", ...loaded }).content;
      times.push(performance.now() - t0);
      if (out !== change.after) throw new Error(`speed case ${n}: wrong merge`);
    }
    const tokens = encode(before).length;
    const ms = median(times);
    // The first merge of a file parses it whole (the syntax checker); the next ones re-parse the kept tree.
    console.log(`${String(n).padEnd(10)} ${String(tokens).padStart(7)}   ${ms.toFixed(2).padStart(22)}   ${(times[0] as number).toFixed(2).padStart(14)}   ${(tokens / 10_000).toFixed(1).padStart(17)}   ${Math.round(tokens / 10 / ms)}x`);
  }
}

if (args.includes("--speed-only")) speed(await loadFor("big.ts"));
else await main();
