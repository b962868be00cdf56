/**
 * Start-up of the installed CLI: packs the repository, installs the tarball
 * into a temporary directory without dev dependencies, and times
 * `node_modules/.bin/fuzzpatch` (what `npx fuzzpatch` runs once npm has
 * found it) against a bare `node -e ""` in the same run: `--help`, and
 * `apply` of a one-line edit (a unified diff) that writes its file, which
 * is put back between runs, outside the timing. The target: `apply` within
 * 1.5 times bare node. Besides wall time it reports each process's own CPU
 * time (user + system, read at exit by a one-line hook in NODE_OPTIONS),
 * which other load on the machine inflates much less than wall time.
 * The CLI runs with its code cache, written by the warm-up runs into a
 * directory of this run, and once more without it: what the first run after
 * an install, or a machine where the cache is off, costs.
 *
 * Usage: npm run bench:startup [-- --runs N] [--tarball FILE] [--args "..."]
 * (`--args` times that command line instead of --help).
 */

import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { installTarball } from "../scripts/pack-install.ts";
import { median } from "./median.ts";

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const RUNS = Number(flag("--runs") ?? 21);
const ARGS = (flag("--args") ?? "--help").split(" ").filter(Boolean);

// Prints the process's CPU time at exit; preloaded with --require into every measured process alike
// (a CommonJS file: an --import hook would start the ES module loader in every process, bare node too).
const CPU_HOOK = 'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("\\ncpu-us=" + (u.user + u.system) + "\\n"); });\n';

interface Sample {
  wall: number;
  cpu: number;
}

/** Wall and CPU time of one run of `command args`, in ms; throws if it fails. */
function time(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Sample {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = /cpu-us=(\d+)/.exec(r.stderr)?.[1];
  if (r.status !== 0 || cpu === undefined) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: Number(cpu) / 1000 };
}

const GREET = 'function greet(name) {\n    return "hello " + name;\n}\n';
const EDIT = '--- a/greet.js\n+++ b/greet.js\n@@ -1,3 +1,3 @@\n function greet(name) {\n-    return "hello " + name;\n+    return "hello, " + name;\n }\n';

interface Subject {
  name: string;
  command: string;
  args: string[];
  /** Run before each timing, outside it. */
  reset?: () => void;
  env?: NodeJS.ProcessEnv;
  samples: Sample[];
}

const APPLY = "fuzzpatch apply edit.diff (one-line edit, written)";

const installed = installTarball(flag("--tarball"));
try {
  const bin = join(installed.dir, "node_modules", ".bin", "fuzzpatch");
  const target = join(installed.dir, "greet.js");
  writeFileSync(join(installed.dir, "edit.diff"), EDIT);
  const hook = join(installed.dir, "cpu-hook.cjs");
  writeFileSync(hook, CPU_HOOK);
  // The apply rows journal their write, as users run it, into this run's directory.
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require=${hook}`.trim(), FUZZPATCH_JOURNAL_DIR: join(installed.dir, "journal") };
  // The CLI keeps V8's compiled code between runs (src/cli/compile-cache.ts); here in a directory of
  // this run, so the rows measure a cache this build wrote, and one row runs without it.
  const cache = join(installed.dir, "compile-cache");
  const cached = { ...env, FUZZPATCH_COMPILE_CACHE: cache };
  const subjects: Subject[] = [
    { name: 'node -e ""', command: process.execPath, args: ["-e", ""], samples: [] },
    { name: `fuzzpatch ${ARGS.join(" ")}`, command: bin, args: ARGS, env: cached, samples: [] },
    { name: APPLY, command: bin, args: ["apply", "edit.diff", "-q"], reset: () => writeFileSync(target, GREET), env: cached, samples: [] },
    {
      name: "the same without the code cache (FUZZPATCH_COMPILE_CACHE=0)",
      command: bin,
      args: ["apply", "edit.diff", "-q"],
      reset: () => writeFileSync(target, GREET),
      env: { ...env, FUZZPATCH_COMPILE_CACHE: "0" },
      samples: [],
    },
  ];
  const run = (s: Subject): Sample => {
    s.reset?.();
    return time(s.command, s.args, installed.dir, s.env ?? env);
  };
  // Warms the file cache; the first run of each command writes its code cache.
  for (const s of subjects) for (let i = 0; i < 3; i++) run(s);
  // Interleaved, so a burst of load on the machine hits every subject alike.
  for (let i = 0; i < RUNS; i++) {
    for (const s of subjects) s.samples.push(run(s));
  }
  console.log(`start-up from an installed tarball (${installed.tarball.split("/").pop()}), ${RUNS} runs, Node ${process.version}\n`);
  console.log("| command | wall median | wall min | wall max | CPU median |");
  console.log("|---|--:|--:|--:|--:|");
  for (const s of subjects) {
    const wall = s.samples.map((x) => x.wall);
    const cpu = s.samples.map((x) => x.cpu);
    const ms = (x: number): string => `${x.toFixed(1)} ms`;
    console.log(`| ${s.name} | ${ms(median(wall))} | ${ms(Math.min(...wall))} | ${ms(Math.max(...wall))} | ${ms(median(cpu))} |`);
  }
  const ratio = (s: Subject, k: "wall" | "cpu"): string =>
    (median(s.samples.map((x) => x[k])) / median((subjects[0]?.samples ?? []).map((x) => x[k]))).toFixed(2);
  console.log("");
  for (const s of subjects.slice(1)) console.log(`${s.name} / bare node: ${ratio(s, "wall")}x (wall), ${ratio(s, "cpu")}x (CPU)`);
  console.log("target: fuzzpatch apply within 1.5x bare node");
} finally {
  installed.dispose();
}
