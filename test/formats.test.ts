/**
 * The edit formats agents emit, end to end through the file layer:
 * re-running a response (ALREADY_APPLIED), responses in no known format,
 * fences naming their file, agents' JSON shapes and whole-file blocks.
 */
import assert from "node:assert/strict";
import test from "node:test";
import fc from "fast-check";
import { FORMATS } from "../src/formats/index.ts";
import { detectEdits } from "../src/formats/response.ts";
import { collectJsonEdits, parseJson, parseJsonOrLines } from "../src/formats/json-edits.ts";
import type { SplitResult } from "../src/formats/types.ts";
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

// --- agents' JSON shapes ------------------------------------------------------

const SRC = "const a = 1;\nconst b = 2;\nconst c = 3;\n";
const call = (name: string, args: unknown) => ({ id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } });

const jsonCases: { name: string; files: Record<string, string>; response: string; expect: Record<string, string> }[] = [
  {
    name: "Claude Code MultiEdit: the file's edits in order, replace_all honoured",
    files: { "src/a.ts": "let x = 1;\nlet y = x + x;\n" },
    response: JSON.stringify({
      file_path: "src/a.ts",
      edits: [
        { old_string: "let x = 1;", new_string: "let x = 2;" },
        { old_string: "x + x", new_string: "x * x" },
        { old_string: "let", new_string: "const", replace_all: true },
      ],
    }),
    expect: { "src/a.ts": "const x = 2;\nconst y = x * x;\n" },
  },
  {
    name: "OpenAI tool_calls with arguments as a JSON string",
    files: { "a.ts": SRC },
    response: JSON.stringify({ tool_calls: [call("edit", { path: "a.ts", old_string: "const b = 2;", new_string: "const b = 20;" })] }),
    expect: { "a.ts": SRC.replace("b = 2", "b = 20") },
  },
  {
    name: "an OpenAI chat completion: choices[].message.tool_calls",
    files: { "a.ts": SRC },
    response: JSON.stringify({
      choices: [{ message: { role: "assistant", tool_calls: [call("str_replace_based_edit_tool", { command: "str_replace", path: "a.ts", old_str: "c = 3", new_str: "c = 30" })] } }],
    }),
    expect: { "a.ts": SRC.replace("c = 3", "c = 30") },
  },
  {
    name: "JSONL: one tool call a line",
    files: { "a.ts": SRC },
    response: `${JSON.stringify(call("edit", { path: "a.ts", oldString: "a = 1", newString: "a = 10" }))}\n${JSON.stringify({ path: "a.ts", oldString: "c = 3", newString: "c = 30" })}\n`,
    expect: { "a.ts": SRC.replace("a = 1", "a = 10").replace("c = 3", "c = 30") },
  },
  {
    name: "Anthropic text editor str_replace in a tool_use block of a message",
    files: { "a.ts": SRC },
    response: JSON.stringify({
      role: "assistant",
      content: [
        { type: "text", text: "Fixing it." },
        { type: "tool_use", id: "t1", name: "str_replace_based_edit_tool", input: { command: "str_replace", path: "a.ts", old_str: "const b = 2;\n", new_str: "" } },
      ],
    }),
    expect: { "a.ts": "const a = 1;\nconst c = 3;\n" },
  },
  {
    name: "text editor insert after line 1",
    files: { "a.ts": SRC },
    response: JSON.stringify({ command: "insert", path: "a.ts", insert_line: 1, new_str: "// after the first line" }),
    expect: { "a.ts": "const a = 1;\n// after the first line\nconst b = 2;\nconst c = 3;\n" },
  },
  {
    name: "text editor insert at the top (0), new_str ending in a newline",
    files: { "a.ts": SRC },
    response: JSON.stringify({ command: "insert", path: "a.ts", insert_line: 0, new_str: "// at the top\n" }),
    expect: { "a.ts": `// at the top\n${SRC}` },
  },
  {
    name: "text editor insert after the last line",
    files: { "a.ts": SRC },
    response: JSON.stringify({ command: "insert", path: "a.ts", insert_line: 3, new_str: "const d = 4;" }),
    expect: { "a.ts": `${SRC}const d = 4;\n` },
  },
  {
    name: "text editor create",
    files: {},
    response: JSON.stringify({ command: "create", path: "lib/new.ts", file_text: "export const made = true;\n" }),
    expect: { "lib/new.ts": "export const made = true;\n" },
  },
  {
    name: "{path, content}: the whole new text of an existing file",
    files: { "a.ts": SRC },
    response: JSON.stringify({ path: "a.ts", content: "const only = 1;\n" }),
    expect: { "a.ts": "const only = 1;\n" },
  },
  {
    name: "a trailing comma and comments in model-written JSON",
    files: { "a.ts": SRC },
    response: '// the fix\n{\n  "path": "a.ts", // the file\n  /* what changes */ "oldString": "b = 2",\n  "newString": "b = 3",\n}\n',
    expect: { "a.ts": SRC.replace("b = 2", "b = 3") },
  },
  {
    name: "a fenced ```jsonc edit with a trailing comma among prose",
    files: { "a.ts": SRC },
    response: 'Here is the fix:\n\n```jsonc\n{"file_path": "a.ts", "old_string": "a = 1", "new_string": "a = 5",}\n```\n',
    expect: { "a.ts": SRC.replace("a = 1", "a = 5") },
  },
];

