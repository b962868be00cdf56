/**
 * The race scenarios of test/fs-races.test.ts (issue 22, items 1-3), shared
 * with test/fs-no-proc.test.ts, which runs them again as a system without
 * `/proc` would: a worker thread (race-attacker.ts) swaps entries of the root
 * while edits and reads run, a few hundred rounds each. Each counts what the
 * adversarial campaign counted (files landed outside, temp/lock files left,
 * outside content served or written, calls over their budget) and asserts
 * every count is zero.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestContext } from "node:test";
import { applyEdits } from "../../src/node.ts";
import { runTool } from "../../src/tools.ts";
import { startAttacker } from "./race-attacker.ts";
import { makeTree } from "./temp-tree.ts";

/** Every so many rounds one runs while the attacker pauses: it must succeed (the calls can succeed at all). */
const CALM_EVERY = 10;
const calmRounds = (rounds: number) => Math.floor(rounds / CALM_EVERY);

/** The budget of every call; a call must end within it. */
const BUDGET_MS = 2000;

/** Every entry under `dir`, relative, `/` after directories. */
async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name));
    out.push(entry.isDirectory() ? `${rel}/` : rel);
  }
  return out.sort();
}

/** Runs `fn`, returning its duration; a call still pending after `watchdogMs` counts as hung (and is left running). */
async function timed<T>(fn: () => Promise<T>, watchdogMs: number): Promise<{ ms: number; value?: T; hung: boolean }> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<"hung">((resolve) => {
    timer = setTimeout(() => resolve("hung"), watchdogMs);
  });
  const outcome = await Promise.race([fn().then((value) => ({ value })), watchdog]);
  clearTimeout(timer);
  const ms = performance.now() - start;
  return outcome === "hung" ? { ms, hung: true } : { ms, value: outcome.value, hung: false };
}

/**
 * A directory swapped for a symlink out of the root during applies. Nothing
 * lands outside; no temp or lock file is left; every call ends within its
 * budget; a round run while the attacker pauses is written. `withoutProc`
 * (docs/security.md): an empty directory made through the swapped one may be
 * left outside.
 */
export async function directorySwapRace(t: TestContext, { withoutProc = false } = {}): Promise<void> {
  const rounds = 150;
  const lines = Array.from({ length: rounds }, (_, i) => `line ${i}\n`).join("");
  const tree = await makeTree({ "sub/keep.txt": lines });
  const sub = path.join(tree.root, "sub");
  const outsideBefore = await listAll(tree.outside);
  const attacker = await startAttacker({ mode: "dir", dir: sub, outside: tree.outside });
  let overBudget = 0;
  let written = 0;
  let calmWritten = 0;
  try {
    for (let i = 0; i < rounds; i++) {
      const calm = i % CALM_EVERY === CALM_EVERY - 1;
      if (calm) await attacker.pause();
      // New files, new directories and edits of an existing file, in turn. A calm round makes a new
      // file: the attack may have left keep.txt in the parked directory and a new one made in its place.
      const edit = calm
        ? { path: `sub/calm-${i}.txt`, oldString: "", newString: `calm ${i}\n` }
        : i % 3 === 0
          ? { path: `sub/new-${i}.txt`, oldString: "", newString: `new ${i}\n` }
          : i % 3 === 1
            ? { path: `sub/dir-${i}/new.txt`, oldString: "", newString: `new ${i}\n` }
            : { path: "sub/keep.txt", oldString: `line ${i}\n`, newString: `LINE ${i}\n` };
      const run = await timed(() => applyEdits(tree.root, [edit], { timeoutMs: BUDGET_MS }), BUDGET_MS * 3);
      if (calm) attacker.resume();
      if (run.hung || run.ms > BUDGET_MS) overBudget++;
      if (run.value?.written) {
        written++;
        if (calm) calmWritten++;
      } else if (calm) t.diagnostic(`round ${i}, attacker paused, not written: ${JSON.stringify(run.value?.files[0]?.error ?? run.value?.errors[0] ?? "hung")}`);
    }
  } finally {
    t.diagnostic(`attacker swaps: ${await attacker.stop()}`);
  }
  const landed = (await listAll(tree.outside)).filter((e) => !outsideBefore.includes(e));
  const complete = landed.filter((e) => /(^|\/)((new|calm)-\d+\.txt|new\.txt|keep\.txt)$/.test(e));
  const temps = landed.filter((e) => e.endsWith(".tmp"));
  const locks = landed.filter((e) => e.endsWith(".fuzzpatch-lock"));
  const leftInside = (await listAll(tree.root)).filter((e) => e.includes(".fuzzpatch-"));
  t.diagnostic(
    `rounds ${rounds}, written ${written} (${calmWritten} of ${calmRounds(rounds)} while the attacker paused); outside: ${complete.length} complete files, ${temps.length} temp files, ${locks.length} lock files, ${landed.length} entries in all; left inside: ${leftInside.length}; over budget: ${overBudget}`,
  );
  t.diagnostic(`landed: ${landed.join(" ")} inside: ${leftInside.join(" ")}`);
  // A file inside such a directory is listed on its own, so keeping only files keeps every non-empty one.
  const unexpected = withoutProc ? landed.filter((e) => !e.endsWith("/")) : landed;
  assert.deepEqual(unexpected, [], "entries landed outside the root");
  assert.deepEqual(leftInside, [], "temp or lock files left inside the root");
  assert.equal(overBudget, 0, "calls over their budget");
  // The calls can succeed at all: a test whose every call was refused would prove nothing.
  assert.equal(calmWritten, calmRounds(rounds), "a round run while the attacker paused was not written");
}

