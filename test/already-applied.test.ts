/**
 * Running a response twice leaves the first run's bytes and exits 0, in
 * every format: the second run finds each edit already applied. Through the
 * CLI's main() in process (as `fuzzpatch apply FILE --root DIR`), so every
 * entry point above the engine is on the path.
 */
import assert from "node:assert/strict";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

const apply = (root: string, responseFile: string, extra: string[] = []) => runMain(["apply", responseFile, "--root", root, ...extra]);

const PY = "import sys\n\ndef main():\n    x = 1\n    y = 2\n    return x + y\n";

const cases: { name: string; files: Record<string, string>; response: string }[] = [
  { name: "SEARCH/REPLACE adding a line above its SEARCH (import sys -> import os + import sys)", files: { "a.py": PY }, response: "a.py\n```\n<<<<<<< SEARCH\nimport sys\n=======\nimport os\nimport sys\n>>>>>>> REPLACE\n```\n" },
  { name: "SEARCH/REPLACE adding a line below its SEARCH", files: { "a.py": PY }, response: "a.py\n```\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 1\n    z = 3\n>>>>>>> REPLACE\n```\n" },
  {
    name: "SEARCH/REPLACE wrapping its lines in a new block",
    files: { "a.py": PY },
    response: "a.py\n```\n<<<<<<< SEARCH\n    x = 1\n    y = 2\n=======\n    if sys.argv:\n        x = 1\n        y = 2\n>>>>>>> REPLACE\n```\n",
  },
  { name: "empty SEARCH appending to the file", files: { "a.py": PY }, response: "a.py\n```\n<<<<<<< SEARCH\n=======\n\ndef helper():\n    return 42\n>>>>>>> REPLACE\n```\n" },
  { name: "unified diff insertion, context above only", files: { "a.py": PY }, response: "--- a/a.py\n+++ b/a.py\n@@ -4,2 +4,3 @@\n     x = 1\n     y = 2\n+    z = 3\n" },
  { name: "unified diff insertion, context below only", files: { "a.py": PY }, response: "--- a/a.py\n+++ b/a.py\n@@ -4,2 +4,3 @@\n+    z = 3\n     x = 1\n     y = 2\n" },
  { name: "unified diff insertion, context both sides", files: { "a.py": PY }, response: "--- a/a.py\n+++ b/a.py\n@@ -4,2 +4,3 @@\n     x = 1\n+    z = 3\n     y = 2\n" },
  { name: "@@ @@ insertion", files: { "a.py": PY }, response: "--- a/a.py\n+++ b/a.py\n@@ @@\n     x = 1\n+    z = 3\n" },
  { name: "a patch that only adds the final newline", files: { "a.py": "a\nb" }, response: "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n" },
  { name: "V4A chunk", files: { "a.py": PY }, response: "*** Begin Patch\n*** Update File: a.py\n@@ def main():\n     x = 1\n+    z = 3\n     y = 2\n*** End Patch\n" },
  { name: "V4A chunk, context above only", files: { "a.py": PY }, response: "*** Begin Patch\n*** Update File: a.py\n@@ def main():\n     x = 1\n+    z = 3\n*** End Patch\n" },
  { name: "V4A Add File", files: {}, response: "*** Begin Patch\n*** Add File: b.py\n+hello = 1\n*** End Patch\n" },
  { name: "V4A update with Move to", files: { "a.py": PY }, response: "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n     x = 1\n-    y = 2\n+    y = 20\n*** End Patch\n" },
  { name: "short str_replace in a JSON file (\"debug\": false -> true)", files: { "c.json": '{\n  "debug": false,\n  "port": 8080\n}\n' }, response: '{"path": "c.json", "oldString": "\\"debug\\": false", "newString": "\\"debug\\": true"}\n' },
  { name: "SEARCH line whose replacement extends it (a comment added at its end)", files: { "m.js": "function add(a, b) {\n  return a + b;\n}\n" }, response: "m.js\n```\n<<<<<<< SEARCH\n  return a + b;\n=======\n  return a + b; // sum\n>>>>>>> REPLACE\n```\n" },
  { name: "str_replace JSON", files: { "a.py": PY }, response: '{"path": "a.py", "oldString": "    y = 2\\n", "newString": "    y = 2\\n    w = y * 2\\n"}\n' },
  // Issue 38: renames and modes sent again (the old path is gone and the new one holds the result; the file has the mode).
  {
    name: "git rename with a changed line",
    files: { "a.py": PY },
    response: "diff --git a/a.py b/b.py\nsimilarity index 83%\nrename from a.py\nrename to b.py\n--- a/a.py\n+++ b/b.py\n@@ -4,2 +4,2 @@\n     x = 1\n-    y = 2\n+    y = 20\n",
  },
  { name: "git rename without a hunk", files: { "a.py": PY }, response: "diff --git a/a.py b/lib/b.py\nsimilarity index 100%\nrename from a.py\nrename to lib/b.py\n" },
  { name: "git mode change only", files: { "run.sh": "#!/bin/sh\n" }, response: "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n" },
  { name: "git rename with a mode change", files: { "a.sh": "#!/bin/sh\n" }, response: "diff --git a/a.sh b/b.sh\nold mode 100644\nnew mode 100755\nsimilarity index 100%\nrename from a.sh\nrename to b.sh\n" },
];

