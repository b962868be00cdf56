/**
 * Issue 22, item 12: a replaced file keeps its setuid/setgid bits where its
 * owner is kept, and a file the user running fuzzpatch may not write is
 * refused (READ_ONLY), never replaced through its writable directory. The
 * tests run as root here: the refusal is then checked in a child process
 * running as an unprivileged user (uid 65534), so it is asserted either way.
 * That child may not be able to enter the clone (a home directory is often
 * 0700), so it runs a self-contained bundle written beside the temporary tree.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, chown, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildSync } from "esbuild";
import { applyEdits } from "../src/node.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

test("item 12: setuid and setgid survive the replacement when the owner is kept (as root: a file of another user)", async () => {
  const t = await makeTree({ "tool.sh": "echo old\n" });
  const file = path.join(t.root, "tool.sh");
  // As root the file belongs to another user: the chown that keeps its owner must come before the chmod (a chown clears both bits).
  if (isRoot) await chown(file, NOBODY, NOBODY);
  await chmod(file, 0o6755);
  const before = await stat(file);
  const result = await applyEdits(t.root, [{ path: "tool.sh", oldString: "old", newString: "new" }]);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  const after = await stat(file);
  assert.equal(await readFile(file, "utf8"), "echo new\n");
  assert.equal((after.mode & 0o7777).toString(8), "6755");
  assert.deepEqual([after.uid, after.gid], [before.uid, before.gid]);
  assert.notEqual(after.ino, before.ino, "replaced by rename, not written in place");
});

/**
 * Runs `body` (a module that may use `applyEdits`) as uid 65534 and returns
 * what it printed. The body is bundled with src/ and its dependencies into
 * `dir`: the child reads nothing from the clone, which it may not enter.
 */
async function runAsNobody(dir: string, body: string): Promise<string> {
  const script = path.join(dir, "child.mjs");
  buildSync({
    stdin: { contents: `import { applyEdits } from "./src/node.ts";\n${body}`, resolveDir: REPO, sourcefile: "child.ts", loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    mainFields: ["module", "main"], // jsonc-parser's CommonJS build is UMD, whose requires esbuild cannot follow
    outfile: script,
    // The version is read from package.json beside src/ unless inlined, as the CLI bundle does.
    define: { FUZZPATCH_VERSION: JSON.stringify(JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).version) },
    logLevel: "silent",
  });
  await chmod(script, 0o644);
  const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: dir, uid: NOBODY, gid: NOBODY });
  return stdout;
}

/** Runs applyEdits on `rel` as `uid` (a child process when that is another user) and returns its error codes. */
async function applyAs(uid: number | undefined, root: string, rel: string): Promise<{ ok: boolean; codes: string[] }> {
  const edit = { path: rel, oldString: "old", newString: "new" };
  if (uid === undefined) {
    const result = await applyEdits(root, [edit]);
    return { ok: result.ok, codes: result.files.map((f) => f.error?.code ?? "") };
  }
  const code = `const r = await applyEdits(${JSON.stringify(root)}, [${JSON.stringify(edit)}]);
process.stdout.write(JSON.stringify({ ok: r.ok, codes: r.files.map((f) => f.error?.code ?? "") }));`;
  return JSON.parse(await runAsNobody(path.dirname(root), code)) as { ok: boolean; codes: string[] };
}

test("item 12: a file the user may not write, in a directory the user may write, is refused with READ_ONLY and left as it was; a file the user owns there is edited", async () => {
  const t = await makeTree({ "locked.txt": "old\n", "mine.txt": "old\n" });
  const locked = path.join(t.root, "locked.txt");
  const mine = path.join(t.root, "mine.txt");
  // The directory is writable by the user; locked.txt is not (as root: root's 0644 file seen by uid 65534).
  await chmod(t.base, 0o755);
  await chmod(t.root, 0o777);
  let user: number | undefined;
  if (isRoot) {
    user = NOBODY;
    await chmod(locked, 0o644);
    await chown(mine, NOBODY, NOBODY);
  } else {
    await chmod(locked, 0o444);
  }
  const before = await stat(locked);
  const refused = await applyAs(user, t.root, "locked.txt");
  assert.equal(refused.ok, false);
  assert.deepEqual(refused.codes, ["READ_ONLY"]);
  const after = await stat(locked);
  assert.equal(await readFile(locked, "utf8"), "old\n");
  assert.deepEqual([after.ino, after.uid, after.mode], [before.ino, before.uid, before.mode]);
  const allowed = await applyAs(user, t.root, "mine.txt");
  assert.deepEqual(allowed, { ok: true, codes: [""] });
  assert.equal(await readFile(mine, "utf8"), "new\n");
});

test("item 12: a dry run reports READ_ONLY too, and a read-only file in a multi-file edit fails the whole call (nothing written)", async () => {
  const t = await makeTree({ "a.txt": "old\n", "b.txt": "old\n" });
  await writeFile(path.join(t.root, "a.txt"), "old\n");
  if (isRoot) {
    // Root may write any file: the all-or-nothing path is checked as uid 65534, who may write b.txt (its own) but not a.txt (root's 0644).
    await chmod(t.base, 0o755);
    await chmod(t.root, 0o777);
    await chown(path.join(t.root, "b.txt"), NOBODY, NOBODY);
    const code = `const edits = [{ path: "b.txt", oldString: "old", newString: "new" }, { path: "a.txt", oldString: "old", newString: "new" }];
const dry = await applyEdits(${JSON.stringify(t.root)}, edits, { dryRun: true });
const real = await applyEdits(${JSON.stringify(t.root)}, edits);
process.stdout.write(JSON.stringify([dry.files.map((f) => f.error?.code ?? ""), real.written, real.ok]));`;
    assert.deepEqual(JSON.parse(await runAsNobody(t.base, code)), [["", "READ_ONLY"], false, false]);
  } else {
    await chmod(path.join(t.root, "a.txt"), 0o444);
    const edits = [
      { path: "b.txt", oldString: "old", newString: "new" },
      { path: "a.txt", oldString: "old", newString: "new" },
    ];
    const dry = await applyEdits(t.root, edits, { dryRun: true });
    assert.deepEqual(dry.files.map((f) => f.error?.code ?? ""), ["", "READ_ONLY"]);
    const real = await applyEdits(t.root, edits);
    assert.deepEqual([real.written, real.ok], [false, false]);
  }
  assert.equal(await readFile(path.join(t.root, "b.txt"), "utf8"), "old\n");
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), "old\n");
});
