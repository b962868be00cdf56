/** Spawning the CLI from source for end-to-end tests (the built bin is checked by test/pack/pack-install.ts). */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { buildSync } from "esbuild";
import { PassThrough, Writable } from "node:stream";
import path from "node:path";
import { fileURLToPath } from "node:url";
import "./journal-sandbox.ts";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = path.join(REPO, "src", "cli", "run.ts");
export const TSX = import.meta.resolve("tsx");

/**
 * The CLI's source (src/cli/run.ts) as one CommonJS file, as the build ships
 * it, dependencies left in node_modules: a spawn through tsx cost ~0.8 s of
 * CPU, this bundle ~0.2 s (an ESM bundle ~0.5 s: the ESM loader resolving
 * the dependencies). cli.test.ts spawns the CLI ~150 times; through tsx it
 * took 114 s of CPU, the largest share of `npm test`. Built
 * once per test process from the current sources (never a stale dist/),
 * named by its content under node_modules/.cache so that imports of the
 * dependencies resolve, and written by rename so parallel files share it.
 */
function bundleCli(): string {
  const version = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
  const result = buildSync({
    entryPoints: [BIN],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    write: false,
    logLevel: "silent",
    // As the build does (scripts/build.ts): CommonJS has no import.meta, and the syntax layer finds its grammars from it.
    define: { FUZZPATCH_VERSION: JSON.stringify(version), "import.meta.url": "__fuzzpatchUrl" },
    banner: { js: 'const __fuzzpatchUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const text = result.outputFiles[0]?.text ?? "";
  const dir = path.join(REPO, "node_modules", ".cache", "fuzzpatch-tests");
  const file = path.join(dir, `cli-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.cjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  }
  return file;
}

let bundled: string | undefined;

/** The command that runs the CLI from the current sources: node on the bundle (see bundleCli). */
export function cliCommand(): string[] {
  bundled ??= bundleCli();
  return [process.execPath, "--enable-source-maps", bundled];
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` (default: the CLI from its sources, see cliCommand) with `args`. Asynchronous, so a file's tests run side by side. */
export function runCli(args: string[], cwd: string, input?: string, command: string[] = cliCommand()): Promise<Run> {
  const [file, ...pre] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...pre, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => {
      stdout += s;
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      stderr += s;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

/** Runs the CLI's `main(args)` in this process (no spawn: ~1 ms instead of ~0.5 s), stdout and stderr collected, `input` on stdin (empty by default). */
export async function runMain(args: string[], input = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import("../../src/cli/main.ts");
  let stdout = "";
  let stderr = "";
  const sink = (add: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        add(String(chunk));
        done();
      },
    });
  const out = sink((s) => {
    stdout += s;
  });
  const err = sink((s) => {
    stderr += s;
  });
  const stdin = new PassThrough();
  stdin.end(input);
  const code = await main(args, { out, err, env: { NO_COLOR: "1" } }, stdin as unknown as NodeJS.ReadStream);
  return { code, stdout, stderr };
}