for (const c of cases) {
  test(`run twice: ${c.name}: the second run writes nothing and exits 0 with a note`, async () => {
    const t = await makeTree(c.files);
    const response = path.join(t.base, "response.txt");
    await writeFile(response, c.response);
    const before = await snapshot(t.root);
    const first = await apply(t.root, response);
    assert.equal(first.code, 0, first.stderr);
    const after = await snapshot(t.root);
    assert.notDeepEqual(after, before, "the first run changes something");
    const second = await apply(t.root, response);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /^note: .*already applied/m);
    assert.deepEqual(await snapshot(t.root), after);
    // --partial writes nothing twice either.
    const third = await apply(t.root, response, ["--partial"]);
    assert.equal(third.code, 0, third.stderr);
    assert.deepEqual(await snapshot(t.root), after);
  });
}

for (const example of ["response.md", "response-v4a.md"]) {
  test(`run twice: examples/${example} on examples/project`, async (t) => {
    const base = await mkdtemp(path.join(tmpdir(), "fuzzpatch-twice-"));
    t.after(() => rm(base, { recursive: true, force: true }));
    const root = path.join(base, "project");
    await cp(path.join(REPO, "examples", "project"), root, { recursive: true });
    const response = path.join(REPO, "examples", example);
    const before = await snapshot(root);
    const first = await apply(root, response);
    assert.equal(first.code, 0, first.stderr);
    const after = await snapshot(root);
    assert.notDeepEqual(after, before);
    const second = await apply(root, response);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /Nothing to change/);
    assert.deepEqual(await snapshot(root), after);
  });
}

// Issue 38: -R twice, and -R of a file that is not there, advise an undo, not a diff from /dev/null.
test("run twice with -R: undoing a created file twice finds it already undone; a missing file to undo is not advised to be created", async () => {
  const t = await makeTree({ "a.py": PY });
  const response = path.join(t.base, "response.txt");
  await writeFile(response, "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n");
  assert.equal((await apply(t.root, response)).code, 0);
  const first = await apply(t.root, response, ["-R"]);
  assert.equal(first.code, 0, first.stderr);
  const after = await snapshot(t.root);
  const second = await apply(t.root, response, ["-R"]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stderr, /^note: new\.py: edit 1 \(udiff\) already undone \(new\.py, which the diff creates, does not exist\); nothing to do\.$/m);
  assert.deepEqual(await snapshot(t.root), after);
  await writeFile(response, "--- a/gone.py\n+++ b/gone.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n");
  const missing = await apply(t.root, response, ["-R"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^NOT_FOUND: gone\.py: edit 1 \(udiff\): gone\.py does not exist, so the diff cannot be undone there/m);
  assert.doesNotMatch(missing.stderr, /dev\/null/);
});
