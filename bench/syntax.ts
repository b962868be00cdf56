/**
 * What the syntax check says about real edits (`npm run bench:syntax`), and
 * what it costs.
 *
 * 1. Every scored case of a real-edits file (default
 *    `../shared/real-edits/cases.jsonl`, read at run time) goes through
 *    `applyEdits` as bench/real.ts runs it, with the default report. Of the
 *    writes: how many correct writes the check flags (an error introduced),
 *    and of those how many are the model's own (checking the expected file
 *    against the file before flags the same: the model's intended text does
 *    not parse either), the rest false flags; how many wrong writes it flags.
 *    Then the wrong writes and the flagged correct ones run again with
 *    `verify: "syntax"`: wrong -> refused, correct -> refused.
 * 2. Generated ties that only syntax breaks (syntax-ties.ts): each case with
 *    `syntax: "off"` (no judge: the engine as without the syntax layer) and
 *    with the default (the judge breaks ties): right, refused, wrong writes.
 * 3. The accuracy benchmark's cases (syntax-accuracy.ts): of each applier's
 *    writes, correct and wrong ones flagged (`--accuracy N` cases, default
 *    300; 0 skips it).
 * 4. Cost: one edit in the middle of a generated Python file of 10k and of
 *    200k lines: one parse, and the whole check (parse before, tree.edit,
 *    incremental re-parse after, the comparison) from nothing and with the
 *    text before's tree kept from the last check (tree-cache.ts), warm,
 *    median of 5, in CPU time of the process.
 *
 * Usage: npm run bench:syntax -- [CASES.jsonl] [--cost-only] [--ties-only] [--accuracy-only] [--ties N] [--accuracy N] [--show]
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { applyEdits } from "../src/node.ts";
import { checkSyntax, loadParser } from "../src/syntax/index.ts";
import { clearKeptTrees } from "../src/syntax/tree-cache.ts";
import { createRng, hashSeed } from "./accuracy/random.ts";
import { median } from "./median.ts";
import { accuracyFigures } from "./syntax-accuracy.ts";
import { generateTie, TIE_KINDS, type TieKind } from "./syntax-ties.ts";

interface RealCase {
  id: string;
  category: string;
  path: string;
  path_applied?: string;
  edit: string;
  before_sha1: string;
  expected: { outcome: string; after_sha1?: string };
}

const args = process.argv.slice(2);
const positional = args.filter((a, k) => !a.startsWith("--") && args[k - 1] !== "--ties" && args[k - 1] !== "--accuracy");
const casesFile = resolve(positional[0] ?? join(import.meta.dirname, "../../shared/real-edits/cases.jsonl"));
const blobs = join(dirname(casesFile), "blobs");
const blob = (sha1: string): string => (sha1 === "" ? "" : readFileSync(join(blobs, `${sha1}.txt`), "utf8"));

interface Written {
  c: RealCase;
  correct: boolean;
  flagged: boolean;
  /** The expected text itself introduces errors against the text before. */
  modelsOwn: boolean;
  line?: string;
  /** A tie the syntax judge broke (EditReport.bySyntax). */
  bySyntax: boolean;
}

