/**
 * Where users call fuzzpatch: `applyEdits` (CLI, runTool) and the MCP
 * server's `edit_file`, on the same big file and the same edits as the
 * engine rows of speed.ts, each next to what it cannot beat, measured in the
 * same run: the engine alone (`replace` on the text in memory) and a plain
 * read + write of the file (with and without fsync: fuzzpatch's atomic write
 * syncs). Then the peak memory of one edit, as a multiple of the file size
 * above a bare process that loaded the same modules.
 *
 * Every written edit is undone by the next run (the edit, then its reverse),
 * so the file is the original before each pair.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createEditor, replace } from "../src/index.ts";
import { applyEdits } from "../src/node.ts";
import { findAmbiguous } from "./ambiguous-windows.ts";
import { median } from "./median.ts";

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const NAME = "typescript.js";

export interface Edit {
  /** The region's lines as the file has them. */
  block: string[];
  /** The find text as the model wrote it (the block, re-indented, with a typo, …). */
  old: string[];
  /** Its replacement. */
  neu: string[];
}

/** Wall and CPU milliseconds of one call; the CPU figure (this process, all threads) is the steadier on a loaded machine. */
class Times {
  readonly wall: number[] = [];
  readonly cpu: number[] = [];
  async time(f: () => Promise<unknown> | unknown): Promise<void> {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    this.wall.push(performance.now() - t0);
    const used = process.cpuUsage(c0);
    this.cpu.push((used.user + used.system) / 1000);
  }
}

/** A V4A patch adding the edit's last line after the region. */
function v4a(e: Edit, reverse: boolean): string {
  const body = e.block.map((l) => ` ${l}`);
  const added = e.neu[e.neu.length - 1] ?? "";
  return ["*** Begin Patch", `*** Update File: ${NAME}`, "@@", ...body, `${reverse ? "-" : "+"}${added}`, "*** End Patch", ""].join("\n");
}

type Floor = { wall: number; cpu: number };

function row(name: string, t: Times, floor: Floor, note = ""): void {
  const m = median(t.wall);
  const c = median(t.cpu);
  console.log(`| ${name} | ${m.toFixed(2)} | ${Math.max(...t.wall).toFixed(2)} | ${(m / floor.wall).toFixed(2)} | ${c.toFixed(2)} | ${(c / floor.cpu).toFixed(2)} | ${note} |`);
}

const HEADER = "| call | median | max | ratio | CPU median | CPU ratio | |\n|---|---:|---:|---:|---:|---:|---|";

