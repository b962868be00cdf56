/**
 * The budget bench (issue 39 item 6; `npm run bench:budget`): hostile inputs of at most 1 MB
 * (test/helpers/hostile-inputs.ts: files of repeated lines, ambiguous hunks,
 * hunks cut short, thousands of blocks, V4A chunks, long lines, deep
 * nesting, a huge single line, many tiny edits) through the command line and
 * the MCP server, each answered within 1 s of CPU: docs/speed.md's promise.
 *
 * CPU time, not wall time, so that a loaded machine does not fail it: each
 * process is started with a preloaded hook that reports `process.cpuUsage()`
 * (user + system, every thread of the process: V8's compiler and collector
 * count) at exit and on SIGUSR2. The command line's figure is its whole
 * process less its start-up (the median of a one-line edit's run, measured
 * first); the server's is the CPU it spent between two readings around one
 * call. Each process journals its writes in a directory of its own, so the
 * user's journal (its size, a prune falling due) does not enter the figures.
 * `BUDGET_FUZZ_RUNS` sets the number of random inputs (default 6,
 * besides one of each shape) and `BUDGET_FUZZ_SEED` replays a run.
 *
 * A bench, not a test: it prints each input's CPU time and exits 1 when one
 * is over the bound, a crash or an unanswered call (the project checks speed
 * targets with benches that print figures, never with timed tests). Slow:
 * ~60-90 s wall.
 */
import { benchTree } from "./sandbox.ts";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { cliCommand } from "../test/helpers/cli-run.ts";
import { type HostileInput, hostileInput, reportedInputs } from "./hostile-inputs.ts";
import { median } from "./median.ts";

/** docs/speed.md: an input of up to 1 MB is answered within 1 s of CPU. */
const BOUND_MS = 1_000;
const RUNS = Number(process.env.BUDGET_FUZZ_RUNS ?? 6);
const SEED = Number(process.env.BUDGET_FUZZ_SEED ?? Date.now() % 2 ** 31);

const HOOK = `const fs = require("node:fs");
const out = process.env.FUZZPATCH_CPU_OUT;
const report = () => { const u = process.cpuUsage(); fs.appendFileSync(out, (u.user + u.system) + "\\n"); };
process.on("exit", report);
process.on("SIGUSR2", report);
`;

let hookFile: string | undefined;
async function hook(): Promise<string> {
  if (hookFile) return hookFile;
  const dir = await mkdtemp(path.join(tmpdir(), "fuzzpatch-cpu-"));
  hookFile = path.join(dir, "cpu-hook.cjs");
  writeFileSync(hookFile, HOOK);
  return hookFile;
}

/** The CLI from the current sources, without source maps (they cost start-up, not the edit). */
const cli = () => cliCommand().filter((arg) => arg !== "--enable-source-maps") as [string, ...string[]];

function inputs(): HostileInput[] {
  const each = reportedInputs.map((shape, k) => fc.sample(shape, { seed: SEED + k, numRuns: 1 })[0] as HostileInput);
  return [...each, ...fc.sample(hostileInput, { seed: SEED, numRuns: RUNS })];
}

/** CPU ms of one `fuzzpatch apply` of `input` in a fresh tree, start-up included. */
async function cliCpu(input: HostileInput): Promise<{ ms: number; code: number | null; stderr: string }> {
  const t = benchTree({ "f.txt": input.file });
  const response = path.join(t.base, "edit.txt");
  await writeFile(response, input.response);
  const out = path.join(t.base, "cpu.txt");
  writeFileSync(out, "");
  const [node, ...rest] = cli();
  const child = spawn(node, ["--require", await hook(), ...rest, "apply", response], { cwd: t.root, env: { ...process.env, NO_COLOR: "1", FUZZPATCH_CPU_OUT: out, FUZZPATCH_JOURNAL_DIR: path.join(t.base, "journal") } });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  child.stdout.resume();
  child.stdin.end();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const lines = readFileSync(out, "utf8").trim().split("\n");
  return { ms: Number(lines.at(-1)) / 1000, code, stderr };
}

/** A JSON-RPC client of `fuzzpatch mcp` over stdio, with the server's CPU readable between calls. */
class Server {
  private child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  private next = 1;
  private constructor(
    child: ChildProcessWithoutNullStreams,
    private cpuFile: string,
  ) {
    this.child = child;
    child.stdout.setEncoding("utf8").on("data", (s: string) => {
      this.buffer += s;
      for (let i = this.buffer.indexOf("\n"); i !== -1; i = this.buffer.indexOf("\n")) {
        const answer = JSON.parse(this.buffer.slice(0, i)) as Record<string, unknown>;
        this.buffer = this.buffer.slice(i + 1);
        this.waiting.get(answer.id as number)?.(answer);
      }
    });
    child.stderr.resume();
  }

