/**
 * A concurrent attacker in the project tree, for the race tests
 * (test/fs-races.test.ts): a worker thread swapping one entry of the root,
 * as fast as it can with synchronous calls, until told to stop. It runs in
 * parallel with the main thread's asynchronous file calls, as an agent's
 * shell would. It touches only entries inside the root (the threat model of
 * docs/security.md): it renames, links and unlinks, and never writes outside.
 *
 * Modes (every path absolute):
 * - "dir": `dir` is swapped for a symlink to `outside` and back (the real
 *   directory parked at `dir + ".away"`);
 * - "file": `file` is replaced by a symlink to `outside` and by a regular file
 *   holding `content`, in turn;
 * - "fifo": `file` is replaced by a hard link to the FIFO `fifo` and by a
 *   regular file holding `content`, in turn.
 */
import { Worker } from "node:worker_threads";

export interface AttackerPaths {
  mode: "dir" | "file" | "fifo";
  dir?: string;
  file?: string;
  outside?: string;
  fifo?: string;
  content?: string;
}

// Plain JavaScript: the worker runs without the TypeScript loader.
const WORKER = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { mode, dir, file, outside, fifo, content, flag } = workerData;
const stop = new Int32Array(flag);
const attempt = (fn) => { try { fn(); } catch {} };
// Each state is held a random moment (a spin: a timed wait sleeps far longer), so swaps land at
// every point of a call; the tree is left as it was for longer, so some calls get through.
const hold = (ms) => {
  const until = performance.now() + Math.random() * ms;
  while (performance.now() < until);
};
let swaps = 0;
while (Atomics.load(stop, 0) === 0) {
  if (mode === "dir") {
    attempt(() => fs.renameSync(dir, dir + ".away"));
    attempt(() => fs.symlinkSync(outside, dir));
    hold(0.1);
    attempt(() => fs.unlinkSync(dir));
    attempt(() => fs.renameSync(dir + ".away", dir));
    hold(0.5);
  } else {
    const tmp = file + ".swap";
    attempt(() => (mode === "fifo" ? fs.linkSync(fifo, tmp) : fs.symlinkSync(outside, tmp)));
    attempt(() => fs.renameSync(tmp, file));
    hold(0.1);
    attempt(() => fs.writeFileSync(tmp, content));
    attempt(() => fs.renameSync(tmp, file));
    hold(0.5);
  }
  swaps++;
}
// Leave the tree as it was: the directory real, the file regular.
if (mode === "dir") {
  attempt(() => { if (fs.lstatSync(dir).isSymbolicLink()) fs.unlinkSync(dir); });
  attempt(() => fs.renameSync(dir + ".away", dir));
} else {
  attempt(() => fs.writeFileSync(file + ".swap", content));
  attempt(() => fs.renameSync(file + ".swap", file));
}
Atomics.store(stop, 1, swaps);
`;

/** Starts the attacker; `stop()` ends it, restores the tree and returns how many swaps it made. */
export function startAttacker(paths: AttackerPaths): { stop: () => Promise<number> } {
  const flag = new SharedArrayBuffer(8);
  const worker = new Worker(WORKER, { eval: true, workerData: { ...paths, flag } });
  const exited = new Promise<void>((resolve, reject) => {
    worker.once("exit", () => resolve());
    worker.once("error", reject);
  });
  return {
    stop: async () => {
      Atomics.store(new Int32Array(flag), 0, 1);
      await exited;
      return Atomics.load(new Int32Array(flag), 1);
    },
  };
}
