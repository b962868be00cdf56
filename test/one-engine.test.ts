/**
 * One engine for every format: the same hint rule, the same un-escaping,
 * the same option validation and the same kind of message, whichever
 * format the edit came in. Each case failed before the formats shared the
 * applier (issue "One engine for every format").
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import test from "node:test";
import { EditError } from "../src/errors.ts";
import { FORMATS } from "../src/formats/index.ts";
import { applySearchReplace } from "../src/formats/search-replace.ts";
import { replace } from "../src/formats/str-replace.ts";
import { applyPatch } from "../src/formats/unified-apply.ts";
import { applyEdits } from "../src/fs/apply-edits.ts";
import { makeTree } from "./helpers/temp-tree.ts";

/** 260 numbered lines with the same 4-line block at lines 226-229 and 243-246. */
function twoCopies(): string {
  const lines = Array.from({ length: 260 }, (_, k) => `line ${k + 1}`);
  const block = ["function f() {", "  step();", "  return 1;", "}"];
  lines.splice(225, 4, ...block);
  lines.splice(242, 4, ...block);
  return `${lines.join("\n")}\n`;
}
const BLOCK = "function f() {\n  step();\n  return 1;\n}";
const EDITED = "function f() {\n  step();\n  log();\n  return 1;\n}";