for (const c of jsonCases) {
  test(`JSON shape: ${c.name}`, async () => {
    const { root } = await makeTree(c.files);
    const result = await applyEdits(root, c.response);
    assert.equal(result.ok, true, JSON.stringify([result.errors, result.files], null, 1));
    for (const [p, want] of Object.entries(c.expect)) assert.equal(await read(root, p), want, p);
    // Run again: nothing changes, and nothing fails (inserts and creates included).
    const again = await applyEdits(root, c.response);
    for (const [p, want] of Object.entries(c.expect)) assert.equal(await read(root, p), want, `${p} after a second run`);
    assert.equal(again.written, false);
  });
}

const jsonErrorCases: { name: string; files: Record<string, string>; response: string; code: string; says: RegExp }[] = [
  {
    name: "a syntax error is reported with its line and column",
    files: { "a.ts": SRC },
    response: '{\n  "path": "a.ts",\n  "oldString": "a"\n  "newString": "b"\n}\n',
    code: "PARSE",
    says: /not valid JSON: CommaExpected at line 4, column 3/,
  },
  {
    name: "a fenced JSON edit with a syntax error names its response line",
    files: { "a.ts": SRC },
    response: 'Fix:\n```json\n{"path": "a.ts",\n "old_string": "a" "new_string": "b"}\n```\n',
    code: "PARSE",
    says: /The JSON edit at line 4 is not valid JSON \(CommaExpected at line 2, column \d+ of the fence\)/,
  },
  {
    name: "a MultiEdit whose second edit fails writes none of the file's edits",
    files: { "a.ts": SRC },
    response: JSON.stringify({ file_path: "a.ts", edits: [{ old_string: "a = 1", new_string: "a = 9" }, { old_string: "zzz", new_string: "y" }] }),
    code: "NOT_FOUND",
    says: /./,
  },
  {
    name: "a view command is no edit",
    files: { "a.ts": SRC },
    response: JSON.stringify({ command: "view", path: "a.ts" }),
    code: "PARSE",
    says: /"view" command, which edits nothing/,
  },
  {
    name: "insert past the end of the file",
    files: { "a.ts": SRC },
    response: JSON.stringify({ command: "insert", path: "a.ts", insert_line: 9, new_str: "x" }),
    code: "INVALID_INPUT",
    says: /"insert_line" 9 is past the end of a\.ts, which has 3 lines; use 0 to 3/,
  },
  {
    name: "create never overwrites a file with other content",
    files: { "a.ts": SRC },
    response: JSON.stringify({ command: "create", path: "a.ts", file_text: "other\n" }),
    code: "CONFLICT",
    says: /create never overwrites/,
  },
  {
    name: "a whole file that leaves code out is refused",
    files: { "a.ts": SRC },
    response: JSON.stringify({ path: "a.ts", content: "const a = 1;\n// ... existing code ...\nconst c = 4;\n" }),
    code: "INVALID_INPUT",
    says: /leaves code out at its line 2/,
  },
];

