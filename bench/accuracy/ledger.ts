/**
 * The rules ledger's accuracy measurement (docs/rules.md): the accuracy
 * cases run through fuzzpatch's default preset with every rule on, then
 * once per rule switched off (`FUZZPATCH_RULES_OFF`, read at load, so each
 * run is its own process), and the verdicts that change are listed.
 *
 *   npm run bench:ledger -- [--seed N] [--cases N] [--rules a,b]
 *
 * Only fuzzpatch runs (no baselines): a run of 1000 cases takes about a
 * minute on a shared machine.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RULES } from "../../src/engine/rules.ts";
import { loadAppliers, runCase } from "./appliers.ts";
import { casesByFormat } from "./cases.ts";
import { findCorpus } from "./corpus.ts";
import { expectedFor, renderCase } from "./render.ts";
import { judge } from "./report.ts";

type Verdicts = Record<string, string>;

/** Every case's verdict for fuzzpatch (default preset), keyed `index/format kind`. */
async function verdicts(seed: number, count: number): Promise<Verdicts> {
  const corpus = findCorpus({ projectRoot: process.cwd() });
  const { appliers } = await loadAppliers();
  const fuzzpatch = appliers.find((a) => a.name === "fuzzpatch");
  if (!fuzzpatch) throw new Error("fuzzpatch could not be loaded");
  const out: Verdicts = {};
  try {
    for (const { index, c, format } of casesByFormat(corpus, seed, count)) {
      const outcome = await runCase(fuzzpatch, renderCase(c, format), c);
      out[`${index}/${format} ${c.kind}`] = judge(expectedFor(c, format), outcome).verdict;
    }
  } finally {
    for (const a of appliers) a.dispose?.();
  }
  return out;
}

function child(off: string, seed: number, count: number): Verdicts {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ["--import", "tsx", self, "--child", "--seed", String(seed), "--cases", String(count)], {
    env: { ...process.env, FUZZPATCH_RULES_OFF: off },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`run with ${off || "every rule on"} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Verdicts;
}

/** The changed verdicts, as `from -> to: n (ids)`. */
function changes(base: Verdicts, off: Verdicts): string {
  const by = new Map<string, string[]>();
  for (const [key, v] of Object.entries(base)) {
    const w = off[key] ?? "missing";
    if (w === v) continue;
    const t = `${v} -> ${w}`;
    by.set(t, [...(by.get(t) ?? []), key]);
  }
  if (by.size === 0) return "0";
  return [...by].map(([t, keys]) => `${t}: ${keys.length} (${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", ..." : ""})`).join("; ");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const seed = Number(value("--seed") ?? 1);
  const count = Number(value("--cases") ?? 1000);
  if (args.includes("--child")) {
    process.stdout.write(JSON.stringify(await verdicts(seed, count)));
    return;
  }
  const rules = (value("--rules")?.split(",") ?? [...RULES]).filter((r) => r !== "");
  const base = child("", seed, count);
  const tally = (v: Verdicts) => {
    const n: Record<string, number> = {};
    for (const x of Object.values(v)) n[x] = (n[x] ?? 0) + 1;
    return Object.entries(n)
      .map(([k, c]) => `${k} ${c}`)
      .join(", ");
  };
  console.log(`seed ${seed}, ${count} cases, every rule on: ${tally(base)}`);
  for (const rule of rules) console.log(`- ${rule} off: ${changes(base, child(rule, seed, count))}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
