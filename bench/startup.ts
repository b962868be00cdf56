/**
 * Start-up of the installed CLI: packs the repository, installs the tarball
 * into a temporary directory without dev dependencies, and times
 * `node_modules/.bin/fuzzpatch --help` (what `npx fuzzpatch` runs once npm
 * has found it) against a bare `node -e ""` in the same run. The target is a
 * median under 150 ms. Besides wall time it reports each process's own CPU
 * time (user + system, read at exit by a one-line hook in NODE_OPTIONS), which
 * other load on the machine inflates much less than wall time.
 *
 * Usage: npm run bench:startup [-- --runs N] [--tarball FILE] [--args "..."]
 */

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { installTarball } from "../scripts/pack-install.ts";

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const RUNS = Number(flag("--runs") ?? 21);
const ARGS = (flag("--args") ?? "--help").split(" ").filter(Boolean);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}

// Prints the process's CPU time at exit; loaded with --import into every measured process alike.
const CPU_HOOK = `data:text/javascript,${encodeURIComponent(
  'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("\\ncpu-us=" + (u.user + u.system) + "\\n"); });',
)}`;
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${CPU_HOOK}`.trim() };

interface Sample {
  wall: number;
  cpu: number;
}

/** Wall and CPU time of one run of `command args`, in ms; throws if it fails. */
function time(command: string, args: string[], cwd: string): Sample {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = /cpu-us=(\d+)/.exec(r.stderr)?.[1];
  if (r.status !== 0 || cpu === undefined) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: Number(cpu) / 1000 };
}

const installed = installTarball(flag("--tarball"));
try {
  const bin = join(installed.dir, "node_modules", ".bin", "fuzzpatch");
  const subjects = [
    { name: 'node -e ""', command: process.execPath, args: ["-e", ""], samples: [] as Sample[] },
    { name: `fuzzpatch ${ARGS.join(" ")}`, command: bin, args: ARGS, samples: [] as Sample[] },
  ];
  for (const s of subjects) for (let i = 0; i < 3; i++) time(s.command, s.args, installed.dir); // warm the file cache
  // Interleaved, so a burst of load on the machine hits both subjects alike.
  for (let i = 0; i < RUNS; i++) {
    for (const s of subjects) s.samples.push(time(s.command, s.args, installed.dir));
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
  const ratio = (k: "wall" | "cpu"): string =>
    (median((subjects[1]?.samples ?? []).map((x) => x[k])) / median((subjects[0]?.samples ?? []).map((x) => x[k]))).toFixed(2);
  console.log(`\nfuzzpatch / bare node: ${ratio("wall")} (wall), ${ratio("cpu")} (CPU); target: median under 150 ms`);
} finally {
  installed.dispose();
}
