/**
 * Regression tests for issue 39 ("Trusted with a user's files, part 3"):
 * each case reproduces a report of the third campaign and failed before its
 * fix (item 6, speed, is measured by the benchmarks and `npm run bench:budget`).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, symlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { EditError } from "../src/errors.ts";
import { isDotGit } from "../src/fs/dot-git.ts";
import { MAX_READABLE_BYTES } from "../src/fs/read-file.ts";
import { commitChanges, type PlannedChange } from "../src/fs/transaction.ts";
import { checkLine } from "../src/mcp/json-rpc-lines.ts";
import { applyEdits } from "../src/node.ts";
import { narrowRoots } from "../src/tools/roots.ts";
import { applyPatch } from "../src/index.ts";
import { runCli } from "./helpers/cli-run.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";
import { runTool } from "../src/tools/run-tool.ts";
import fc from "fast-check";

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// --- item 1: a rollback removes the directories it made through the directory held, and says what stayed ---

test("item 1: a rollback never removes an empty directory outside the root through a swapped parent", async () => {
  const t = await makeTree({ "sub/f.txt": "inside\n" });
  await mkdir(path.join(t.outside, "deep"));
  const result = await applyEdits(t.root, [{ path: "sub/deep/new.txt", oldString: "", newString: "x\n" }], {
    hooks: {
      beforeWrite: async () => {
        // An agent's shell swaps the parent of the new directory for a link out of the root, then the write fails.
        await rename(path.join(t.root, "sub"), path.join(t.root, "sub-moved"));
        await symlink(t.outside, path.join(t.root, "sub"));
        throw new Error("injected failure");
      },
    },
  });
  assert.equal(result.written, false);
  assert.deepEqual(await readdir(t.outside), ["deep", "secret.txt"]);
  // The directory made stays (inside the root, where the swap moved it), and the error says so.
  const message = result.errors.map((e) => e.message).join("\n");
  assert.doesNotMatch(message, /Nothing was written\./);
  assert.match(message, /could not be removed .*sub\/deep/);
  assert.deepEqual(await readdir(path.join(t.root, "sub-moved")), ["deep", "f.txt"]);
});

test("item 1: directories made by several batches are all removed after a failure, deepest first", async () => {
  for (let round = 0; round < 20; round++) {
    const t = await makeTree({ "keep.txt": "k\n" });
    const edits = ["a/b/x.txt", "a/c/y.txt", "a/b/d/z.txt", "a/e/f/g/w.txt"].map((p) => ({ path: p, oldString: "", newString: "x\n" }));
    let calls = 0;
    const result = await applyEdits(t.root, edits, {
      hooks: {
        beforeWrite: async () => {
          calls++;
          if (calls === 2) throw new Error("injected failure");
        },
      },
    });
    assert.equal(result.written, false);
    assert.match(result.errors[0]?.message ?? "", /restored|Nothing was written\./);
    assert.deepEqual(await readdir(t.root), ["keep.txt"], `round ${round}: ${result.errors[0]?.message}`);
  }
});

// --- items 2 and 3: .git however it is named or reached ---

const dotGitNames = [".git", ".GIT", ".git.", ".git ", ".git. .", ".git...", "GIT~1", "git~1", "Git~2", ".git::$INDEX_ALLOCATION", ".git:stream", ".g\u200cit", ".git\u200c", "\ufeff.git", ".\u200dgit\u206f", ".G\u202eiT. "];
const otherNames = [".gitignore", ".github", ".git-blame-ignore-revs", "x.git", "git", "git~", "git~x", ".gi t", "GIT~1x", ".git2"];

test("item 3: isDotGit knows .git under the names NTFS, HFS+ and case-insensitive systems give it", () => {
  for (const name of dotGitNames) assert.equal(isDotGit(name), true, JSON.stringify(name));
  for (const name of otherNames) assert.equal(isDotGit(name), false, JSON.stringify(name));
});

for (const name of dotGitNames) {
  test(`item 3: a path through ${JSON.stringify(name)} is UNSAFE_PATH on every platform`, async () => {
    const t = await makeTree({ ".git/config": "[core]\n" });
    const result = await applyEdits(t.root, [{ path: `${name}/hooks/pre-commit`, oldString: "", newString: "#!/bin/sh\n" }]);
    assert.equal(result.written, false);
    assert.equal(result.files[0]?.error?.code, "UNSAFE_PATH", JSON.stringify(result.errors));
    assert.deepEqual(await readdir(t.root), [".git"]);
  });
}

test("item 2: a root inside .git refuses every path; a client root inside .git is no narrowing", async () => {
  const t = await makeTree({ ".git/config": "[core]\n", "a.txt": "a\n" });
  const gitRoot = path.join(t.root, ".git");
  const result = await applyEdits(gitRoot, [{ path: "hooks/pre-commit", oldString: "", newString: "#!/bin/sh\n" }]);
  assert.equal(result.files[0]?.error?.code, "UNSAFE_PATH");
  assert.match(result.files[0]?.error?.message ?? "", /inside \.git/);
  await symlink(gitRoot, path.join(t.root, "g"));
  const viaLink = await applyEdits(path.join(t.root, "g"), [{ path: "config", oldString: "[core]", newString: "[core]\n\thooksPath = /tmp" }]);
  assert.equal(viaLink.files[0]?.error?.code, "UNSAFE_PATH");
  assert.equal(await read(t.root, ".git/config"), "[core]\n");
  assert.deepEqual(await narrowRoots([t.root], [gitRoot, path.join(t.root, "g"), path.join(t.root, ".GIT.")]), {
    roots: [t.root],
    dropped: [gitRoot, path.join(t.root, "g"), path.join(t.root, ".GIT.")],
  });
});

// --- item 4: --allow-binary keeps the bytes it did not edit ---

const undecodable: { name: string; bytes: number[] }[] = [
  { name: "a Latin-1 letter", bytes: [0xe9] },
  { name: "a stray continuation byte", bytes: [0x80] },
  { name: "a truncated sequence", bytes: [0xe2, 0x82] },
  { name: "an overlong encoding", bytes: [0xc0, 0xaf] },
  { name: "an encoded surrogate", bytes: [0xed, 0xa0, 0x80] },
  { name: "0xff 0xfe", bytes: [0xff, 0xfe] },
];

for (const c of undecodable) {
  test(`item 4: allowBinary, ${c.name} on lines the edit does not change is written back as it was`, async () => {
    const bad = Buffer.from(c.bytes);
    const before = Buffer.concat([Buffer.from("caf"), bad, Buffer.from("\nx = 1\n  "), bad, Buffer.from(" tail\r\nend\n")]);
    const t = await makeTree({ "f.txt": before });
    const result = await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }], { allowBinary: true });
    assert.equal(result.ok, true, JSON.stringify(result.errors));
    const after = await readFile(path.join(t.root, "f.txt"));
    assert.equal(after.toString("hex"), Buffer.concat([Buffer.from("caf"), bad, Buffer.from("\nx = 2\n  "), bad, Buffer.from(" tail\r\nend\n")]).toString("hex"));
  });
}

test("item 4: allowBinary, a hunk whose context lines hold undecodable bytes keeps them; so does a file edited twice", async () => {
  const latin = (s: string) => Buffer.from(s, "latin1");
  const t = await makeTree({ "f.txt": latin("caf\xe9\nb\nna\xefve\nd\n\xff\n") });
  const diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n caf\uFFFD\n-b\n+B\n na\uFFFDve\n-d\n+D\n \uFFFD\n";
  const result = await applyEdits(t.root, diff, { allowBinary: true });
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.equal((await readFile(path.join(t.root, "f.txt"))).toString("hex"), latin("caf\xe9\nB\nna\xefve\nD\n\xff\n").toString("hex"));
});

// --- item 5: a file past what the reader can do is TOO_LARGE, never an abort ---

test("item 5: a 2 GiB file with maxFileBytes above it is TOO_LARGE, not a crash", async () => {
  const t = await makeTree({});
  const big = path.join(t.root, "big.txt");
  const handle = await open(big, "w");
  await handle.truncate(2 ** 31 + 16); // sparse: no disk used
  await handle.close();
  const result = await applyEdits(t.root, [{ path: "big.txt", oldString: "a", newString: "b" }], { maxFileBytes: 2 ** 33 });
  assert.equal(result.files[0]?.error?.code, "TOO_LARGE");
  assert.match(result.files[0]?.error?.message ?? "", new RegExp(`over the most fuzzpatch can read of ${MAX_READABLE_BYTES} bytes`));
});

// --- items 7 and 8: locks and temporary files ---

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}

function manyFiles(root: string, n: number): PlannedChange[] {
  return Array.from({ length: n }, (_, i) => ({
    rel: `f${i}.txt`,
    abs: path.join(root, `f${i}.txt`),
    kind: "create" as const,
    bytes: Buffer.from(`${i}\n`),
    original: new Uint8Array(),
  }));
}

test("item 7: a lock held elsewhere is waited for once per transaction, not once per batch of 32 files", async () => {
  const t = await makeTree({});
  // A live process of this host (the test runner's parent) holds the directory's lock.
  await writeFile(path.join(t.root, ".fuzzpatch-lock"), `${process.ppid} ${hostname()}\n`);
  const started = performance.now();
  await assert.rejects(commitChanges(manyFiles(t.root, 100), {}, undefined, 1000), (error: unknown) => error instanceof EditError && error.code === "IO");
  const waited = performance.now() - started;
  // Four batches of one directory waited 1 s each before (4 s); one deadline now.
  assert.ok(waited < 2500, `waited ${Math.round(waited)} ms`);
  assert.deepEqual(await readdir(t.root), [".fuzzpatch-lock"]);
});

test("item 8: the lock of a killed process of this host is taken over at once, and the next run succeeds", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n" });
  await writeFile(path.join(t.root, ".fuzzpatch-lock"), `${await deadPid()} ${hostname()}\n`);
  const started = performance.now();
  const result = await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }]);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.ok(performance.now() - started < 5000);
  assert.deepEqual(await readdir(t.root), ["f.txt"]);
});

test("item 8: a fresh lock of another host or of a live process is still waited for (and a user's file of that name kept)", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n" });
  await writeFile(path.join(t.root, ".fuzzpatch-lock"), `${await deadPid()} some-other-host\n`);
  await assert.rejects(commitChanges(manyFiles(t.root, 1), {}, undefined, 300), (error: unknown) => error instanceof EditError && error.code === "IO");
  await writeFile(path.join(t.root, ".fuzzpatch-lock"), "my notes\n");
  await assert.rejects(commitChanges(manyFiles(t.root, 1), {}, undefined, 300), (error: unknown) => error instanceof EditError && error.code === "IO");
  assert.equal(await read(t.root, ".fuzzpatch-lock"), "my notes\n");
});

test("item 8: temporary files of a killed process, or older than ten minutes, are removed by the next write there; others stay", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n", "g.txt": "g\n" });
  const tag = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);
  const dead = `.f.txt.fuzzpatch-${tag}-${(await deadPid()).toString(36)}-0a1b2c3d.tmp`;
  const old = ".g.txt.fuzzpatch-0123456789ab.tmp";
  const live = `.g.txt.fuzzpatch-${tag}-${process.ppid.toString(36)}-0a1b2c3d.tmp`;
  const foreign = `.g.txt.fuzzpatch-ffffff-${(await deadPid()).toString(36)}-0a1b2c3d.tmp`;
  const userFile = "notes.fuzzpatch-0123456789ab.tmp.txt";
  for (const name of [dead, old, live, foreign, userFile]) await writeFile(path.join(t.root, name), "half written");
  const hourAgo = new Date(Date.now() - 3600_000);
  await utimes(path.join(t.root, old), hourAgo, hourAgo);
  const result = await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }]);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.deepEqual((await readdir(t.root)).sort(), [foreign, live, "f.txt", "g.txt", userFile].sort());
});

test("item 8: a temporary file's name says its host and process", async () => {
  const t = await makeTree({ "f.txt": "x = 1\n" });
  const seen: string[] = [];
  await applyEdits(t.root, [{ path: "f.txt", oldString: "x = 1", newString: "x = 2" }], {
    hooks: {
      beforeWrite: async () => {
        for (const name of await readdir(t.root)) seen.push(name);
      },
    },
  });
  const tag = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);
  assert.ok(
    seen.some((n) => n.startsWith(`.f.txt.fuzzpatch-${tag}-${process.pid.toString(36)}-`) && n.endsWith(".tmp")),
    seen.join(", "),
  );
});

// --- item 9: git names that disagree; JSON-RPC the server could not read ---

const disagreeing: { name: string; diff: string }[] = [
  { name: "copy to", diff: "diff --git a/a.txt b/b.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to c.txt\n" },
  { name: "copy from", diff: "diff --git a/a.txt b/b.txt\nsimilarity index 100%\ncopy from z.txt\ncopy to b.txt\n" },
  { name: "rename to", diff: "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to c.txt\n" },
  {
    name: "copy to against +++",
    diff: "diff --git a/a.txt b/b.txt\nsimilarity index 90%\ncopy from a.txt\ncopy to b.txt\n--- a/a.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-a\n+b\n",
  },
];

for (const c of disagreeing) {
  test(`item 9: a git section whose ${c.name} line disagrees with its other names is refused, nothing written`, async () => {
    const t = await makeTree({ "a.txt": "a\n" });
    const before = await snapshot(t.root);
    const result = await applyEdits(t.root, c.diff);
    assert.equal(result.written, false);
    assert.equal(result.errors[0]?.code, "PARSE", JSON.stringify(result.errors));
    assert.match(result.errors[0]?.message ?? "", /inconsistent/);
    assert.deepEqual(await snapshot(t.root), before);
  });
}

test("item 9: consistent copies and renames still apply", async () => {
  const t = await makeTree({ "a.txt": "a\n", "r.txt": "r\n" });
  const diff =
    "diff --git a/a.txt b/b.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to b.txt\ndiff --git a/r.txt b/s.txt\nsimilarity index 100%\nrename from r.txt\nrename to s.txt\n";
  const result = await applyEdits(t.root, diff);
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  assert.deepEqual((await readdir(t.root)).sort(), ["a.txt", "b.txt", "s.txt"]);
});

test("item 9: checkLine answers what is not JSON, splits batches, refuses what is not a message", () => {
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
  assert.equal(checkLine("{").replies[0]?.error.code, -32700);
  assert.equal(checkLine("not json").replies[0]?.id, null);
  assert.deepEqual(checkLine(JSON.stringify([ping(1), ping(2)])).pass, [JSON.stringify(ping(1)), JSON.stringify(ping(2))]);
  assert.deepEqual(checkLine("[]").replies.map((r) => r.error.code), [-32600]);
  assert.deepEqual(checkLine(`[1, ${JSON.stringify(ping(3))}, {"id": 4}]`), {
    pass: [JSON.stringify(ping(3))],
    replies: [checkLine("1").replies[0], { ...checkLine("1").replies[0], id: 4 }],
  });
  assert.deepEqual(checkLine(" "), { pass: [], replies: [] });
  assert.deepEqual(checkLine(JSON.stringify(ping(5))).pass, [JSON.stringify(ping(5))]);
});

test("item 9: the server answers a line that is not JSON with -32700 and each request of a batch", async () => {
  const t = await makeTree({ "a.txt": "a\n" });
  const child = spawn(process.execPath, [path.join(REPO, "dist", "cli", "bin.cjs"), "mcp", "--root", t.root], { stdio: ["pipe", "pipe", "pipe"] });
  const answers: Record<string, unknown>[] = [];
  let buffer = "";
  const got = (n: number) =>
    new Promise<void>((resolve, reject) => {
      // Polling stops with the timeout: a poll left running keeps the test process alive forever.
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(new Error(`only ${answers.length} answers: ${JSON.stringify(answers)}`));
      }, 60_000);
      const check = () => {
        if (answers.length >= n) {
          clearTimeout(timer);
          resolve();
        } else if (!timedOut) setTimeout(check, 10);
      };
      check();
    });
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf("\n"); i !== -1; i = buffer.indexOf("\n")) {
      answers.push(JSON.parse(buffer.slice(0, i)));
      buffer = buffer.slice(i + 1);
    }
  });
  try {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    child.stdin.write(`${JSON.stringify(init)}\n`);
    await got(1);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    child.stdin.write('{"jsonrpc": "2.0", "id": 2, "method": "ping"\n');
    await got(2);
    assert.deepEqual([answers[1]?.id, (answers[1]?.error as { code: number } | undefined)?.code], [null, -32700]);
    child.stdin.write(`${JSON.stringify([{ jsonrpc: "2.0", id: 3, method: "ping" }, { jsonrpc: "2.0", id: 4, method: "ping" }])}\n`);
    await got(4);
    assert.deepEqual(answers.slice(2).map((a) => a.id).sort(), [3, 4]);
    assert.ok(answers.slice(2).every((a) => "result" in a));
  } finally {
    child.kill();
  }
});

// --- item 6: the exact search stops once ambiguity is certain, never changing the answer ---

test("item 6: a hunk of repeated lines with thousands of places is AMBIGUOUS without listing them all", () => {
  const file = "}\n".repeat(20_000);
  const patch = `--- a/f\n+++ b/f\n@@ @@\n${" }\n".repeat(5)}-}\n+};\n${" }\n".repeat(5)}`;
  assert.throws(
    () => applyPatch(file, patch),
    (error: unknown) => error instanceof EditError && error.code === "AMBIGUOUS" && /matches more than 1001 places/.test(error.message),
  );
});

test("item 6: an ordered hunk whose one place after the previous hunk follows thousands of others is still placed by order", () => {
  const file = `${"}\n".repeat(5000)}x\n}\n}\n}\n}\n}\ny\n`;
  const patch = "--- a/f\n+++ b/f\n@@ @@\n-x\n+X\n@@ @@\n }\n }\n-}\n+};\n }\n }\n";
  assert.equal(applyPatch(file, patch).content, `${"}\n".repeat(5000)}X\n}\n}\n};\n}\n}\ny\n`);
  // The same text with a line hint in range is placed by the hint, as before.
  const hinted = "--- a/f\n+++ b/f\n@@ -2001,5 +2001,5 @@\n }\n }\n-}\n+};\n }\n }\n";
  assert.equal(applyPatch(file, hinted).content.split("\n")[2002], "};");
});

test("item 6: the command line takes --timeout (TIMEOUT, nothing written) and a tool call has a budget of its own", async () => {
  const t = await makeTree({ "f.txt": "}\n".repeat(100_000) });
  const diff = `--- a/f.txt\n+++ b/f.txt\n@@ @@\n${" }\n".repeat(400)}-}\n+};\n`.repeat(30);
  await writeFile(path.join(t.base, "edit.diff"), diff);
  const cli = await runCli(["apply", "--timeout", "1", path.join(t.base, "edit.diff")], t.root);
  assert.equal(cli.code, 1, cli.stderr);
  assert.match(cli.stderr, /TIMEOUT/);
  const tool = await runTool("apply_diff", { diff }, { root: t.root, timeoutMs: 1 });
  assert.equal(tool.isError, true);
  assert.match(tool.text, /TIMEOUT/);
  assert.equal(await read(t.root, "f.txt"), "}\n".repeat(100_000));
});

/** What an applyPatch call answered, hunk by hunk (an ambiguity's list of places aside: a capped search lists fewer). */
function outcomeOf(run: () => ReturnType<typeof applyPatch>): unknown {
  try {
    const r = run();
    return {
      content: r.content,
      hunks: r.hunks.map((h) => [h.index, h.startLine, h.endLine, h.strategy, h.resolvedBy]),
      rejected: (r.rejected ?? []).map((x) => [x.index, x.error.code]),
      skipped: (r.skipped ?? []).map((x) => x.index),
      already: r.alreadyApplied?.code,
    };
  } catch (error) {
    return error instanceof EditError ? { error: error.code } : { threw: String(error) };
  }
}