for (const c of jsonErrorCases) {
  test(`JSON shape refused: ${c.name}`, async () => {
    const { root } = await makeTree(c.files);
    const result = await applyEdits(root, c.response);
    assert.equal(result.ok, false);
    const errors = [...result.errors, ...result.files.flatMap((f) => f.edits.flatMap((e) => (e.error ? [e.error] : [])))];
    assert.ok(
      errors.some((e) => e.code === c.code && c.says.test(e.message)),
      errors.map(String).join("\n"),
    );
    for (const [p, want] of Object.entries(c.files)) assert.equal(await read(root, p), want, p);
  });
}

// --- whole files: only with --format whole ------------------------------------

test("whole: a path line and a fenced file replace it with --format whole; without it the block is no edit", async () => {
  const response = "Here is the new file.\n\nsrc/a.ts\n```ts\nconst a = 100;\n```\n";
  const { root } = await makeTree({ "src/a.ts": SRC });
  const auto = await applyEdits(root, response);
  assert.equal(auto.ok, false);
  assert.match(auto.errors[0]?.message ?? "", /fenced code block \(```ts\).*--format whole/);
  assert.equal(await read(root, "src/a.ts"), SRC);
  const whole = await applyEdits(root, response, { format: "whole" });
  assert.equal(whole.ok, true, JSON.stringify(whole.errors));
  assert.equal(await read(root, "src/a.ts"), "const a = 100;\n");
  assert.match(whole.diff, /^-const b = 2;$/m);
  assert.match(whole.diff, /^\+const a = 100;$/m);
  const again = await applyEdits(root, response, { format: "whole" });
  assert.equal(again.ok, true);
  assert.equal(again.alreadyApplied, 1);
});

const wholeCases: { name: string; response: string; expect?: Record<string, string>; error?: RegExp }[] = [
  { name: "a fence naming its file", response: "```ts:src/b.ts\nexport {};\n```\n", expect: { "src/b.ts": "export {};\n" } },
  {
    name: "two files, each after its path line",
    response: "src/a.ts\n```\nA\n```\n\n**src/c.ts**\n```\nC\n```\n",
    expect: { "src/a.ts": "A\n", "src/c.ts": "C\n" },
  },
  { name: "an unclosed fence (a cut-off response) is refused", response: "src/a.ts\n```ts\nconst a = 100;\n", error: /never closed with a fence: the response may be cut off/ },
  { name: "a file shortened with a comment is refused", response: "src/a.ts\n```ts\nconst a = 1;\n# rest of the file unchanged\n```\n", error: /leaves code out/ },
];

for (const c of wholeCases) {
  test(`whole: ${c.name}`, async () => {
    const { root } = await makeTree({ "src/a.ts": SRC });
    const result = await applyEdits(root, c.response, { format: "whole" });
    if (c.expect) {
      assert.equal(result.ok, true, JSON.stringify([result.errors, result.files], null, 1));
      for (const [p, want] of Object.entries(c.expect)) assert.equal(await read(root, p), want, p);
    } else {
      assert.equal(result.ok, false);
      const messages = [...result.errors, ...result.files.flatMap((f) => f.edits.flatMap((e) => (e.error ? [e.error] : [])))].map(String).join("\n");
      assert.match(messages, c.error as RegExp);
      assert.equal(await read(root, "src/a.ts"), SRC);
    }
  });
}

test("JSON shape refused: a tool call whose arguments string does not parse names the place inside them", async () => {
  const { root } = await makeTree({ "a.ts": SRC });
  const response = JSON.stringify({ tool_calls: [{ function: { name: "edit", arguments: '{"path": "a.ts",\n"old_string": "a" "new_string": "b"}' } }] });
  const result = await applyEdits(root, response);
  assert.equal(result.ok, false);
  assert.match(String(result.errors[0]), /^PARSE: Edit 1 \(line 1\) has "arguments" that are not valid JSON \(CommaExpected at line 2, column \d+ of the arguments\)\.$/);
});

test("property: collectJsonEdits takes any JSON value (nested wrappers included) without throwing, and reports only PARSE", () => {
  const edit = fc.record({ path: fc.string(), old_string: fc.string(), new_string: fc.string() });
  const wrapped = fc.oneof(
    fc.jsonValue(),
    edit,
    fc.record({ tool_calls: fc.array(fc.record({ function: fc.record({ name: fc.string(), arguments: fc.oneof(fc.string(), edit.map((e) => JSON.stringify(e))) }) })) }),
    fc.record({ file_path: fc.string(), edits: fc.array(fc.oneof(edit, fc.jsonValue())) }),
    fc.record({ command: fc.constantFrom("str_replace", "insert", "create", "view", "x"), path: fc.string(), insert_line: fc.oneof(fc.integer(), fc.string()), new_str: fc.string() }),
  );
  fc.assert(
    fc.property(wrapped, fc.boolean(), (value, strict) => {
      const out: SplitResult = { edits: [], errors: [] };
      const count = collectJsonEdits(value, 1, out, strict);
      assert.ok(count <= out.edits.length, "each edit counted is an edit");
      for (const e of out.errors) assert.equal(e.code, "PARSE");
    }),
    { numRuns: 300 },
  );
});

test("property: JSON or JSON lines reads every text as the whole text first would (the lines are tried first when the first is a value)", () => {
  // The reading it replaces: the whole text as JSON, else two or more lines each a value.
  const reference = (text: string) => {
    const whole = parseJson(text);
    if (whole.ok) return whole;
    const filled = text.split("\n").filter((l) => l.trim() !== "");
    if (filled.length < 2) return whole;
    const values: unknown[] = [];
    for (const line of filled) {
      const one = parseJson(line);
      if (!one.ok) return whole;
      values.push(one.value);
    }
    return { ok: true, value: values };
  };
  const line = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.constantFrom("", "  ", "// note", "/* c */", "{", "}", "[", "],", '"a": 1,', "1,", "{,}", "[1, 2,]", '{"a": 1} // x'),
  );
  fc.assert(
    fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
      const text = lines.join("\n");
      assert.deepEqual(parseJsonOrLines(text), reference(text));
    }),
    { numRuns: 500 },
  );
});

