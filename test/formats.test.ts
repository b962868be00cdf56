/**
 * The edit formats agents emit, end to end through the file layer:
 * re-running a response (ALREADY_APPLIED), responses in no known format,
 * fences naming their file, agents' JSON shapes and whole-file blocks.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { FORMATS } from "../src/formats/index.ts";
import { applyEdits } from "../src/fs/apply-edits.ts";
import { makeTree, read } from "./helpers/temp-tree.ts";

const APP = 'export function greet(name) {\n  return "Hello, " + name;\n}\n\nexport const answer = 42;\n';
const APP_NEW = 'export function greet(name) {\n  return "Good morning, " + name + "!";\n}\n\nexport const answer = 42;\n';
const OLD_LINE = '  return "Hello, " + name;';
const NEW_LINE = '  return "Good morning, " + name + "!";';

// --- ALREADY_APPLIED: a response run twice leaves the bytes of the first run ---

const rerunCases: { name: string; files: Record<string, string>; response: string; expect: Record<string, string>; format?: string }[] = [
  {
    name: "str_replace JSON edit",
    files: { "app.js": APP },
    response: `\`\`\`json\n${JSON.stringify({ path: "app.js", oldString: OLD_LINE, newString: NEW_LINE })}\n\`\`\`\n`,
    expect: { "app.js": APP_NEW },
  },
  {
    name: "SEARCH/REPLACE block",
    files: { "app.js": APP },
    response: `app.js\n\`\`\`js\n<<<<<<< SEARCH\n${OLD_LINE}\n=======\n${NEW_LINE}\n>>>>>>> REPLACE\n\`\`\`\n`,
    expect: { "app.js": APP_NEW },
  },
  {
    name: "unified diff",
    files: { "app.js": APP },
    response: `\`\`\`diff\n--- a/app.js\n+++ b/app.js\n@@ -1,3 +1,3 @@\n export function greet(name) {\n-${OLD_LINE}\n+${NEW_LINE}\n }\n\`\`\`\n`,
    expect: { "app.js": APP_NEW },
  },
  {
    name: "two files, a diff and a block, one creating a file",
    files: { "app.js": APP },
    response: `\`\`\`diff\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+made\n+here\n\`\`\`\n\napp.js\n\`\`\`\n<<<<<<< SEARCH\n${OLD_LINE}\n=======\n${NEW_LINE}\n>>>>>>> REPLACE\n\`\`\`\n`,
    expect: { "app.js": APP_NEW, "new.txt": "made\nhere\n" },
  },
  {
    name: "SEARCH/REPLACE block with an empty SEARCH creating a file",
    files: {},
    response: "notes/new.md\n```\n<<<<<<< SEARCH\n=======\n# Notes\n>>>>>>> REPLACE\n```\n",
    expect: { "notes/new.md": "# Notes\n" },
  },
  {
    name: "str_replace creating a file",
    files: {},
    response: JSON.stringify({ path: "made.txt", oldString: "", newString: "fresh file\n" }),
    expect: { "made.txt": "fresh file\n" },
  },
];

for (const c of rerunCases) {
  test(`re-running a response is harmless: ${c.name}`, async () => {
    const { root } = await makeTree(c.files);
    const first = await applyEdits(root, c.response);
    assert.equal(first.ok, true, JSON.stringify(first.files.map((f) => f.edits), null, 1));
    const after: Record<string, string> = {};
    for (const p of Object.keys(c.expect)) after[p] = await read(root, p);
    assert.deepEqual(after, c.expect);
    const second = await applyEdits(root, c.response);
    assert.equal(second.ok, true, JSON.stringify(second.files.map((f) => f.edits), null, 1));
    assert.equal(second.written, false);
    assert.equal(second.applied, 0);
    assert.equal(second.failed, 0);
    assert.equal(second.alreadyApplied, first.applied === 0 ? 0 : second.files.reduce((n, f) => n + f.edits.length, 0));
    for (const f of second.files) {
      assert.equal(f.status, "unchanged", f.path);
      for (const e of f.edits) {
        assert.equal(e.status, "already-applied");
        assert.equal(e.note?.code, "ALREADY_APPLIED");
      }
    }
    for (const p of Object.keys(c.expect)) assert.equal(await read(root, p), c.expect[p], p);
  });
}

test("a patch with one hunk applied before and one not is a failure, not ALREADY_APPLIED", async () => {
  const text = `${APP}\nfunction other() {\n  return 1;\n}\n`;
  const { root } = await makeTree({ "app.js": text.replace(OLD_LINE, NEW_LINE) });
  const patch = `--- a/app.js\n+++ b/app.js\n@@ -1,3 +1,3 @@\n export function greet(name) {\n-${OLD_LINE}\n+${NEW_LINE}\n }\n@@ -8,3 +8,3 @@\n function other() {\n-  return 1;\n+  return 2;\n }\n`;
  const result = await applyEdits(root, patch);
  assert.equal(result.ok, false);
  assert.equal(result.alreadyApplied, 0);
  assert.equal(await read(root, "app.js"), text.replace(OLD_LINE, NEW_LINE));
});

// --- a response in no known format: PARSE naming what it looks like ---------

const unknownCases: { name: string; response: string; says: RegExp }[] = [
  { name: "prose", response: "I would rename the function and add a test.\n", says: /it looks like prose/ },
  { name: "empty input", response: "  \n", says: /it is empty/ },
  { name: "a fenced code block without a path", response: "Here:\n```ts\nconst a = 1;\n```\n", says: /a fenced code block \(```ts\) at line 2 without a file path/ },
  {
    name: "a JSON object without path/oldString",
    response: '```json\n{"file": "a.ts", "text": "x"}\n```\n',
    says: /a JSON object \(keys: file, text\) without "path" with "oldString" and "newString"/,
  },
];

for (const c of unknownCases) {
  test(`no edits found: ${c.name} is named, and the accepted formats listed from the registry`, async () => {
    const { root } = await makeTree({ "a.ts": "const a = 0;\n" });
    const result = await applyEdits(root, c.response);
    assert.equal(result.ok, false);
    assert.equal(result.errors.length, 1);
    const [error] = result.errors;
    assert.equal(error?.code, "PARSE");
    assert.match(error?.message ?? "", c.says);
    for (const f of FORMATS) assert.ok(error?.message.includes(`${f.name} (`), `lists ${f.name}`);
    assert.equal(await read(root, "a.ts"), "const a = 0;\n");
  });
}

// --- fences that name their file in the info string -------------------------

const SR_BODY = `<<<<<<< SEARCH\n${OLD_LINE}\n=======\n${NEW_LINE}\n>>>>>>> REPLACE`;
const HUNK = `@@ @@\n export function greet(name) {\n-${OLD_LINE}\n+${NEW_LINE}\n }`;

const fencePathCases: { name: string; response: string; format: string }[] = [
  { name: "```js:src/App.js with a SEARCH/REPLACE block", response: `Change:\n\n\`\`\`js:src/App.js\n${SR_BODY}\n\`\`\`\n`, format: "search-replace" },
  { name: "```src/App.js with a SEARCH/REPLACE block", response: `\`\`\`src/App.js\n${SR_BODY}\n\`\`\`\n`, format: "search-replace" },
  { name: "```javascript src/App.js with a SEARCH/REPLACE block", response: `\`\`\`javascript src/App.js\n${SR_BODY}\n\`\`\`\n`, format: "search-replace" },
  { name: "```diff:src/App.js with a hunk without headers", response: `\`\`\`diff:src/App.js\n${HUNK}\n\`\`\`\n`, format: "udiff" },
  { name: "```src/App.js with a hunk without headers", response: `\`\`\`src/App.js\n${HUNK}\n\`\`\`\n`, format: "udiff" },
  {
    name: "the fence's path beats a path line further up",
    response: `other/file.js\n\nBut really:\n\`\`\`js:src/App.js\n${SR_BODY}\n\`\`\`\n`,
    format: "search-replace",
  },
];

for (const c of fencePathCases) {
  test(`fence path: ${c.name}`, async () => {
    const { root } = await makeTree({ "src/App.js": APP });
    const result = await applyEdits(root, c.response);
    assert.equal(result.ok, true, JSON.stringify([result.errors, result.files], null, 1));
    assert.deepEqual(
      result.files.map((f) => [f.path, f.edits.map((e) => e.format)]),
      [["src/App.js", [c.format]]],
    );
    assert.equal(await read(root, "src/App.js"), APP_NEW);
  });
}

test("fence path: a language alone (```js, ```diff) names no file", async () => {
  const { root } = await makeTree({ "src/App.js": APP });
  for (const info of ["js", "diff", "json"]) {
    const result = await applyEdits(root, `\`\`\`${info}\n${SR_BODY}\n\`\`\`\n`);
    assert.equal(result.ok, false, info);
    assert.equal(result.errors[0]?.code, "PARSE", info);
  }
  assert.equal(await read(root, "src/App.js"), APP);
});