test("item 6: the capped exact search answers as the full one (order, end of file and cut-short context included)", () => {
  // A `resolveAmbiguity` callback that picks nothing answers as no callback does, but switches the cap
  // off (a callback can pick any place): the two calls must agree on every hunk.
  const hunk = fc.record({
    leading: fc.integer({ min: 0, max: 4 }),
    trailing: fc.integer({ min: 0, max: 4 }),
    change: fc.constantFrom("brace", "marker"),
    noNewline: fc.boolean(),
  });
  const input = fc.record({
    lines: fc.integer({ min: 1_005, max: 1_600 }),
    markers: fc.uniqueArray(fc.double({ min: 0, max: 0.6, noNaN: true }), { maxLength: 3 }),
    finalNewline: fc.boolean(),
    // Lines `}}` from the first marker to the last few lines: places of `}` lines inside longer lines, which
    // the whole-line filter drops, so that the places kept after a hunk may all be dropped.
    doubled: fc.option(fc.integer({ min: 1, max: 6 })),
    hunks: fc.array(hunk, { minLength: 1, maxLength: 4 }),
  });
  fc.assert(
    fc.property(input, (spec) => {
      const lines = Array.from({ length: spec.lines }, () => "}");
      spec.markers.forEach((at, k) => {
        lines[Math.min(spec.lines - 1, Math.floor(at * spec.lines))] = `x${k}`;
      });
      const from = lines.indexOf("x0");
      if (spec.doubled !== null && from !== -1) for (let i = from + 1; i < spec.lines - spec.doubled; i++) if (lines[i] === "}") lines[i] = "}}";
      const file = lines.join("\n") + (spec.finalNewline ? "\n" : "");
      const body = spec.hunks.map((h, k) => {
        const change = h.change === "brace" || spec.markers.length === 0 ? ["-}", "+};"] : [`-x${k % spec.markers.length}`, `+y${k}`];
        const tail = [...Array.from({ length: h.trailing }, () => " }")];
        const eof = h.noNewline && tail.length > 0 ? ["\\ No newline at end of file"] : [];
        return ["@@ @@", ...Array.from({ length: h.leading }, () => " }"), ...change, ...tail, ...eof].join("\n");
      });
      const patch = `--- a/f\n+++ b/f\n${body.join("\n")}\n`;
      const capped = outcomeOf(() => applyPatch(file, patch, { keepApplied: true }));
      const full = outcomeOf(() => applyPatch(file, patch, { keepApplied: true, resolveAmbiguity: () => undefined }));
      assert.deepEqual(capped, full);
    }),
    { numRuns: 120 },
  );
});