  static async start(root: string, base: string): Promise<Server> {
    const cpuFile = path.join(base, "server-cpu.txt");
    writeFileSync(cpuFile, "");
    const [node, ...rest] = cli();
    const child = spawn(node, ["--require", await hook(), ...rest, "mcp", "--root", root], { env: { ...process.env, FUZZPATCH_CPU_OUT: cpuFile, FUZZPATCH_JOURNAL_DIR: path.join(base, "journal") } });
    const server = new Server(child, cpuFile);
    await server.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "budget-fuzz", version: "1" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    return server;
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.request("tools/call", { name, arguments: args });
  }

  /** The server's CPU ms so far (its hook answers SIGUSR2 once its thread is free). */
  async cpu(): Promise<number> {
    const before = readFileSync(this.cpuFile, "utf8").length;
    this.child.kill("SIGUSR2");
    for (let waited = 0; waited < 60_000; waited += 5) {
      const text = readFileSync(this.cpuFile, "utf8");
      if (text.length > before && text.endsWith("\n")) return Number(text.trim().split("\n").at(-1)) / 1000;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error("the server did not report its CPU time within 60 s");
  }

  stop(): void {
    this.child.kill();
  }
}

/** Problems found: inputs over the bound, crashes, unanswered calls. */
const problems: string[] = [];
const fail = (what: string) => problems.push(what);

async function commandLine(): Promise<void> {
  const startUp: number[] = [];
  for (let k = 0; k < 5; k++) {
    const r = await cliCpu({ name: "one-line edit", file: "a\nb\n", response: "--- a/f.txt\n+++ b/f.txt\n@@ @@\n a\n-b\n+c\n", tool: { name: "apply_diff", arguments: {} } });
    if (r.code !== 0) fail(`one-line edit: exit ${r.code}\n${r.stderr}`);
    startUp.push(r.ms);
  }
  const base = median(startUp);
  console.log(`command line (start-up of a one-line edit: ${base.toFixed(0)} ms CPU), ms of CPU beyond start-up:`);
  for (const input of inputs()) {
    const r = await cliCpu(input);
    const ms = r.ms - base;
    const timeout = /TIMEOUT/.test(r.stderr);
    const mark = ms > BOUND_MS || timeout ? " OVER" : "";
    console.log(`${ms.toFixed(0).padStart(7)}  exit ${r.code}${mark}${timeout ? " (TIMEOUT)" : ""}  ${input.name}`);
    // Exit 0 (applied) or 1 (refused), never a crash; a TIMEOUT (the 30 s budget, wall time) is an input over the bound.
    if (r.code !== 0 && r.code !== 1) fail(`command line, ${input.name}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
    if (mark) fail(`command line, ${ms.toFixed(0)} ms${timeout ? " (TIMEOUT)" : ""}: ${input.name}`);
  }
}

async function mcpServer(): Promise<void> {
  const tree = benchTree({ "f.txt": "", "small.txt": "small\n" });
  const server = await Server.start(tree.root, tree.base);
  console.log("MCP server, ms of the server's CPU per call:");
  try {
    let heaviest: { ms: number; input?: HostileInput } = { ms: 0 };
    for (const input of inputs()) {
      await writeFile(path.join(tree.root, "f.txt"), input.file);
      const before = await server.cpu();
      const answer = await server.call(input.tool.name, input.tool.arguments);
      const ms = (await server.cpu()) - before;
      const text = JSON.stringify(answer);
      const timeout = /TIMEOUT/.test(text);
      const mark = ms > BOUND_MS || timeout ? " OVER" : "";
      console.log(`${ms.toFixed(0).padStart(7)}${mark}${timeout ? " (TIMEOUT)" : ""}  ${input.name}`);
      if (!("result" in answer)) fail(`server, ${input.name}: ${text.slice(0, 500)}`);
      if (mark) fail(`server, ${ms.toFixed(0)} ms${timeout ? " (TIMEOUT)" : ""}: ${input.name}`);
      if (ms > heaviest.ms) heaviest = { ms, input };
    }
    // The engine runs on the server's one thread: a read sent while the heaviest edit runs waits for it,
    // and is answered once it ends, never lost or held to the call's budget.
    const input = heaviest.input;
    if (!input) return;
    await writeFile(path.join(tree.root, "f.txt"), input.file);
    const before = await server.cpu();
    const edit = server.call(input.tool.name, input.tool.arguments);
    const read = await server.call("read_file", { path: "small.txt" });
    const ms = (await server.cpu()) - before;
    if (!/small/.test(JSON.stringify(read))) fail(`read_file during the heaviest input: ${JSON.stringify(read).slice(0, 300)}`);
    if (!("result" in (await edit))) fail("the heaviest input's call got no result");
    console.log(`read_file sent during the heaviest input answered after ${ms.toFixed(0)} ms of server CPU: ${input.name}`);
  } finally {
    server.stop();
  }
}

console.log(`budget bench: hostile inputs of up to 1 MB, bound ${BOUND_MS} ms of CPU each (seed ${SEED}; BUDGET_FUZZ_SEED replays it)`);
await commandLine();
await mcpServer();
if (problems.length > 0) {
  console.log(`\n${problems.length} over the bound or failed (seed ${SEED}):\n${problems.join("\n")}`);
  process.exitCode = 1;
} else console.log("\nevery input within the bound");
