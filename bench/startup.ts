/**
 * Start-up of the installed CLI: packs the repository, installs the tarball
 * into a temporary directory without dev dependencies, and times
 * `node_modules/.bin/fuzzpatch --help` (what `npx fuzzpatch` runs once npm
 * has found it) against a bare `node -e ""` in the same run. The target is a
 * median under 150 ms.
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

/** Wall time of one run of `command args`, in ms; throws if it fails. */
function time(command: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const installed = installTarball(flag("--tarball"));
try {
  const bin = join(installed.dir, "node_modules", ".bin", "fuzzpatch");
  const subjects = [
    { name: 'node -e ""', command: process.execPath, args: ["-e", ""], samples: [] as number[] },
    { name: `fuzzpatch ${ARGS.join(" ")}`, command: bin, args: ARGS, samples: [] as number[] },
  ];
  for (const s of subjects) for (let i = 0; i < 3; i++) time(s.command, s.args, installed.dir); // warm the file cache
  // Interleaved, so a burst of load on the machine hits both subjects alike.
  for (let i = 0; i < RUNS; i++) {
    for (const s of subjects) s.samples.push(time(s.command, s.args, installed.dir));
  }
  console.log(`start-up from an installed tarball (${installed.tarball.split("/").pop()}), ${RUNS} runs, Node ${process.version}\n`);
  console.log("| command | median | min | max |");
  console.log("|---|--:|--:|--:|");
  for (const s of subjects) {
    console.log(`| ${s.name} | ${median(s.samples).toFixed(1)} ms | ${Math.min(...s.samples).toFixed(1)} ms | ${Math.max(...s.samples).toFixed(1)} ms |`);
  }
  const ratio = median(subjects[1]?.samples ?? []) / median(subjects[0]?.samples ?? []);
  console.log(`\nfuzzpatch / bare node: ${ratio.toFixed(2)}; target: median under 150 ms`);
} finally {
  installed.dispose();
}