test("item 6: a hunk cut short at its end, among thousands of places, is placed at the end of the file as before", () => {
  const file = "}\n".repeat(5_000);
  const patch = `--- a/f\n+++ b/f\n@@ @@\n }\n }\n }\n-}\n+};\n }\n`;
  const r = applyPatch(file, patch);
  assert.deepEqual([r.hunks[0]?.startLine, r.hunks[0]?.resolvedBy], [4_996, "boundary"]);
  assert.equal(r.content, `${"}\n".repeat(4_998)}};\n}\n`);
  // Twice: the second copy after the first is placed there again (merged), as the full search places it.
  assert.equal(applyPatch(file, `${patch}${patch.split("\n").slice(2).join("\n")}`).content, r.content);
});

test("item 6: an ordered hunk whose places after the previous hunk lie inside longer lines is still placed by order", () => {
  // After x0, `}\n}` occurs 1,100 times inside `}}` lines (not whole lines) before its one whole-line place at the end.
  const file = `${"}\n".repeat(1_200)}x0\n${"}}\n".repeat(1_100)}}\n}\n`;
  const patch = "--- a/f\n+++ b/f\n@@ @@\n-x0\n+y0\n@@ @@\n }\n-}\n+};\n";
  const r = applyPatch(file, patch);
  assert.deepEqual(r.hunks.map((h) => [h.startLine, h.resolvedBy]), [[1_201, undefined], [2_302, "order"]]);
  assert.deepEqual(outcomeOf(() => applyPatch(file, patch)), outcomeOf(() => applyPatch(file, patch, { resolveAmbiguity: () => undefined })));
});
