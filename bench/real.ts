/**
 * Real model edits: every case of a real-edits file (default
 * `../shared/real-edits/cases.jsonl`, read at run time, never copied here)
 * goes through `applyEdits` as the CLI runs it — the block as the model wrote
 * it (name line, fence, markers), the file as the block found it, the real
 * file (`path_applied`) as the target — and its result is scored against the
 * expected outcome:
 *
 * - apply: correct when the written text is the expected one; another text
 *   is wrong; a failure is refused; "nothing to do" (exit 0, no change) is
 *   wrong too, since the model is told its edit stands;
 * - refuse: correct when it fails; any write, or exit 0, is wrong;
 * - no_change: correct when it exits 0 and writes nothing; refused when it
 *   fails; a write is wrong;
 * - refuse_or_apply: refusing, or writing the expected text, are correct;
 * - unknown: counted, not scored.
 *
 * Labels judged by hand (real-judged.ts) replace the shipped ones unless
 * `--raw` is given.
 *
 * Usage: npm run bench:real -- [CASES.jsonl] [--history] [--raw] [--only CATEGORY] [--show refused|wrong|all]
 * `--history` passes each case's earlier versions (`history_sha1`) as the
 * file's history.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { applyEdits, type ApplyEditsResult } from "../src/node.ts";
import { JUDGED } from "./real-judged.ts";

interface Expected {
  outcome: "apply" | "refuse" | "no_change" | "refuse_or_apply" | "unknown";
  after_sha1?: string;
}

interface RealCase {
  id: string;
  search: string;
  replace: string;
  category: string;
  confidence: string;
  path: string;
  path_applied?: string;
  edit: string;
  before_sha1: string;
  history_sha1?: string[];
  expected: Expected;
}

type Verdict = "correct" | "wrong" | "refused" | "unscored";

interface Outcome {
  verdict: Verdict;
  /** What happened: "applied", "no-change" (exit 0, nothing written), or the failure's code. */
  result: string;
  why: string;
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const argValue = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const valued = new Set(["--only", "--show"]);
const positional = args.filter((a, i) => !a.startsWith("--") && !valued.has(args[i - 1] ?? ""));
const casesFile = resolve(positional[0] ?? join(import.meta.dirname, "../../shared/real-edits/cases.jsonl"));
const blobDir = join(dirname(casesFile), "blobs");
const useHistory = flag("--history");
const raw = flag("--raw");
const only = argValue("--only");
const show = argValue("--show") ?? "wrong";

if (!existsSync(casesFile)) {
  console.error(`bench:real: no cases file at ${casesFile}`);
  process.exit(2);
}

const blobCache = new Map<string, string>();
function blob(sha1: string): string {
  let text = blobCache.get(sha1);
  if (text === undefined) {
    text = sha1 === "" ? "" : readFileSync(join(blobDir, `${sha1}.txt`), "utf8");
    blobCache.set(sha1, text);
  }
  return text;
}

/** The first line where `a` and `b` differ, for the list of wrong cases. */
function firstDifference(want: string, got: string): string {
  const w = want.split("\n");
  const g = got.split("\n");
  for (let i = 0; i < Math.max(w.length, g.length); i++) {
    if (w[i] !== g[i]) return `line ${i + 1}: expected ${JSON.stringify(w[i] ?? "<end>")}, got ${JSON.stringify(g[i] ?? "<end>")}`;
  }
  return "same text";
}

function failureCode(r: ApplyEditsResult): string {
  for (const f of r.files) {
    if (f.error) return f.error.code;
    for (const e of f.edits) if (e.error) return e.error.code;
  }
  return r.errors[0]?.code ?? "FAILED";
}

function failureMessage(r: ApplyEditsResult): string {
  for (const f of r.files) {
    if (f.error) return f.error.message;
    for (const e of f.edits) if (e.error) return e.error.message;
  }
  return r.errors[0]?.message ?? "";
}