function errorOf(run: () => unknown): EditError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof EditError, `expected an EditError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected an EditError, but the edit applied");
}

const hintCases = [
  {
    name: "SEARCH/REPLACE: :start_line: on the second of two identical places",
    run: (c: string) => {
      const r = applySearchReplace(c, `<<<<<<< SEARCH\n:start_line:243\n-------\n${BLOCK}\n=======\n${EDITED}\n>>>>>>> REPLACE`);
      assert.deepEqual(r.failed, []);
      assert.equal(r.applied[0]?.startLine, 243);
      return r.content;
    },
  },
  {
    name: "unified diff: a numbered header on the second place",
    run: (c: string) => applyPatch(c, "--- a/f.js\n+++ b/f.js\n@@ -243,4 +243,5 @@\n function f() {\n   step();\n+  log();\n   return 1;\n }\n").content,
  },
  {
    name: "str_replace: startLine on the second place",
    run: (c: string) => replace(c, BLOCK, EDITED, { startLine: 243 }).content,
  },
];

for (const c of hintCases) {
  test(`a hint on the line where a candidate starts decides: ${c.name}`, () => {
    const content = twoCopies();
    const out = c.run(content);
    const lines = out.split("\n");
    assert.equal(lines[227], "  return 1;", "the first copy is untouched");
    assert.equal(lines[244], "  log();", "the second copy is edited");
  });
}

test("a hint two lines off a candidate with another 17 lines away still refuses, in every format", () => {
  const content = twoCopies();
  const sr = applySearchReplace(content, `<<<<<<< SEARCH\n:start_line:241\n-------\n${BLOCK}\n=======\n${EDITED}\n>>>>>>> REPLACE`);
  assert.equal(sr.failed[0]?.code, "AMBIGUOUS");
  assert.equal(sr.complete, false);
  assert.equal(errorOf(() => replace(content, BLOCK, EDITED, { startLine: 241 })).code, "AMBIGUOUS");
});

const escapedCases = [
  {
    name: "a SEARCH/REPLACE block",
    run: () => applySearchReplace("a\nb\nc\n", "<<<<<<< SEARCH\\nb\\n=======\\nB\\n>>>>>>> REPLACE"),
  },
  {
    name: "a fuzzy diff",
    run: () => applyPatch("a\nb\nc\n", "@@ @@\\n a\\n-b\\n+B\\n c\\n"),
  },
];

for (const c of escapedCases) {
  test(`over-escaped into one line (literal \\n), ${c.name} is un-escaped and applied, and the result says so`, () => {
    const r = c.run();
    assert.equal(r.content, "a\nB\nc\n");
    assert.equal(r.unescaped, true);
  });
}

test("applyEdits: an over-escaped response is un-escaped once for every format", async () => {
  const t = await makeTree({ "a.txt": "a\nb\nc\n" });
  const r = await applyEdits(t.root, "a.txt\\n<<<<<<< SEARCH\\nb\\n=======\\nB\\n>>>>>>> REPLACE\\n");
  assert.equal(r.ok, true, JSON.stringify(r.errors.map((e) => e.message)));
  assert.equal(r.unescaped, true);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), "a\nB\nc\n");
});

test("a JSON edit on one line keeps the \\n inside its strings (it is JSON, not an over-escaped response)", async () => {
  const t = await makeTree({ "a.txt": "x\ny\n" });
  const r = await applyEdits(t.root, '{"path": "a.txt", "oldString": "x\\ny", "newString": "x\\nz"}');
  assert.equal(r.ok, true);
  assert.equal(r.unescaped, undefined);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), "x\nz\n");
});

test("+++ b/b/new.txt creates b/new.txt: the header path is read once", async () => {
  const t = await makeTree({});
  const r = await applyEdits(t.root, "--- /dev/null\n+++ b/b/new.txt\n@@ -0,0 +1 @@\n+hello\n");
  assert.equal(r.ok, true, JSON.stringify(r.errors.map((e) => e.message)));
  assert.deepEqual(
    r.files.map((f) => f.path),
    ["b/new.txt"],
  );
  assert.equal(await readFile(path.join(t.root, "b/new.txt"), "utf8"), "hello\n");
});

const badOptions: { name: string; options: Record<string, unknown>; mentions: string }[] = [
  { name: "fuzzyThreshold NaN", options: { fuzzyThreshold: Number.NaN }, mentions: "fuzzyThreshold" },
  { name: "fuzzyThreshold above 1", options: { fuzzyThreshold: 2 }, mentions: "fuzzyThreshold" },
  { name: "fuzzyThreshold 0", options: { fuzzyThreshold: 0 }, mentions: "fuzzyThreshold" },
  { name: "hintWindow Infinity", options: { hintWindow: Number.POSITIVE_INFINITY }, mentions: "hintWindow" },
  { name: "preset toString", options: { preset: "toString" }, mentions: "toString" },
  { name: "preset __proto__", options: { preset: "__proto__" }, mentions: "__proto__" },
  { name: "startLine NaN", options: { startLine: Number.NaN }, mentions: "startLine" },
];

for (const c of badOptions) {
  test(`options: ${c.name} is INVALID_INPUT naming the option, in every entry point`, async () => {
    const entries: [string, () => unknown][] = [
      ["replace", () => replace("a\nb\n", "b", "c", c.options)],
      ["applySearchReplace", () => applySearchReplace("a\nb\n", "<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE", c.options)],
      ["applyPatch", () => applyPatch("a\nb\n", "@@ @@\n a\n-b\n+c\n", c.options)],
    ];
    for (const [name, run] of entries) {
      if (c.name.startsWith("startLine") && name === "applyPatch") continue; // applyPatch takes its hints from headers
      const e = errorOf(run);
      assert.equal(e.code, "INVALID_INPUT", name);
      assert.match(e.message, new RegExp(c.mentions.replace(/[_]/g, "_")), name);
    }
    if (c.name.startsWith("startLine")) return;
    const t = await makeTree({ "a.txt": "a\nb\n" });
    await assert.rejects(
      applyEdits(t.root, '{"path": "a.txt", "oldString": "b", "newString": "c"}', c.options),
      (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT",
    );
  });
}

test("options: null options are the defaults", () => {
  assert.equal(replace("a\n", "a", "b", null as never).content, "b\n");
});

test("applyEdits passes fuzzyThreshold to the engine", async () => {
  // The first line misremembered by one character: only the similarity fallback finds it (99% similar).
  const file = "function total(items) {\n  let sum = 0;\n  for (const item of items) { sum += item.price * item.quantity; }\n  return sum;\n}\n";
  const oldString = "function total(itemz) {\n  let sum = 0;\n  for (const item of items) { sum += item.price * item.quantity; }\n  return sum;\n}";
  const edit = { path: "a.js", oldString, newString: oldString.replace("return sum;", "return sum * 2;") };
  const t = await makeTree({ "a.js": file });
  const strict = await applyEdits(t.root, [edit], { fuzzyThreshold: 0.999, dryRun: true });
  assert.equal(strict.ok, false);
  assert.equal(strict.files[0]?.edits[0]?.error?.code, "NOT_FOUND");
  const loose = await applyEdits(t.root, [edit], { dryRun: true });
  assert.equal(loose.ok, true);
  assert.equal(loose.files[0]?.edits[0]?.strategy, "fuzzy-block");
});

test("AMBIGUOUS lists a candidate after a blank line by the nearest line above it, not as 'the start of the file'", () => {
  const content = "start\n\ndup();\nmiddle\n\ndup();\nend\n";
  const e = errorOf(() => replace(content, "dup();", "x();"));
  assert.equal(e.code, "AMBIGUOUS");
  assert.doesNotMatch(e.message, /start of the file/);
  assert.match(e.message, /lines 3-3 \(line 1, above it, is `start`\)/);
  assert.match(e.message, /lines 6-6 \(line 4, above it, is `middle`\)/);
});

test("messages speak the format's words: no str_replace wording in SEARCH/REPLACE or diff errors", () => {
  const content = "a\nb\na\nb\n";
  const sr = applySearchReplace(content, "<<<<<<< SEARCH\na\nb\n=======\nx\n>>>>>>> REPLACE");
  const diff = errorOf(() => applyPatch(content, "@@ @@\n a\n-b\n+x\n"));
  for (const message of [sr.failed[0]?.message ?? "", diff.message]) {
    assert.doesNotMatch(message, /text to replace|replaceAll|newString/);
  }
  assert.match(sr.failed[0]?.message ?? "", /The SEARCH text matches 2 places/);
  assert.match(diff.message, /Hunk 1 \(patch line 1\): The hunk's old side .* matches 2 places/);
});

test("applyEdits: the failure of the third block of a multi-file response names its line in the response", async () => {
  const t = await makeTree({ "a.txt": "one\ntwo\n", "b.txt": "three\nfour\n" });
  const response = [
    "Changes:",
    "",
    "a.txt",
    "<<<<<<< SEARCH",
    "one",
    "=======",
    "ONE",
    ">>>>>>> REPLACE",
    "",
    "b.txt",
    "<<<<<<< SEARCH",
    "three",
    "=======",
    "THREE",
    ">>>>>>> REPLACE",
    "",
    "<<<<<<< SEARCH",
    "absent line",
    "=======",
    "x",
    ">>>>>>> REPLACE",
    "",
  ].join("\n");
  const r = await applyEdits(t.root, response, { dryRun: true });
  const failed = r.files.flatMap((f) => f.edits).filter((e) => e.status === "failed");
  assert.equal(failed.length, 1);
  assert.match(failed[0]?.error?.message ?? "", /^The block at line 17 of the response: The SEARCH text was not found/);
  assert.equal(failed[0]?.error?.detail.line, 17);
});

test("applySearchReplace says whether every block applied", () => {
  const ok = applySearchReplace("a\n", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE");
  assert.equal(ok.complete, true);
  const partial = applySearchReplace("a\n", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nzz\n=======\ny\n>>>>>>> REPLACE");
  assert.equal(partial.complete, false);
  assert.equal(partial.content, "b\n");
});

test("the registry lists each format once, with detect, split and apply", () => {
  const names = FORMATS.map((f) => f.name);
  assert.deepEqual([...new Set(names)], names);
  for (const f of FORMATS) {
    assert.equal(typeof f.detect, "function");
    assert.equal(typeof f.split, "function");
    assert.equal(typeof f.apply, "function");
  }
});

// --- limits and the time budget, through every entry point (issue 14) ------------

const SR_TWO = "<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE";
const limitCases: { name: string; run: () => unknown; limit: string }[] = [
  { name: "replace: a find text over maxFindLength", run: () => replace("abc\n", "abc", "x", { limits: { maxFindLength: 2 } }), limit: "maxFindLength" },
  { name: "applySearchReplace: more blocks than maxEdits", run: () => applySearchReplace("a\nb\n", SR_TWO, { limits: { maxEdits: 1 } }), limit: "maxEdits" },
  { name: "applySearchReplace: a diff over maxResponseSize", run: () => applySearchReplace("a\nb\n", SR_TWO, { limits: { maxResponseSize: 10 } }), limit: "maxResponseSize" },
  { name: "applyPatch: a patch over maxResponseSize", run: () => applyPatch("a\n", "@@ @@\n-a\n+b\n", { limits: { maxResponseSize: 5 } }), limit: "maxResponseSize" },
  { name: "applyPatch: more hunks than maxEdits", run: () => applyPatch("a\nb\n", "@@ @@\n-a\n+A\n@@ @@\n-b\n+B\n", { limits: { maxEdits: 1 } }), limit: "maxEdits" },
];
for (const c of limitCases) {
  test(`limits: ${c.name} is TOO_LARGE naming the limit, before any work`, () => {
    const e = errorOf(c.run);
    assert.equal(e.code, "TOO_LARGE");
    assert.match(e.message, new RegExp(`'${c.limit}' option`));
    assert.equal(e.detail.limit, c.limit);
  });
}

test("limits: a limit that is not a positive number is INVALID_INPUT", () => {
  assert.equal(errorOf(() => replace("a\n", "a", "b", { limits: { maxEdits: 0 } })).code, "INVALID_INPUT");
});

test("budget: an aborted signal stops every entry point with TIMEOUT", () => {
  const signal = AbortSignal.abort();
  for (const run of [
    () => replace("a\nb\n", "b", "c", { signal }),
    () => applySearchReplace("a\nb\n", SR_TWO, { signal }),
    () => applyPatch("a\n", "@@ @@\n-a\n+b\n", { signal }),
  ]) {
    assert.equal(errorOf(run).code, "TIMEOUT");
  }
});

test("budget: timeoutMs is validated in every entry point (its clock is tested with an injected one in limits.test.ts)", () => {
  for (const run of [
    () => replace("a\nb\n", "b", "c", { timeoutMs: Number.NaN }),
    () => applySearchReplace("a\nb\n", SR_TWO, { timeoutMs: -5 }),
    () => applyPatch("a\n", "@@ @@\n-a\n+b\n", { timeoutMs: Number.POSITIVE_INFINITY }),
  ]) {
    assert.equal(errorOf(run).code, "INVALID_INPUT");
  }
});

test("applyEdits: limits, signal and timeoutMs reach the engine; nothing is written", async () => {
  const t = await makeTree({ "a.txt": "a\nb\n" });
  const response = "a.txt\n<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\n";
  const big = await applyEdits(t.root, response, { limits: { maxResponseSize: 10 } });
  assert.equal(big.ok, false);
  assert.equal(big.errors[0]?.code, "TOO_LARGE");
  const aborted = await applyEdits(t.root, response, { signal: AbortSignal.abort(), partial: true });
  assert.equal(aborted.ok, false);
  assert.equal(aborted.files[0]?.edits[0]?.error?.code, "TIMEOUT");
  assert.equal(aborted.written, false);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), "a\nb\n");
  await assert.rejects(applyEdits(t.root, response, { timeoutMs: -1 }), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
});

// Found by the budget property: an edit that searches nothing never checked the budget, so an aborted call wrote it.
const searchless: { name: string; files: Record<string, string>; path: string }[] = [
  { name: "an empty file filled by an empty SEARCH", files: { "empty.txt": "" }, path: "empty.txt" },
  { name: "a new file", files: {}, path: "new.txt" },
];
for (const c of searchless) {
  test(`applyEdits: an aborted signal writes nothing, ${c.name}`, async () => {
    const t = await makeTree(c.files);
    const response = `${c.path}\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n`;
    const r = await applyEdits(t.root, response, { signal: AbortSignal.abort(), partial: true });
    assert.equal(r.written, false);
    assert.ok(r.errors.some((e) => e.code === "TIMEOUT"));
    assert.deepEqual(await readdir(t.root), Object.keys(c.files));
    for (const [rel, text] of Object.entries(c.files)) assert.equal(await readFile(path.join(t.root, rel), "utf8"), text);
  });
}

test("a block repeated many times is located once, and each failure still names its own block", () => {
  const content = "x\ny\nx\ny\n";
  const diff = Array.from({ length: 30 }, () => "<<<<<<< SEARCH\nx\n=======\nz\n>>>>>>> REPLACE").join("\n");
  const r = applySearchReplace(content, diff);
  assert.equal(r.failed.length, 30);
  r.failed.forEach((e, k) => {
    assert.equal(e.code, "AMBIGUOUS");
    assert.equal(e.detail.index, k);
    assert.match(e.message, new RegExp(`^Block ${k + 1} \\(line ${5 * k + 1} of the diff\\): The SEARCH text matches 2 places`));
  });
});

// Issue 24 item 11: messages that contradicted themselves or told the model nothing.
test("AMBIGUOUS describes each place by a line that differs between them, above or below, not the same `}` twice", () => {
  const content = "function a() {\n  setup();\n  }\n  run();\n  one();\n}\nfunction b() {\n  setup();\n  }\n  run();\n  two();\n}\n";
  const e = errorOf(() => replace(content, "  run();", "x"));
  assert.equal(e.code, "AMBIGUOUS");
  assert.match(e.message, /^- lines 4-4 \(line 1, above it, is `function a\(\) \{`\)$/m);
  assert.match(e.message, /^- lines 10-10 \(line 7, above it, is `function b\(\) \{`\)$/m);
  // Nothing above the first place differs (the file starts a line earlier): the line below does.
  const below = errorOf(() => replace("x\nrun();\none();\nx\nrun();\ntwo();\n", "run();", "y"));
  assert.match(below.message, /^- lines 2-2 \(the line below is `one\(\);`\)$/m);
  assert.match(below.message, /^- lines 5-5 \(line 3, above it, is `one\(\);`\)$/m);
});

test("NOT_FOUND with a closest text above the similarity threshold says why it was not taken, not that it needs the threshold", () => {
  const content = "function a() {\n  const alpha = computeTheValueForTheUser(1, 2, 3);\n  return alpha;\n}\n";
  const e = errorOf(() => replace(content, "  const alpha = computeTheValueForTheUser(1, 2, 4);", "x"));
  assert.equal(e.code, "NOT_FOUND");
  assert.match(e.message, /\(97% similar\)/);
  assert.doesNotMatch(e.message, /needs at least/);
  assert.match(e.message, /one line is never matched by similarity/);
});

test("applyEdits: an edit that finds the call's budget spent names the call's budget, not the time left to it", async () => {
  const t = await makeTree({ "a.txt": "x\nx\ny\n" });
  // Choosing edit 1's place takes longer than the whole call may: edit 2 starts with nothing left.
  const edits = [
    { path: "a.txt", oldString: "x", newString: "X" },
    { path: "a.txt", oldString: "y", newString: "Y" },
  ];
  const r = await applyEdits(t.root, edits, { timeoutMs: 50, chooseCandidate: () => new Promise((resolve) => setTimeout(() => resolve(0), 120)) });
  const timeout = r.files[0]?.edits.find((e) => e.error?.code === "TIMEOUT")?.error;
  assert.ok(timeout, JSON.stringify(r.files[0]?.edits));
  assert.match(timeout.message, /its time budget of 50 ms/);
  assert.equal(timeout.detail.timeoutMs, 50);
  assert.equal(r.written, false);
});
