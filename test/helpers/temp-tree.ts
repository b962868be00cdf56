/** Temporary project trees for the file-layer and CLI tests, removed after the test file. */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";
import "./journal-sandbox.ts";

const temps: string[] = [];
after(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

/** A fresh directory holding `root/` (the project) and `outside/` (must never change). */
export async function makeTree(files: Record<string, string | Buffer>, prefix = "fuzzpatch-"): Promise<{ base: string; root: string; outside: string }> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  temps.push(base);
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "do not touch\n");
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
  return { base, root, outside };
}

/** Every file under `dir` with its bytes and mode, for byte-exact comparison. */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(d: string): Promise<void> {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      const rel = path.relative(dir, full);
      if (entry.isSymbolicLink()) out.set(rel, "link");
      else if (entry.isDirectory()) {
        out.set(`${rel}/`, "dir");
        await walk(full);
      } else {
        const s = await stat(full);
        out.set(rel, `${(s.mode & 0o7777).toString(8)}:${(await readFile(full)).toString("base64")}`);
      }
    }
  }
  await walk(dir);
  return out;
}

export const read = (root: string, rel: string) => readFile(path.join(root, rel), "utf8");