async function runCase(c: RealCase, root: string): Promise<Outcome> {
  const path = c.path_applied ?? c.path;
  const before = blob(c.before_sha1);
  const abs = join(root, path);
  await mkdir(dirname(abs), { recursive: true });
  await writeFile(abs, before);
  const history = useHistory && c.history_sha1?.length ? { [path]: c.history_sha1.map(blob) } : undefined;
  const r = await applyEdits(root, c.edit, { target: path, ...(history && { history }) });
  const after = await readFile(abs, "utf8");
  const changed = after !== before;
  const result = !r.ok ? failureCode(r) : changed ? "applied" : "no-change";
  const judged = raw ? undefined : JUDGED[c.id];
  if (judged?.outcome === "unscored") return { verdict: "unscored", result, why: judged.why };
  if (judged?.outcome === "no_change") {
    if (!r.ok) return { verdict: "refused", result, why: failureMessage(r).split("\n")[0] ?? "" };
    return changed ? { verdict: "wrong", result, why: firstDifference(before, after) } : { verdict: "correct", result, why: "" };
  }
  if (judged?.outcome === "refuse_or_no_change") return !changed ? { verdict: "correct", result, why: "" } : { verdict: "wrong", result, why: firstDifference(before, after) };
  if (judged?.outcome === "refuse") return !r.ok ? { verdict: "correct", result, why: "" } : { verdict: "wrong", result, why: changed ? firstDifference(before, after) : "reported done, nothing written" };
  if (judged?.outcome === "literal") {
    // The SEARCH text as whole lines (it is also the tail of a deeper line there).
    let at = before.indexOf(c.search);
    while (at > 0 && before[at - 1] !== "\n") at = before.indexOf(c.search, at + 1);
    const literal = before.slice(0, at) + c.replace + before.slice(at + c.search.length);
    if (!r.ok) return { verdict: "refused", result, why: failureMessage(r).split("\n")[0] ?? "" };
    return after === literal ? { verdict: "correct", result, why: "" } : { verdict: "wrong", result, why: firstDifference(literal, after) };
  }
  const want = c.expected.after_sha1 === undefined ? undefined : blob(c.expected.after_sha1);
  const rightText = want !== undefined && after === want;
  switch (judged?.outcome === "refuse_or_apply" ? "refuse_or_apply" : c.expected.outcome) {
    case "unknown":
      return { verdict: "unscored", result, why: "" };
    case "apply":
      if (!r.ok) return { verdict: "refused", result, why: failureMessage(r).split("\n")[0] ?? "" };
      return rightText ? { verdict: "correct", result, why: "" } : { verdict: "wrong", result, why: changed ? firstDifference(want ?? "", after) : "nothing written, reported done" };
    case "refuse":
      return !r.ok ? { verdict: "correct", result, why: "" } : { verdict: "wrong", result, why: changed ? firstDifference(before, after) : "reported done, nothing written" };
    case "no_change":
      if (!r.ok) return { verdict: "refused", result, why: failureMessage(r).split("\n")[0] ?? "" };
      return changed ? { verdict: "wrong", result, why: firstDifference(before, after) } : { verdict: "correct", result, why: "" };
    case "refuse_or_apply":
      if (!r.ok) return { verdict: "correct", result, why: "" };
      return rightText ? { verdict: "correct", result, why: "" } : { verdict: "wrong", result, why: changed ? firstDifference(want ?? "", after) : "nothing written, reported done" };
  }
}

const cases: RealCase[] = readFileSync(casesFile, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as RealCase)
  .filter((c) => only === undefined || c.category === only);

const tmp = await mkdtemp(join(tmpdir(), "fuzzpatch-real-"));
interface Row {
  c: RealCase;
  o: Outcome;
}
const rows: Row[] = [];
const t0 = performance.now();
for (const [i, c] of cases.entries()) {
  const root = join(tmp, String(i));
  await mkdir(root);
  let o: Outcome;
  try {
    o = await runCase(c, root);
  } catch (error) {
    o = { verdict: c.expected.outcome === "unknown" ? "unscored" : "wrong", result: "THROWN", why: String(error) };
  }
  rows.push({ c, o });
  await rm(root, { recursive: true, force: true });
}
await rm(tmp, { recursive: true, force: true });
const seconds = (performance.now() - t0) / 1000;

// Per category: correct / wrong / refused (and unscored).
const byCategory = new Map<string, Record<Verdict, number>>();
for (const { c, o } of rows) {
  const key = `${c.category} (${c.confidence}, ${c.expected.outcome})`;
  const counts = byCategory.get(key) ?? { correct: 0, wrong: 0, refused: 0, unscored: 0 };
  counts[o.verdict]++;
  byCategory.set(key, counts);
}
const pad = (s: string | number, n: number) => String(s).padStart(n);
const overridden = raw ? 0 : cases.filter((c) => JUDGED[c.id] !== undefined).length;
console.log(`${casesFile}: ${cases.length} cases${useHistory ? ", with history" : ""}; ${raw ? "labels as shipped" : `${overridden} labels judged by hand (bench/real-judged.ts)`}`);
console.log(`${"category".padEnd(60)} ${pad("correct", 8)} ${pad("wrong", 6)} ${pad("refused", 8)} ${pad("unscored", 9)}`);
for (const [key, n] of [...byCategory.entries()].sort()) {
  console.log(`${key.padEnd(60)} ${pad(n.correct, 8)} ${pad(n.wrong, 6)} ${pad(n.refused, 8)} ${pad(n.unscored, 9)}`);
}

const listed = rows.filter(({ o }) => o.verdict === "wrong" || (show === "refused" && o.verdict === "refused") || (show === "all" && o.verdict !== "correct"));
if (listed.length > 0) console.log("");
for (const { c, o } of listed) {
  console.log(`${o.verdict.toUpperCase()} ${c.id} [${c.category}, ${c.confidence}, expected ${c.expected.outcome}] ${o.result}: ${o.why}`);
}

const total = (v: Verdict) => rows.filter((r) => r.o.verdict === v).length;
const highWrong = rows.filter((r) => r.o.verdict === "wrong" && r.c.confidence === "high").length;
const shouldApply = rows.filter((r) => r.c.expected.outcome === "apply" || r.c.expected.outcome === "no_change");
const refusedShare = shouldApply.length === 0 ? 0 : shouldApply.filter((r) => r.o.verdict === "refused").length / shouldApply.length;
console.log("");
console.log(
  `real: ${total("correct")} correct, ${total("wrong")} wrong (${highWrong} high-confidence), ${total("refused")} refused of ${rows.length - total("unscored")} scored; ` +
    `refused ${(refusedShare * 100).toFixed(1)}% of those expected to apply or change nothing; ${total("unscored")} unscored; ${seconds.toFixed(1)} s`,
);