async function realEdits(): Promise<void> {
  const cases = readFileSync(casesFile, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as RealCase)
    .filter((c) => c.expected.outcome !== "unknown");
  const tmp = await mkdtemp(join(tmpdir(), "fuzzpatch-syntax-"));
  const written: Written[] = [];
  const run = async (c: RealCase, i: number, verify: boolean): Promise<{ changed: boolean; after: string; ok: boolean; introduced: number; message: string; bySyntax: boolean }> => {
    const path = c.path_applied ?? c.path;
    const root = join(tmp, `${i}${verify ? "v" : ""}`);
    await mkdir(dirname(join(root, path)), { recursive: true });
    const before = blob(c.before_sha1);
    await writeFile(join(root, path), before);
    const r = await applyEdits(root, c.edit, { target: path, ...(verify && { verify: "syntax" as const }) });
    const after = await readFile(join(root, path), "utf8");
    await rm(root, { recursive: true, force: true });
    const syntax = r.files[0]?.syntax;
    const first = syntax?.introduced[0];
    const bySyntax = r.files[0]?.edits.some((e) => e.bySyntax === true) ?? false;
    return { changed: after !== before, after, ok: r.ok, introduced: syntax?.introduced.length ?? 0, message: first ? `line ${first.line}: ${first.message}` : "", bySyntax };
  };
  let wrongRefused = 0;
  let correctRefused = 0;
  for (const [i, c] of cases.entries()) {
    const r = await run(c, i, false);
    if (!r.ok || !r.changed) continue;
    const want = c.expected.after_sha1 === undefined ? undefined : blob(c.expected.after_sha1);
    const correct = (c.expected.outcome === "apply" || c.expected.outcome === "refuse_or_apply") && r.after === want;
    const flagged = r.introduced > 0;
    let modelsOwn = false;
    if (flagged && want !== undefined) modelsOwn = ((await checkSyntax(c.path_applied ?? c.path, blob(c.before_sha1), want))?.introduced.length ?? 0) > 0;
    written.push({ c, correct, flagged, modelsOwn, line: r.message, bySyntax: r.bySyntax });
    if (!correct || flagged) {
      const v = await run(c, i, true);
      if (!v.ok && !v.changed) {
        if (correct) correctRefused++;
        else wrongRefused++;
      }
    }
  }
  await rm(tmp, { recursive: true, force: true });
  const count = (f: (w: Written) => boolean) => written.filter(f).length;
  const correct = count((w) => w.correct);
  const wrong = count((w) => !w.correct);
  console.log(`${casesFile}: ${cases.length} scored cases, ${written.length} written (${correct} correct, ${wrong} wrong)`);
  console.log(
    `correct writes flagged: ${count((w) => w.correct && w.flagged)} (the model's own: ${count((w) => w.correct && w.flagged && w.modelsOwn)}, false flags: ${count((w) => w.correct && w.flagged && !w.modelsOwn)})`,
  );
  console.log(`wrong writes flagged: ${count((w) => !w.correct && w.flagged)} of ${wrong}`);
  console.log(`ties broken by syntax: ${count((w) => w.bySyntax)} (correct ${count((w) => w.bySyntax && w.correct)}, wrong ${count((w) => w.bySyntax && !w.correct)})`);
  console.log(`with verify: "syntax": wrong -> refused ${wrongRefused} of ${wrong}; correct -> refused ${correctRefused} of ${correct}`);
  if (args.includes("--show")) {
    for (const w of written) if (w.flagged || !w.correct) console.log(`${w.correct ? "correct" : "WRONG"} ${w.flagged ? "flagged" : "not flagged"}${w.modelsOwn ? " (model's own)" : ""} ${w.c.id} ${w.line ?? ""}`);
  }
}

/** A Python file of about `lines` lines: classes of methods, each a few statements. */
function pythonFile(lines: number): string {
  const out: string[] = [];
  for (let k = 0; out.length < lines; k++) {
    out.push(`class C${k}:`, `    """Class ${k}."""`, "");
    for (let m = 0; m < 5; m++) out.push(`    def m${m}(self, x):`, `        if x > ${m}:`, `            return [x, ${k}, "${m}"]`, `        return {"k": ${k}}`, "");
  }
  return `${out.join("\n")}\n`;
}

