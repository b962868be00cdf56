/**
 * The test runner behind `npm test` (fast, complete for correctness),
 * `npm run test:slow` (the property, fuzz and race suites that sample
 * thousands of random inputs) and `npm run test:all` (both, as CI runs them).
 *
 *     node --import tsx scripts/run-tests.ts [--slow | --all] [node --test options] [test files]
 *
 * Test files given on the command line are run instead of the mode's list.
 * The reporter prints failures and the closing counts (`# pass N`, `# fail N`,
 * `N passed, N failed`); pass `--test-reporter=tap` for every line.
 *
 * Why a script: node 20's `--test` has no glob and no exclusion, and on two
 * cores it runs one file at a time (its default is one fewer than the
 * cores); the files here run as many at a time as there are cores.
 */

import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Files `npm test` leaves to `npm run test:slow`: each samples random inputs
 * for invariants the example tables of the other files already pin down case
 * by case. CPU seconds of each file alone, measured on this 2-core machine.
 */
export const SLOW_FILES: readonly string[] = [
  "fuzz.test.ts", // 14.5 s: every parser and the engine on 1,500 random inputs each, under a CPU bound
  "budget-property.test.ts", // 6.8 s: the work budget's properties over generated large inputs
  "noise-property.test.ts", // 4.4 s: every format with every kind of model noise, 60 inputs each
  "layout-property.test.ts", // 4.5 s: file layouts (CRLF, BOM, no final newline) through the CLI and the library
  "options-property.test.ts", // 3.3 s: random option combinations against the frozen defaults
  "fs-races.test.ts", // 3.4 s: a concurrent writer racing the transaction at every step
];

function testFiles(mode: "fast" | "slow" | "all"): string[] {
  const all = readdirSync(join(ROOT, "test"))
    .filter((name) => name.endsWith(".test.ts"))
    .sort();
  const slow = new Set(SLOW_FILES);
  const chosen = mode === "all" ? all : all.filter((name) => slow.has(name) === (mode === "slow"));
  return chosen.map((name) => join("test", name));
}

function main(argv: readonly string[]): number {
  const mode = argv.includes("--all") ? "all" : argv.includes("--slow") ? "slow" : "fast";
  const rest = argv.filter((arg) => arg !== "--all" && arg !== "--slow");
  const named = rest.filter((arg) => arg.endsWith(".ts"));
  const options = rest.filter((arg) => !arg.endsWith(".ts"));
  const reporter = options.some((arg) => arg.startsWith("--test-reporter")) ? [] : ["--test-reporter=./test/helpers/summary-reporter.mjs"];
  const files = named.length > 0 ? named : testFiles(mode);
  const args = [
    "--enable-source-maps",
    "--import",
    "tsx",
    "--test",
    `--test-concurrency=${Math.max(2, availableParallelism())}`,
    // A test that hangs fails after 10 minutes instead of holding CI to its limit.
    "--test-timeout=600000",
    ...reporter,
    ...options,
    ...files,
  ];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
  return result.status ?? 1;
}

process.exitCode = main(process.argv.slice(2));
