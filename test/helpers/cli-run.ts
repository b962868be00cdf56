/** Spawning the CLI from source for end-to-end tests (the built bin is checked by test/pack/pack-install.ts). */
import { spawn } from "node:child_process";
import { PassThrough, Writable } from "node:stream";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = path.join(REPO, "src", "cli", "run.ts");
export const TSX = import.meta.resolve("tsx");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` (default: the CLI through tsx) with `args`. Asynchronous, so a file's tests run side by side (each spawn is mostly tsx starting up). */
export function runCli(args: string[], cwd: string, input?: string, command: string[] = [process.execPath, "--import", TSX, BIN]): Promise<Run> {
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

/** Runs the CLI's `main(args)` in this process (no spawn: ~1 ms instead of ~0.5 s), stdout and stderr collected, stdin empty. */
export async function runMain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
  const code = await main(args, { out, err, env: { NO_COLOR: "1" } }, new PassThrough() as unknown as NodeJS.ReadStream);
  return { code, stdout, stderr };
}