/** CPU time of the process (user + system, ms): other load on a shared machine inflates it much less than wall time. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function cost(): Promise<void> {
  const parser = await loadParser("python");
  const times = (f: () => void) =>
    median(
      Array.from({ length: 5 }, () => {
        const t = cpuMs();
        f();
        return cpuMs() - t;
      }),
    );
  for (const lines of [10_000, 200_000]) {
    const before = pythonFile(lines);
    const mid = before.indexOf("return [x", before.length >> 1);
    const after = `${before.slice(0, mid)}return [x + 1${before.slice(mid + "return [x".length)}`;
    parser.parse(before)?.delete();
    const parse = times(() => parser.parse(before)?.delete());
    // Kept: the text before's tree is the one kept from the last check (an MCP session's next edit); fresh: none kept.
    const checkTimes = async (fresh: boolean) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        if (fresh) clearKeptTrees();
        const t = cpuMs();
        await checkSyntax("a.py", before, after);
        samples.push(cpuMs() - t);
      }
      return median(samples);
    };
    const fresh = await checkTimes(true);
    const check = await checkTimes(false);
    console.log(
      `${lines.toLocaleString("en")} lines (${(before.length / 1e6).toFixed(1)} MB), CPU median of 5: one parse ${parse.toFixed(0)} ms; the check from nothing ${fresh.toFixed(0)} ms (${(fresh / parse).toFixed(2)}x one parse), with the text before's tree kept ${check.toFixed(0)} ms (${(check / parse).toFixed(2)}x)`,
    );
  }
}

/** Outcome of one generated tie: the intended file written, nothing written, or anything else written. */
type TieOutcome = "right" | "refused" | "wrong";

async function ties(count: number): Promise<void> {
  const tally = new Map<string, Record<TieOutcome, number>>();
  const add = (key: string, o: TieOutcome) => {
    const t = tally.get(key) ?? { right: 0, refused: 0, wrong: 0 };
    t[o]++;
    tally.set(key, t);
  };
  const tmp = await mkdtemp(join(tmpdir(), "fuzzpatch-ties-"));
  for (let k = 0; k < count; k++) {
    const c = generateTie(createRng(hashSeed(1, k)), k);
    for (const syntax of ["off", "report"] as const) {
      const root = join(tmp, `${k}-${syntax}`);
      await mkdir(root, { recursive: true });
      await writeFile(join(root, c.path), c.content);
      await applyEdits(root, [{ path: c.path, oldString: c.oldString, newString: c.newString }], { syntax });
      const after = await readFile(join(root, c.path), "utf8");
      await rm(root, { recursive: true, force: true });
      // A control case (no expected file) is right to refuse.
      const outcome: TieOutcome = after === c.content ? (c.expected === undefined ? "right" : "refused") : after === c.expected ? "right" : "wrong";
      add(`${c.kind} ${syntax}`, outcome);
      add(`all ${syntax}`, outcome);
    }
  }
  await rm(tmp, { recursive: true, force: true });
  console.log(`generated ties (${count} cases; right / refused / wrong writes; a control case is right when refused):`);
  for (const kind of [...TIE_KINDS, "all"] as (TieKind | "all")[]) {
    const cell = (syntax: string) => {
      const t = tally.get(`${kind} ${syntax}`) ?? { right: 0, refused: 0, wrong: 0 };
      return `${t.right} / ${t.refused} / ${t.wrong}`;
    };
    console.log(`  ${kind.padEnd(8)} without the judge (syntax off): ${cell("off").padEnd(14)} with it: ${cell("report")}`);
  }
}

const tiesAt = args.indexOf("--ties");
// 200 cases take ~1 min on two shared cores (each applied twice, through the file layer).
const tieCount = tiesAt === -1 ? 200 : Number(args[tiesAt + 1]);
const accuracyAt = args.indexOf("--accuracy");
const accuracyCount = accuracyAt === -1 ? 300 : Number(args[accuracyAt + 1]);
if (args.includes("--accuracy-only")) {
  await accuracyFigures(accuracyCount);
  process.exit(0);
}
if (args.includes("--ties-only")) {
  await ties(tieCount);
  process.exit(0);
}
if (!args.includes("--cost-only")) {
  await ties(tieCount);
  if (existsSync(casesFile)) await realEdits();
  else console.error(`bench:syntax: no cases file at ${casesFile}; real edits skipped`);
  if (accuracyCount > 0) await accuracyFigures(accuracyCount);
}
await cost();