/** A file swapped for a symlink out of the root: read_file never serves the outside file, an edit never writes its content into the root. */
export async function fileSwapRace(t: TestContext): Promise<void> {
  const rounds = 200;
  const inside = "inside\nshared\n";
  const tree = await makeTree({ "f.txt": inside });
  const secret = path.join(tree.outside, "secret-f.txt");
  await writeFile(secret, "secret\nshared\n");
  const attacker = await startAttacker({ mode: "file", file: path.join(tree.root, "f.txt"), outside: secret, content: inside });
  let served = 0;
  let shown = 0;
  let writtenIn = 0;
  let reads = 0;
  let calmReads = 0;
  let overBudget = 0;
  try {
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        const calm = (i / 2) % CALM_EVERY === CALM_EVERY - 1;
        if (calm) await attacker.pause();
        const run = await timed(() => runTool("read_file", { path: "f.txt" }, { root: tree.root }), BUDGET_MS * 3);
        if (calm) attacker.resume();
        if (run.hung || run.ms > BUDGET_MS) overBudget++;
        if (run.value && !run.value.isError) {
          reads++;
          if (calm) calmReads++;
        }
        if (run.value?.text.includes("secret")) served++;
      } else {
        const run = await timed(() => applyEdits(tree.root, [{ path: "f.txt", oldString: "shared\n", newString: "shared!\n" }], { timeoutMs: BUDGET_MS }), BUDGET_MS * 3);
        if (run.hung || run.ms > BUDGET_MS) overBudget++;
        if (run.value?.diff.includes("secret")) shown++;
        if (run.value?.written && run.value.diff.includes("secret")) writtenIn++;
      }
    }
  } finally {
    t.diagnostic(`attacker swaps: ${await attacker.stop()}`);
  }
  t.diagnostic(`rounds ${rounds}: outside content served by read_file ${served}, shown in a diff ${shown}, written into the root ${writtenIn}; reads served ${reads} (${calmReads} of ${calmRounds(rounds / 2)} while the attacker paused); over budget ${overBudget}`);
  assert.equal(served, 0, "read_file served the outside file");
  assert.equal(shown, 0, "a diff showed the outside file");
  assert.equal(writtenIn, 0, "outside content was written into the root");
  assert.equal(await readFile(secret, "utf8"), "secret\nshared\n");
  assert.equal(overBudget, 0, "calls over their budget");
  assert.equal(calmReads, calmRounds(rounds / 2), "a read run while the attacker paused was not served");
}

/** A file swapped for a FIFO between the type check and the read: no call hangs, every call ends within its budget. */
export async function fifoSwapRace(t: TestContext): Promise<void> {
  const rounds = 120;
  const inside = "inside\nshared\n";
  const tree = await makeTree({ "f.txt": inside });
  const fifo = path.join(tree.root, "pipe.fifo");
  execFileSync("mkfifo", [fifo]);
  const attacker = await startAttacker({ mode: "fifo", file: path.join(tree.root, "f.txt"), fifo, content: inside });
  let hung = 0;
  let overBudget = 0;
  let slowest = 0;
  // A reader blocked on the FIFO holds a thread of libuv's pool: give it end-of-file, or the next calls queue behind it.
  const release = () => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is reading it.
    }
  };
  try {
    for (let i = 0; i < rounds; i++) {
      const run =
        i % 2 === 0
          ? await timed(() => applyEdits(tree.root, [{ path: "f.txt", oldString: "shared\n", newString: "shared!\n" }], { timeoutMs: BUDGET_MS }), BUDGET_MS * 1.5)
          : await timed(() => runTool("read_file", { path: "f.txt" }, { root: tree.root }), BUDGET_MS * 1.5);
      if (run.hung) {
        hung++;
        release();
      }
      if (run.hung || run.ms > BUDGET_MS) overBudget++;
      slowest = Math.max(slowest, run.ms);
    }
  } finally {
    release();
    t.diagnostic(`attacker swaps: ${await attacker.stop()}`);
  }
  t.diagnostic(`rounds ${rounds}: hung ${hung}, over budget ${overBudget}, slowest ${slowest.toFixed(0)} ms`);
  assert.equal(hung, 0, "calls hung on the FIFO");
  assert.equal(overBudget, 0, "calls over their budget");
}
