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
 *
 * `pause()` has it put the tree back as it was and wait, so a test can check
 * that a call goes through when nothing swaps (a race test whose calls were
 * all refused would prove nothing); `resume()` lets it go on.
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
// flag: [0] stop asked, [1] swaps made (at the end), [2] pause asked, [3] paused.
const WORKER = `
const { workerData, parentPort } = require("node:worker_threads");
const fs = require("node:fs");
const { mode, dir, file, outside, fifo, content, flag } = workerData;
const state = new Int32Array(flag);
const attempt = (fn) => { try { fn(); } catch {} };
// Each state is held a random moment (a spin: a timed wait sleeps far longer), so swaps land at
// every point of a call; the tree is left as it was for longer, so some calls get through.
const hold = (ms) => {
  const until = performance.now() + Math.random() * ms;
  while (performance.now() < until);
};
// Leave the tree as it was: the directory real, the file regular.
const restore = () => {
  if (mode === "dir") {
    attempt(() => { if (fs.lstatSync(dir).isSymbolicLink()) fs.unlinkSync(dir); });
    attempt(() => fs.renameSync(dir + ".away", dir));
  } else {
    attempt(() => fs.writeFileSync(file + ".back", content));
    attempt(() => fs.renameSync(file + ".back", file));
    attempt(() => fs.unlinkSync(file + ".swap"));
  }
};
let swaps = 0;
while (Atomics.load(state, 0) === 0) {
  if (Atomics.load(state, 2) === 1) {
    restore();
    Atomics.store(state, 3, 1);
    while (Atomics.load(state, 2) === 1 && Atomics.load(state, 0) === 0) Atomics.wait(state, 2, 1, 50);
    Atomics.store(state, 3, 0);
    continue;
  }
  if (mode === "dir") {
    attempt(() => fs.renameSync(dir, dir + ".away"));
    attempt(() => fs.symlinkSync(outside, dir));
    hold(0.1);
    attempt(() => fs.unlinkSync(dir));
    attempt(() => fs.renameSync(dir + ".away", dir));
    hold(0.5);
  } else {
    // Both replacements are made first, so each swap is one rename.
    attempt(() => fs.writeFileSync(file + ".back", content));
    attempt(() => (mode === "fifo" ? fs.linkSync(fifo, file + ".swap") : fs.symlinkSync(outside, file + ".swap")));
    attempt(() => fs.renameSync(file + ".swap", file));
    hold(0.1);
    attempt(() => fs.renameSync(file + ".back", file));
    hold(0.5);
  }
  if (swaps === 0) parentPort.postMessage("swapping");
  swaps++;
}
restore();
Atomics.store(state, 1, swaps);
`;

export interface Attacker {
  /** Puts the tree back as it was and keeps it so until `resume()`. */
  pause(): Promise<void>;
  resume(): void;
  /** Ends the attacker, restores the tree, returns how many swaps it made. */
  stop(): Promise<number>;
}

/**
 * Starts the attacker and resolves once it has made its first swap (a
 * worker takes tens of milliseconds to start on a loaded machine: a test's
 * rounds would otherwise run before it).
 */
export async function startAttacker(paths: AttackerPaths): Promise<Attacker> {
  const flag = new SharedArrayBuffer(16);
  const state = new Int32Array(flag);
  const worker = new Worker(WORKER, { eval: true, workerData: { ...paths, flag } });
  const exited = new Promise<void>((resolve, reject) => {
    worker.once("exit", () => resolve());
    worker.once("error", reject);
  });
  await Promise.race([new Promise((resolve) => worker.once("message", resolve)), exited]);
  return {
    pause: async () => {
      Atomics.store(state, 2, 1);
      const until = Date.now() + 10_000;
      while (Atomics.load(state, 3) === 0) {
        if (Date.now() > until) throw new Error("the attacker did not pause");
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
    resume: () => {
      Atomics.store(state, 2, 0);
      Atomics.notify(state, 2);
    },
    stop: async () => {
      Atomics.store(state, 0, 1);
      Atomics.notify(state, 2);
      await exited;
      return Atomics.load(state, 1);
    },
  };
}
