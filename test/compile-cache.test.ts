/**
 * The command line's V8 code cache (src/cli/compile-cache.ts, used by the
 * executable src/cli/bin.ts): used only in a directory that is safely this
 * user's, named so no other build or command reads it, written whole or not
 * at all; and end to end through the built executable, a cache is written by
 * the first run, kept while V8 accepts it, and replaced when it is garbage,
 * the command's output the same every time.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { cacheDir, cacheFile, pruneCache, readCache, writeCache } from "../src/cli/compile-cache.ts";
import { REPO } from "./helpers/cli-run.ts";

const posix = process.platform !== "win32";

const scratches: string[] = [];
after(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fuzzpatch-cc-test-"));
  scratches.push(dir);
  return dir;
}

test("cache directory: off when FUZZPATCH_COMPILE_CACHE=0 or NODE_DISABLE_COMPILE_CACHE=1; a given directory is created private", () => {
  const base = scratch();
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: "0" }), undefined);
  assert.equal(cacheDir({ NODE_DISABLE_COMPILE_CACHE: "1" }), undefined);
  const dir = path.join(base, "cache");
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: dir }), dir);
  if (posix) assert.equal(statSync(dir).mode & 0o777, 0o700);
});

test("cache directory: refused when others may write it, when it is a symbolic link, or a file", { skip: !posix && "POSIX modes" }, () => {
  const base = scratch();
  const shared = path.join(base, "shared");
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: shared }), undefined);
  chmodSync(shared, 0o775);
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: shared }), undefined);
  const own = path.join(base, "own");
  mkdirSync(own, { mode: 0o700 });
  const link = path.join(base, "link");
  symlinkSync(own, link);
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: link }), undefined);
  const file = path.join(base, "file");
  writeFileSync(file, "");
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: file }), undefined);
  assert.equal(cacheDir({ FUZZPATCH_COMPILE_CACHE: own }), own);
});

test("cache file: named by build, Node version and command; a command from argv that is not a word cannot climb out", () => {
  const a = cacheFile("/c", { command: "apply", build: "ab".repeat(32) });
  assert.equal(path.dirname(a), "/c");
  assert.match(path.basename(a), new RegExp(`^abababababababab-${process.version.replaceAll(".", "\\.")}-${process.arch}-apply\\.bin$`));
  assert.notEqual(cacheFile("/c", { command: "apply", build: "cd".repeat(32) }), a);
  assert.notEqual(cacheFile("/c", { command: "diff", build: "ab".repeat(32) }), a);
  for (const command of ["../../etc/x", "APPLY", "a/b", "", "x".repeat(40)]) {
    assert.equal(path.basename(cacheFile("/c", { command, build: "ab".repeat(32) })).split("-").at(-1), "other.bin", command);
  }
});

test("cache write: the file appears whole through a rename, and a failed write leaves nothing", () => {
  const base = scratch();
  const file = path.join(base, "x.bin");
  writeCache(file, Buffer.from("compiled"));
  assert.deepEqual(readCache(file), Buffer.from("compiled"));
  writeCache(file, Buffer.from("again"));
  assert.deepEqual(readCache(file), Buffer.from("again"));
  assert.deepEqual(readdirSync(base), ["x.bin"]);
  writeCache(path.join(base, "missing", "y.bin"), Buffer.from("z"));
  assert.deepEqual(readdirSync(base), ["x.bin"]);
  assert.equal(readCache(path.join(base, "missing", "y.bin")), undefined);
});

test("cache prune: the caches of other builds and Node versions go, this build's of every command and other files stay", () => {
  const base = scratch();
  const key = { command: "apply", build: "ab".repeat(32) };
  const mine = [cacheFile(base, key), cacheFile(base, { ...key, command: "diff" })];
  const theirs = [cacheFile(base, { ...key, build: "cd".repeat(32) }), path.join(base, `${"ab".repeat(8)}-v0.0.0-${process.arch}-apply.bin`)];
  for (const f of [...mine, ...theirs]) writeFileSync(f, "x");
  writeFileSync(path.join(base, "notes.txt"), "kept");
  pruneCache(base, key);
  assert.deepEqual(readdirSync(base).sort(), [...mine.map((f) => path.basename(f)), "notes.txt"].sort());
});

const BIN = path.join(REPO, "dist", "cli", "bin.cjs");

test("the built executable: the first run writes the command's cache, the next keeps it, garbage in it is replaced; output the same", { skip: !existsSync(BIN) && "needs npm run build" }, () => {
  const base = scratch();
  const cache = path.join(base, "cache");
  const root = path.join(base, "root");
  mkdirSync(root);
  const original = "function greet(name) {\n    return 'hello ' + name;\n}\n";
  const patch = "--- a/greet.js\n+++ b/greet.js\n@@ -1,3 +1,3 @@\n function greet(name) {\n-    return 'hello ' + name;\n+    return 'hello, ' + name;\n }\n";
  writeFileSync(path.join(base, "edit.diff"), patch);
  const apply = () => {
    writeFileSync(path.join(root, "greet.js"), original);
    const r = spawnSync(process.execPath, [BIN, "apply", path.join(base, "edit.diff"), "--root", root], {
      encoding: "utf8",
      env: { ...process.env, FUZZPATCH_COMPILE_CACHE: cache, NO_COLOR: "1" },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(path.join(root, "greet.js"), "utf8"), original.replace("'hello '", "'hello, '"));
    return r.stdout;
  };
  const first = apply();
  const files = readdirSync(cache);
  assert.equal(files.length, 1);
  assert.match(files[0] ?? "", /-apply\.bin$/);
  const file = path.join(cache, files[0] ?? "");
  const written = statSync(file);
  assert.ok(written.size > 10_000, `a cache of ${written.size} bytes`);

  assert.equal(apply(), first);
  // Accepted by V8, so not written again: the same file (a rewrite renames a new one over it).
  assert.equal(statSync(file).ino, written.ino);

  writeFileSync(file, Buffer.alloc(written.size, 0x5a));
  assert.equal(apply(), first);
  const rewritten = readFileSync(file);
  assert.notDeepEqual(rewritten, Buffer.alloc(written.size, 0x5a));
  assert.deepEqual(readdirSync(cache), files);
});