/** Runs `body` on a copy of the source file in a temporary directory, removed after. */
async function onCopy(sourcePath: string, body: (dir: string, file: string, content: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "fuzzpatch-bench-"));
  const file = path.join(dir, NAME);
  copyFileSync(sourcePath, file);
  try {
    await body(dir, file, readFileSync(file, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchFileLayer(sourcePath: string, edits: Edit[], runs: number): Promise<void> {
  await onCopy(sourcePath, async (dir, file, content) => {
    const engine = new Times();
    const plain = new Times();
    const synced = new Times();
    const dry = new Times();
    const written = new Times();
    const v4aDry = new Times();
    const v4aWritten = new Times();
    const scratch = path.join(dir, "scratch.js");
    // Later edits of one text, each undone untimed: the string a previous call returned, and an editor.
    // Both pay for flattening the previous result (V8 joins the pieces of a spliced string when it is
    // first searched), which the row above never does.
    let chained = content;
    const viaString = new Times();
    const editor = createEditor(content);
    const viaEditor = new Times();
    for (const e of edits) {
      const oldString = e.old.join("\n");
      const newString = e.neu.join("\n");
      for (let r = 0; r < runs; r++) {
        await engine.time(() => replace(content, oldString, newString));
        await viaString.time(() => {
          chained = replace(chained, oldString, newString).content;
        });
        chained = replace(chained, newString, oldString).content;
        await viaEditor.time(() => replace(editor, oldString, newString));
        replace(editor, newString, oldString);
        await plain.time(async () => writeFile(scratch, await readFile(file)));
        await synced.time(async () => {
          const bytes = await readFile(file);
          const h = await open(scratch, "w");
          await h.writeFile(bytes);
          await h.sync();
          await h.close();
        });
        await dry.time(() => expectOk(applyEdits(dir, [{ path: NAME, oldString, newString }], { dryRun: true })));
        await written.time(() => expectOk(applyEdits(dir, [{ path: NAME, oldString, newString }])));
        await expectOk(applyEdits(dir, [{ path: NAME, oldString: e.neu.join("\n"), newString: e.block.join("\n") }]));
        await v4aDry.time(() => expectOk(applyEdits(dir, v4a(e, false), { dryRun: true })));
        await v4aWritten.time(() => expectOk(applyEdits(dir, v4a(e, false))));
        await expectOk(applyEdits(dir, v4a(e, true)));
      }
    }
    const floor = { wall: median(engine.wall) + median(plain.wall), cpu: median(engine.cpu) + median(plain.cpu) };
    const floorSynced = median(engine.wall) + median(synced.wall);
    const synced1 = (t: Times) => `${(median(t.wall) / floorSynced).toFixed(2)}× with fsync in the floor`;
    console.log(`\napplyEdits on ${NAME} (${edits.length} exact edits × ${runs} runs, ms per call; ratio = median / (engine + read + write without fsync))\n`);
    console.log(HEADER);
    row("engine alone (replace)", engine, floor);
    row("engine, later edit of the string returned", viaString, floor, "the previous call's result");
    row("engine, later edit through an editor", viaEditor, floor, "createEditor: line table kept");
    row("read + write (no fsync)", plain, floor);
    row("read + write + fsync", synced, floor);
    row("applyEdits dry run", dry, floor, synced1(dry));
    row("applyEdits written", written, floor, synced1(written));
    row("applyEdits V4A dry run", v4aDry, floor, synced1(v4aDry));
    row("applyEdits V4A written", v4aWritten, floor, synced1(v4aWritten));
    // Five runs: its median is steadier than three of these 0.1-0.3 s calls on a shared disk.
    await benchManyFiles(dir, content, 5);
    await benchMcp(dir, edits, runs, floor);
    await benchMemory(dir, edits[0] as Edit, content.length);
  });
}

async function expectOk(p: Promise<{ ok: boolean; errors: unknown[]; files: { edits: { error?: unknown }[] }[] }>): Promise<void> {
  const r = await p;
  if (!r.ok) throw new Error(`bench edit failed: ${JSON.stringify(r.errors)} ${JSON.stringify(r.files[0]?.edits[0]?.error)}`);
}

/**
 * One response of 500 SEARCH/REPLACE blocks over 200 files (1,000-line
 * slices of the big file, 2–3 blocks each), written and then undone by the
 * reverse response; per block, next to its floor: each file read, each
 * block's find text located with indexOf and spliced, each file written
 * (in place; and replaced atomically, as applyEdits replaces it). The first
 * call of the process (its code not yet compiled: a CLI run's case) is shown
 * apart from the runs after it (a server's).
 */
async function benchManyFiles(dir: string, content: string, runs: number): Promise<void> {
  const FILES = 200;
  const BLOCKS = 500;
  const lines = content.split("\n");
  const sub = path.join(dir, "many");
  const files: { name: string; text: string; blocks: string[] }[] = [];
  for (let f = 0; f < FILES; f++) {
    const text = `${lines.slice(f * 1000, f * 1000 + 1000).join("\n")}\n`;
    files.push({ name: `many/f${f}.js`, text, blocks: [] });
  }
  // Blocks of 4 lines ending in a line of text, unique in their file, spread through it.
  for (let b = 0; b < BLOCKS; b++) {
    const file = files[b % FILES] as (typeof files)[number];
    const fl = file.text.split("\n");
    for (let i = 50 + 300 * Math.floor(b / FILES); i < fl.length - 4; i++) {
      const block = fl.slice(i, i + 4);
      const find = block.join("\n");
      if ((block[3] ?? "").trim().length < 4 || file.text.indexOf(find) !== file.text.lastIndexOf(find)) continue;
      if (file.blocks.some((x) => x.includes(block[0] ?? "") || find.includes(x.split("\n")[0] ?? ""))) continue;
      file.blocks.push(find);
      break;
    }
  }
  const { mkdirSync, writeFileSync } = await import("node:fs");
  mkdirSync(sub, { recursive: true });
  for (const f of files) writeFileSync(path.join(dir, f.name), f.text);
  const response = (reverse: boolean) =>
    files
      .map((f) =>
        f.blocks
          .map((find) => {
            const [a, b] = reverse ? [`${find}\n// edited`, find] : [find, `${find}\n// edited`];
            return `${f.name}\n\`\`\`\n<<<<<<< SEARCH\n${a}\n=======\n${b}\n>>>>>>> REPLACE\n\`\`\`\n`;
          })
          .join("\n"),
      )
      .join("\n");
  const blocks = files.reduce((n, f) => n + f.blocks.length, 0);
  const forward = response(false);
  const backward = response(true);
  const applied = new Times();
  const first = new Times();
  const floor = new Times();
  const atomicFloor = new Times();
  for (let r = 0; r <= runs; r++) {
    await (r === 0 ? first : applied).time(async () => {
      const result = await applyEdits(dir, forward);
      if (!result.ok || result.applied !== blocks) throw new Error(`bench 500 blocks: ${result.applied} of ${blocks} applied`);
    });
    await expectOk(applyEdits(dir, backward));
    await floor.time(async () => {
      for (const f of files) {
        let text = await readFile(path.join(dir, f.name), "utf8");
        for (const find of f.blocks) {
          const at = text.indexOf(find);
          text = `${text.slice(0, at + find.length)}\n// edited${text.slice(at + find.length)}`;
        }
        await writeFile(path.join(dir, f.name), text);
      }
    });
    for (const f of files) writeFileSync(path.join(dir, f.name), f.text);
    // The same, each file replaced as applyEdits replaces it: a temporary file written, synced and renamed over it.
    await atomicFloor.time(async () => {
      for (const f of files) {
        const target = path.join(dir, f.name);
        let text = await readFile(target, "utf8");
        for (const find of f.blocks) {
          const at = text.indexOf(find);
          text = `${text.slice(0, at + find.length)}\n// edited${text.slice(at + find.length)}`;
        }
        const temp = `${target}.floor.tmp`;
        const handle = await open(temp, "wx");
        await handle.writeFile(text);
        await handle.sync();
        await handle.close();
        await rename(temp, target);
      }
    });
    for (const f of files) writeFileSync(path.join(dir, f.name), f.text);
  }
  const per = (t: Times): Times => Object.assign(new Times(), { wall: t.wall.map((x) => x / blocks), cpu: t.cpu.map((x) => x / blocks) });
  const perFloor = per(floor);
  const floorOf = { wall: median(perFloor.wall), cpu: median(perFloor.cpu) };
  console.log(`\nOne response of ${blocks} SEARCH/REPLACE blocks over ${FILES} files (${runs} runs; ms per block; ratio = median / floor)\n`);
  console.log(HEADER);
  const perAtomic = per(atomicFloor);
  const ratioAtomic = (t: Times) => `${(median(t.wall) / median(perAtomic.wall)).toFixed(2)}× (CPU ${(median(t.cpu) / median(perAtomic.cpu)).toFixed(2)}×) the floor written atomically`;
  row("floor: read + indexOf + splice + write", perFloor, floorOf);
  row("floor, each file replaced atomically (temporary file, fsync, rename; one at a time)", perAtomic, floorOf);
  row("applyEdits written, first call of the process", per(first), floorOf, ratioAtomic(per(first)));
  row("applyEdits written", per(applied), floorOf, ratioAtomic(per(applied)));
}

/** Minor page faults of the process `pid` so far (from /proc): touching new memory, ~20 µs of CPU each on this machine. */
function faultsOf(pid: number | null): number {
  if (pid === null) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // minflt is field 10 of stat, 8 after the name.
  return Number(fields[7]);
}

/** CPU milliseconds the process `pid` has used (user + system, from /proc). */
function cpuOf(pid: number | null): number {
  if (pid === null) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * The MCP table alone (`npm run bench -- --mcp`), next to the floor of a
 * written edit measured in the same run: the engine alone, then the file read,
 * a temporary file written and synced (fdatasync) and renamed over it. With
 * FUZZPATCH_BENCH_PROFILE=DIR the server runs under `--cpu-prof` into DIR.
 */
export async function benchMcpAlone(sourcePath: string, edits: Edit[], runs: number): Promise<void> {
  await onCopy(sourcePath, async (dir, file, content) => {
    const engine = new Times();
    const atomic = new Times();
    for (const e of edits) {
      for (let r = 0; r < runs; r++) {
        await engine.time(() => replace(content, e.old.join("\n"), e.neu.join("\n")));
        await atomic.time(async () => {
          const bytes = await readFile(file);
          const temp = `${file}.floor.tmp`;
          const h = await open(temp, "wx");
          await h.writeFile(bytes);
          await h.datasync();
          await h.close();
          await rename(temp, file);
        });
      }
    }
    const floor = { wall: median(engine.wall) + median(atomic.wall), cpu: median(engine.cpu) + median(atomic.cpu) };
    console.log(`\nFloor of a written edit: engine ${median(engine.wall).toFixed(2)} ms (CPU ${median(engine.cpu).toFixed(2)}) + read, write, fdatasync, rename ${median(atomic.wall).toFixed(2)} ms (CPU ${median(atomic.cpu).toFixed(2)}); ratios below are to their sum`);
    await benchMcp(dir, edits, runs, floor);
  });
}

async function benchMcp(dir: string, edits: Edit[], runs: number, floor: Floor): Promise<void> {
  // The server reports the engine's part of each edit here (bench/mcp-timed-server.ts).
  const engineLog = path.join(dir, "engine-ms.log");
  writeFileSync(engineLog, "");
  const engineTimes = (): number[] => readFileSync(engineLog, "utf8").split("\n").filter(Boolean).map(Number);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...profileArgs(), "--import", "tsx", path.join(REPO, "bench", "mcp-timed-server.ts"), engineLog, "mcp", "--root", dir, "--timeout", "120000"],
    // A budget far above any call: the bench times each call (a fresh server's first edit of a 9 MB file parsed it whole
    // for the syntax report, past the default 10 s on a loaded machine). The server journals its writes, as users run it, into the bench's directory (not the user's state directory).
    env: { ...process.env, FUZZPATCH_JOURNAL_DIR: path.join(dir, "journal") } as Record<string, string>,
    stderr: "ignore",
    cwd: REPO,
  });
  const client = new Client({ name: "fuzzpatch-bench", version: "1.0.0" });
  await client.connect(transport);
  const call = async (args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> => {
    const result = await client.callTool({ name: "edit_file", arguments: { path: NAME, ...args } });
    const text = (result.content as { text?: string }[])[0]?.text ?? "";
    return { isError: result.isError === true, text };
  };
  try {
    const first = new Times();
    // "exact, new text": an exact edit whose result the journal has never stored (each call a new line), as in a session of edits.
    const later: Record<string, Times> = { exact: new Times(), "exact, new text": new Times(), "re-indented": new Times(), typo: new Times(), absent: new Times(), ambiguous: new Times() };
    // The engine's part of the same calls (ms, from inside the server).
    const engine: Record<string, number[]> = { exact: [], "exact, new text": [], "re-indented": [], typo: [], absent: [], ambiguous: [] };
    // The server's page faults per call, by kind.
    const faults: Record<string, number[]> = { exact: [], "exact, new text": [], "re-indented": [], typo: [], absent: [], ambiguous: [] };
    let fresh = 0;
    // Three real lines that stand in 2-10 places (as speed.ts's "ambiguous"): refused as AMBIGUOUS.
    const ambiguous = findAmbiguous(readFileSync(path.join(dir, NAME), "utf8").split("\n"), edits.length);
    const firstEngine: number[] = [];
    const indent = (l: string) => l.replace(/^ +/, (m) => "\t".repeat(Math.ceil(m.length / 4)));
    const typo = (b: string[]) => b.map((l, k) => (k === 6 ? l.replace(/[A-Za-z_]\w{3,}/, (w) => `${w.slice(0, -1)}Q`) : l));
    // Letters rotated by 13: text that is nowhere in the file (as speed.ts's "absent").
    const rot13 = (l: string) => l.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= "Z" ? 65 : 97)));
    const absent = (b: string[]) => b.map(rot13);
    for (const [k, e] of edits.entries()) {
      const neu = e.neu.join("\n");
      const undo = async (written: string) => {
        const r = await call({ edits: [{ oldString: written, newString: e.block.join("\n") }] });
        if (r.isError) throw new Error(`bench undo failed: ${r.text}`);
      };
      const kinds: [string, string, boolean][] = [
        ["exact", e.block.join("\n"), false],
        ["exact, new text", e.block.join("\n"), false],
        ["re-indented", e.block.map(indent).join("\n"), false],
        ["typo", typo(e.block).join("\n"), false],
        ["absent", absent(e.block).join("\n"), true],
        ...(ambiguous[k] ? [["ambiguous", (ambiguous[k] as string[]).join("\n"), true] as [string, string, boolean]] : []),
      ];
      for (const [name, oldString, refuse] of kinds) {
        for (let r = 0; r < runs; r++) {
          const newString = name === "exact" ? neu : name === "exact, new text" ? `${neu} ${fresh++}` : `${oldString}\n${e.neu[e.neu.length - 1] ?? ""}`;
          const logged = engineTimes().length;
          const c0 = cpuOf(transport.pid);
          const f0 = faultsOf(transport.pid);
          const t0 = performance.now();
          const result = await call({ edits: [{ oldString, newString }] });
          const t = performance.now() - t0;
          const c = cpuOf(transport.pid) - c0;
          const f = faultsOf(transport.pid) - f0;
          if (result.isError !== refuse) throw new Error(`bench MCP ${name} edit: ${result.text.slice(0, 400)}`);
          // The very first call of the server: its first edit of the file.
          const isFirst = k === 0 && r === 0 && name === "exact";
          const into = isFirst ? first : (later[name] as Times);
          into.wall.push(t);
          into.cpu.push(c);
          if (!isFirst) faults[name]?.push(f);
          for (const ms of engineTimes().slice(logged)) (isFirst ? firstEngine : (engine[name] as number[])).push(ms);
          if (!refuse) await undo(name === "exact, new text" ? newString : neu);
        }
      }
    }
    console.log(`\nMCP edit_file round trip on ${NAME} (stdio, server = fuzzpatch mcp through tsx; ms per call; ratio as above; CPU = the server's, 10 ms ticks)\n`);
    console.log(HEADER);
    row("first edit of the file (fresh server)", first, floor, `engine ${median(firstEngine).toFixed(2)} ms`);
    for (const [name, times] of Object.entries(later)) {
      row(`second edit of the same file: ${name}`, times, floor, `${name === "absent" || name === "ambiguous" ? "refused" : "written"}; CPU max ${Math.max(...times.cpu).toFixed(0)} ms; engine median ${median(engine[name] ?? []).toFixed(2)} ms, max ${Math.max(...(engine[name] ?? [])).toFixed(2)} ms; page faults median ${median(faults[name] ?? [])}`);
    }
    const pid = transport.pid;
    if (pid !== null) {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const peak = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      console.log(`\nServer peak RSS after these calls: ${(peak / 1e6).toFixed(0)} MB`);
    }
  } finally {
    await client.close();
  }
}