test("SEARCH/REPLACE blocks of a long response: each edit's line is where its block starts, repeated blocks included", () => {
  const parts: string[] = [];
  const expected: { path: string; line: number }[] = [];
  let line = 1;
  for (let k = 0; k < 60; k++) {
    const path = `f${k % 7}.ts`;
    // Every fifth block is a copy of an earlier one: found again after it, not at the first copy.
    const body = k % 5 === 4 ? "x" : `line ${k}`;
    const part = `prose ${k}\n\n${path}\n\`\`\`\n<<<<<<< SEARCH\n${body}\n=======\n${body} changed\n>>>>>>> REPLACE\n\`\`\`\n`;
    expected.push({ path, line: line + 4 });
    parts.push(part);
    line += part.split("\n").length - 1;
  }
  const found = detectEdits(parts.join(""), "search-replace");
  assert.deepEqual(found.errors, []);
  const byPath = (list: { path: string; line?: number }[]) => list.map((e) => `${e.path}:${e.line}`).sort();
  assert.deepEqual(byPath(found.edits), byPath(expected));
});

test("str_replace sent again when its new text holds the old: already applied, at the lines where the new text stands", async () => {
  const t = await makeTree({ "a.ts": "x\ny\nconst c = 30;\nz\n" });
  const r = await applyEdits(t.root, [{ path: "a.ts", oldString: "c = 3", newString: "c = 30" }]);
  assert.equal(r.alreadyApplied, 1);
  const edit = r.files[0]?.edits[0];
  assert.equal(edit?.status, "already-applied");
  assert.match(edit?.note?.message ?? "", /is at lines 3-3\)/);
  assert.equal(await read(t.root, "a.ts"), "x\ny\nconst c = 30;\nz\n");
});
