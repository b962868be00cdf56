/**
 * Edits written against an older version of a file: the three-way carry
 * (engine/carry-over.ts), applyEdits' `history`, the tools' version store
 * (runTool), and the CLI's --history and --3way.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { carryOver } from "../src/engine/carry-over.ts";
import { applyEdits } from "../src/node.ts";
import { runTool } from "../src/tools/run-tool.ts";
import { VersionStore } from "../src/tools/version-store.ts";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) => `${Array.from({ length: n }, (_, i) => f(i + 1)).join("\n")}\n`;
const V1 = lines(30);

// --- carryOver ----------------------------------------------------------------------

const carryCases: { name: string; base: string; ours: string; theirs: string; text?: string; conflictAt?: number }[] = [
  { name: "changes far apart merge", base: V1, ours: V1.replace("line 25\n", "line 25 changed\n"), theirs: V1.replace("line 5\n", "line five\n"), text: V1.replace("line 25\n", "line 25 changed\n").replace("line 5\n", "line five\n") },
  { name: "two unchanged lines between merge", base: V1, ours: V1.replace("line 2\n", "line TWO\n"), theirs: V1.replace("line 5\n", "line five\n"), text: V1.replace("line 2\n", "line TWO\n").replace("line 5\n", "line five\n") },
  { name: "one line between conflicts", base: V1, ours: V1.replace("line 3\n", "line THREE\n"), theirs: V1.replace("line 5\n", "line five\n"), conflictAt: 3 },
  { name: "the same line changed differently conflicts", base: V1, ours: V1.replace("line 5\n", "line 5!\n"), theirs: V1.replace("line 5\n", "line five\n"), conflictAt: 5 },
  { name: "the same change on both sides is taken once", base: V1, ours: V1.replace("line 5\n", "line five\n"), theirs: V1.replace("line 5\n", "line five\n"), text: V1.replace("line 5\n", "line five\n") },
  { name: "lines inserted above shift the edit", base: V1, ours: `new 1\nnew 2\n${V1}`, theirs: V1.replace("line 20\n", "line twenty\n"), text: `new 1\nnew 2\n${V1.replace("line 20\n", "line twenty\n")}` },
  // The model rewrote its own earlier edit from the version before it, keeping what that edit wrote (real stale blocks).
  { name: "an edit whose lines hold the file's change to the same lines whole is taken", base: V1, ours: V1.replace("line 5\nline 6\n", "line 5 and 6\n"), theirs: V1.replace("line 5\nline 6\n", "if ready:\n    go()\nline 5 and 6\n"), text: V1.replace("line 5\nline 6\n", "if ready:\n    go()\nline 5 and 6\n") },
  { name: "an edit that makes the file's change inside a line and more is taken", base: V1, ours: V1.replace("line 5\n", "line 5.0\n"), theirs: V1.replace("line 5\n", "row 5.0\n"), text: V1.replace("line 5\n", "row 5.0\n") },
  { name: "an edit that drops the file's change inside a line conflicts", base: V1, ours: V1.replace("line 5\n", "line 5.0\n"), theirs: V1.replace("line 5\n", "row 5\n"), conflictAt: 5 },
  { name: "a line the file deleted, changed by the edit, conflicts", base: V1, ours: V1.replace("line 5\n", ""), theirs: V1.replace("line 5\n", "line five\n"), conflictAt: 5 },
  { name: "a line the file deleted, the edit changing the next one, conflicts", base: V1, ours: V1.replace("line 5\n", ""), theirs: V1.replace("line 6\n", "line six\n"), conflictAt: 5 },
  { name: "lines the file deleted, the edit keeping them among new ones, conflicts", base: V1, ours: V1.replace("line 5\nline 6\n", ""), theirs: V1.replace("line 5\nline 6\n", "new\nline 5\nline 6\n"), conflictAt: 5 },
  { name: "CRLF of the current file is kept", base: V1, ours: V1.replace("line 25\n", "line 25 changed\n").replaceAll("\n", "\r\n"), theirs: V1.replace("line 5\n", "line five\n"), text: V1.replace("line 25\n", "line 25 changed\n").replace("line 5\n", "line five\n").replaceAll("\n", "\r\n") },
];

for (const c of carryCases) {
  test(`carryOver: ${c.name}`, () => {
    const r = carryOver(c.base, c.ours, c.theirs);
    if (c.text !== undefined) assert.equal(r.text, c.text);
    else {
      assert.equal(r.text, undefined);
      assert.equal(r.conflict?.startLine, c.conflictAt);
    }
  });
}

// --- applyEdits with history --------------------------------------------------------

const PY_V1 = "import os\n\ndef load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:\n        f.write(text)\n\n\ndef main():\n    print(load('a'))\n";
// Since the model read V1, its own earlier edit (or another writer) changed save().
const PY_NOW = PY_V1.replace("    with open(path, 'w') as f:\n        f.write(text)\n", "    with open(path, 'w', encoding='utf-8') as f:\n        f.write(text)\n    return len(text)\n");
const block = (search: string, replace: string) => `app.py\n\`\`\`python\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;

test("history: a block written against the version read before is applied there and merged, reported with the version", async () => {
  const t = await makeTree({ "app.py": PY_NOW });
  // The model's block quotes save() as it was in V1 and edits load().
  const stale = block("def load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:", "def load(path):\n    with open(path, encoding='utf-8') as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:");
  const without = await applyEdits(t.root, stale, { dryRun: true });
  assert.equal(without.ok, false, "refused without history");
  const r = await applyEdits(t.root, stale, { history: { "app.py": [PY_V1] } });
  assert.equal(r.ok, true, JSON.stringify(r.files[0]?.edits));
  assert.equal(await readFile(path.join(t.root, "app.py"), "utf8"), PY_NOW.replace("    with open(path) as f:", "    with open(path, encoding='utf-8') as f:"));
  const e = r.files[0]?.edits[0];
  assert.equal(e?.strategy, "history-merge");
  assert.equal(e?.version, 0);
});

test("history: a change in the same place is a CONFLICT quoting the current lines; nothing written", async () => {
  const t = await makeTree({ "app.py": PY_NOW });
  const stale = block("    with open(path, 'w') as f:\n        f.write(text)", "    with open(path, 'w') as f:\n        f.write(text.strip())");
  const before = await snapshot(t.root);
  const r = await applyEdits(t.root, stale, { history: { "app.py": [PY_V1] } });
  assert.equal(r.ok, false);
  const error = r.files[0]?.edits[0]?.error;
  assert.equal(error?.code, "CONFLICT");
  assert.match(error?.message ?? "", /version 1 of 1 in the file's history/);
  assert.match(error?.message ?? "", /9 \| {5}with open\(path, 'w', encoding='utf-8'\) as f:/);
  assert.match(error?.message ?? "", /\+ {9}f\.write\(text\.strip\(\)\)/);
  assert.doesNotMatch(error?.message ?? "", /<<<<<<<|>>>>>>>/);
  assert.deepEqual(await snapshot(t.root), before);
});

test("history: an exact match in the current file is applied there; the history is not consulted", async () => {
  const t = await makeTree({ "app.py": PY_NOW });
  const r = await applyEdits(t.root, block("def main():\n    print(load('a'))", "def main():\n    print(load('b'))"), { history: { "app.py": [PY_V1] } });
  assert.equal(r.files[0]?.edits[0]?.strategy, "exact");
  assert.equal(r.files[0]?.edits[0]?.version, undefined);
});

test("history: a fuzzy match now loses to an exact match in a version whose merge conflicts (refused, not written at the look-alike)", async () => {
  // Two look-alike functions; the model edits `area` from the version before `area` was rewritten.
  const v1 = "def area(r):\n    x = r * r\n    y = x * 3.14\n    return y\n\n\ndef volume(r):\n    x = r * r\n    y = x * 3.14\n    return y * r\n";
  const now = "def area(r):\n    import math\n    return math.pi * r * r\n\n\ndef volume(r):\n    x = r * r\n    y = x * 3.14\n    return y * r\n";
  const t = await makeTree({ "geo.py": now });
  const stale = "geo.py\n```\n<<<<<<< SEARCH\ndef area(r):\n    x = r * r\n    y = x * 3.14\n    return y\n=======\ndef area(r):\n    x = r * r\n    y = x * 3.1416\n    return y\n>>>>>>> REPLACE\n```\n";
  const r = await applyEdits(t.root, stale, { history: { "geo.py": [v1] }, dryRun: true });
  assert.equal(r.ok, false);
  assert.equal(r.files[0]?.edits[0]?.error?.code, "CONFLICT");
});

// The model's own earlier edit added a check above a line; its stale block, written against the version before,
// adds the same check again and changes that line (a real stale block, aider-swebench sympy-22005 try6 msg2).
const CHECK = "    if len(polys) != len(gens):\n        raise NotImplementedError(dedent('''\n            only zero-dimensional systems supported\n            (finite number of solutions)\n            '''))\n\n";
const SOLVE_HEAD = "def solve(seq, *gens):\n    \"\"\"Solve a system.\"\"\"\n    try:\n        polys, opt = build(seq, *gens)\n    except Failed as exc:\n        raise Error('solve', len(seq), exc)\n\n";
const SOLVE_TAIL = "    if len(polys) == len(gens) == 2:\n        f, g = polys\n        return pair(f, g)\n    return general(polys)\n";
const SOLVE_NOW = SOLVE_HEAD + CHECK + SOLVE_TAIL;
const SOLVE_KEPT = SOLVE_HEAD.slice(SOLVE_HEAD.indexOf("    try:"));
const SOLVE_BLOCK = `solve.py\n\`\`\`python\n<<<<<<< SEARCH\n${SOLVE_KEPT}    if len(polys) == len(gens) == 2:\n=======\n${SOLVE_KEPT}${CHECK}    if len(polys) == 2:\n>>>>>>> REPLACE\n\`\`\`\n`;

for (const withHistory of [false, true]) {
  test(`history: a stale block adding again lines the file gained since, and changing the line after them, never writes them twice (${withHistory ? "with" : "without"} the version read)`, async () => {
    const t = await makeTree({ "solve.py": SOLVE_NOW });
    const r = await applyEdits(t.root, SOLVE_BLOCK, withHistory ? { history: { "solve.py": [SOLVE_HEAD + SOLVE_TAIL] } } : {});
    const after = await readFile(path.join(t.root, "solve.py"), "utf8");
    assert.equal(after.split("raise NotImplementedError").length - 1, 1, after);
    assert.equal(r.ok, false);
    assert.equal(after, SOLVE_NOW);
    assert.equal(r.files[0]?.edits[0]?.error?.code, withHistory ? "CONFLICT" : "NOT_FOUND");
  });
}

test("history: an ambiguous edit is not resolved by an older version", async () => {
  const now = "a = 1\nb = 2\na = 1\nb = 2\n";
  const t = await makeTree({ "x.py": now });
  const r = await applyEdits(t.root, "x.py\n```\n<<<<<<< SEARCH\na = 1\nb = 2\n=======\na = 1\nb = 3\n>>>>>>> REPLACE\n```\n", { history: { "x.py": ["a = 1\nb = 2\nc = 3\n"] }, dryRun: true });
  assert.equal(r.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
});

test("history: bad shapes are INVALID_INPUT", async () => {
  const t = await makeTree({ "x.py": "a\n" });
  for (const history of [[], "x", { "x.py": "a" }, { "x.py": [1] }]) {
    await assert.rejects(applyEdits(t.root, "x", { history: history as never }), (e: unknown) => (e as { code?: string }).code === "INVALID_INPUT");
  }
});

// --- runTool: the versions it served ------------------------------------------------

const GREET = 'function greet(name) {\n    return "hello " + name;\n}\n\nfunction other() {\n    return 1;\n}\n\nfunction third() {\n    return 3;\n}\n';

test("runTool: read; another writer changes the file elsewhere; edit_file with the old text and old expectedHash is merged", async () => {
  const t = await makeTree({ "g.js": GREET });
  const versions = new VersionStore();
  const read = await runTool("read_file", { path: "g.js" }, { root: t.root, versions });
  const hash = /sha256 ([0-9a-f]{64})/.exec(read.text)?.[1];
  assert.ok(hash);
  await writeFile(path.join(t.root, "g.js"), GREET.replace("return 3;", "return 33;"));
  const edited = await runTool(
    "edit_file",
    { path: "g.js", expectedHash: hash, edits: [{ oldString: 'function greet(name) {\n    return "hello " + name;\n}', newString: 'function greet(name) {\n    return "hi " + name;\n}' }] },
    { root: t.root, versions },
  );
  assert.equal(edited.isError, false, edited.text);
  assert.equal(await readFile(path.join(t.root, "g.js"), "utf8"), GREET.replace("return 3;", "return 33;").replace('"hello "', '"hi "'));
  // Without the store the same hash is STALE.
  const refused = await runTool("edit_file", { path: "g.js", expectedHash: hash, edits: [{ oldString: "return 1;", newString: "return 2;" }] }, { root: t.root });
  assert.match(refused.text, /^STALE|STALE/);
});

test("runTool: a change in the same region since the read is a CONFLICT naming the current lines; nothing written", async () => {
  const t = await makeTree({ "g.js": GREET });
  const versions = new VersionStore();
  const read = await runTool("read_file", { path: "g.js" }, { root: t.root, versions });
  const hash = /sha256 ([0-9a-f]{64})/.exec(read.text)?.[1];
  const changed = GREET.replace('return "hello " + name;', 'return "hello, " + name.trim();');
  await writeFile(path.join(t.root, "g.js"), changed);
  const edited = await runTool("edit_file", { path: "g.js", expectedHash: hash, edits: [{ oldString: 'return "hello " + name;', newString: 'return "hey " + name;' }] }, { root: t.root, versions });
  assert.equal(edited.isError, true);
  assert.match(edited.text, /CONFLICT/);
  assert.match(edited.text, /2 \| {5}return "hello, " \+ name\.trim\(\);/);
  assert.equal(await readFile(path.join(t.root, "g.js"), "utf8"), changed);
});

test("VersionStore: bounded by size, least recently used dropped; a version is found by its hash", () => {
  const store = new VersionStore(10);
  store.remember("/a", "h1", "aaaa");
  store.remember("/b", "h2", "bbbb");
  store.remember("/a", "h3", "cccc");
  assert.deepEqual(store.versions("/a"), ["cccc"], "the oldest entry (/a h1) went first");
  assert.equal(store.byHash("/b", "h2"), "bbbb");
  store.remember("/c", "h4", "x".repeat(11));
  assert.equal(store.byHash("/c", "h4"), undefined, "larger than the store: not kept");
});

// --- CLI: --history and --3way ------------------------------------------------------

const cli = runMain;

test("cli: --history FILE gives the --target file's earlier version", async () => {
  const t = await makeTree({ "app.py": PY_NOW, "v1.py": PY_V1 });
  const response = path.join(t.base, "r.md");
  await writeFile(response, block("def load(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:", "def load(path):\n    with open(path, encoding='utf-8') as f:\n        return f.read()\n\n\ndef save(path, text):\n    with open(path, 'w') as f:"));
  const refused = await cli(["apply", response, "--root", t.root, "--target", "app.py", "-q"]);
  assert.equal(refused.code, 1);
  const merged = await cli(["apply", response, "--root", t.root, "--target", "app.py", "--history", path.join(t.root, "v1.py"), "-q"]);
  assert.equal(merged.code, 0, merged.stderr);
  assert.match(await readFile(path.join(t.root, "app.py"), "utf8"), /open\(path, encoding='utf-8'\)/);
});

test("cli: --3way merges a git diff whose context changed since from the blob its index line names; an overlap writes nothing, exit 1", async () => {
  const t = await makeTree({ "f.txt": V1 });
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: t.root, encoding: "utf8" });
  git("init", "-q");
  git("add", "f.txt");
  git("commit", "-qm", "v1");
  await writeFile(path.join(t.root, "f.txt"), V1.replace("line 5\n", "line five\n"));
  const patch = git("diff");
  assert.match(patch, /^index [0-9a-f]+\.\.[0-9a-f]+/m);
  const file = path.join(t.base, "p.diff");
  await writeFile(file, patch);
  // Since the diff was made: a context line (2) and a far line changed.
  const now = V1.replace("line 2\n", "line TWO\n").replace("line 25\n", "line 25 changed\n");
  await writeFile(path.join(t.root, "f.txt"), now);
  const merged = await cli(["apply", file, "--root", t.root, "--3way", "-q"]);
  assert.equal(merged.code, 0, merged.stderr);
  assert.equal(await readFile(path.join(t.root, "f.txt"), "utf8"), now.replace("line 5\n", "line five\n"));
  // The edited line itself changed since: a conflict, nothing written.
  const overlap = V1.replace("line 5\n", "line 5 (theirs)\n");
  await writeFile(path.join(t.root, "f.txt"), overlap);
  const refused = await cli(["apply", file, "--root", t.root, "--3way", "-q"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /CONFLICT/);
  // Worded for a diff's base blob too: nobody "read" it (issue 38).
  assert.match(refused.stderr, /an earlier version of f\.txt, the one it was written against/);
  assert.doesNotMatch(refused.stderr, /you read/);
  assert.equal(await readFile(path.join(t.root, "f.txt"), "utf8"), overlap);
});