/** `--cpu-prof` into $FUZZPATCH_BENCH_PROFILE, when set. */
function profileArgs(): string[] {
  const out = process.env.FUZZPATCH_BENCH_PROFILE;
  return out ? ["--cpu-prof", "--cpu-prof-dir", out] : [];
}

/** Peak RSS of one applyEdits call in a fresh process, above the same process without the call. */
async function benchMemory(dir: string, e: Edit, chars: number): Promise<void> {
  const size = readFileSync(path.join(dir, NAME)).length;
  const peak = async (mode: string) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO, "bench", "file-layer-child.ts"), mode, dir, NAME, e.block.join("\n"), e.neu.join("\n")], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    await new Promise((resolve) => child.on("close", resolve));
    return Number(out.trim());
  };
  const bare = await peak("none");
  const dry = await peak("dry");
  const written = await peak("write");
  console.log(`\nPeak RSS of one exact edit (fresh process; file ${(size / 1e6).toFixed(1)} MB, ${chars} chars): bare ${(bare / 1e6).toFixed(0)} MB`);
  console.log("| call | peak RSS | above bare | × file size |");
  console.log("|---|---:|---:|---:|");
  for (const [name, rss] of [
    ["applyEdits dry run", dry],
    ["applyEdits written", written],
  ] as const) {
    console.log(`| ${name} | ${(rss / 1e6).toFixed(0)} MB | ${((rss - bare) / 1e6).toFixed(0)} MB | ${((rss - bare) / size).toFixed(1)} |`);
  }
}
