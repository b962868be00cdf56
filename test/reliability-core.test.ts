/**
 * Issue 15, the items fixed in the engine (1, 6, 8, 10, 12, and the BOM
 * removal of 4). Each test states the right behaviour and failed before the
 * fix; the controls state behaviour that was right and must stay so.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { applyPatch, applySearchReplace, createPatch, replace } from "../src/index.ts";

/** Runs `f`; an EditError counts as a refusal, anything else thrown fails the test. */
function attempt<T>(f: () => T): T | EditError {
  try {
    return f();
  } catch (error) {
    if (error instanceof EditError) return error;
    throw error;
  }
}

// --- item 1: widening to whole lines must never move text -------------------------

const widenCases: { name: string; content: string; old: string; new: string; sequence: string[] }[] = [
  {
    name: "an exact old string after the indentation, ending mid-line, with a line added",
    content: "    x = 1; return x\n",
    old: "x = 1;",
    new: "x = 1;\nprint(x);",
    sequence: ["x = 1;", "print(x);", "return x"],
  },
  {
    name: "the same edit in a \\r-only file",
    content: "  a\r  b\r",
    old: "a",
    new: "a\nX",
    sequence: ["a", "X", "b"],
  },
];

for (const c of widenCases) {
  test(`item 1: ${c.name}: the text keeps its order (or the edit is refused)`, () => {
    const r = attempt(() => replace(c.content, c.old, c.new));
    if (r instanceof EditError) return;
    let at = -1;
    for (const piece of c.sequence) {
      const next = r.content.indexOf(piece, at + 1);
      assert.ok(next > at, `${JSON.stringify(piece)} out of order in ${JSON.stringify(r.content)}`);
      at = next;
    }
  });
}

/**
 * Counterexamples of the long fuzz run (shrunk), each wrong before the merge of
 * a widened match had to keep the text around the match: the file, the exact
 * old string, the replacement, and the content written (or the refusal's code).
 */
const keptAround: { name: string; content: string; old: string; new: string; expect: string | { code: string } }[] = [
  {
    name: "a match after the indentation whose first line the replacement changes: the indentation stays",
    content: "\uFEFF\n  x",
    old: "x",
    new: "a\n  x",
    expect: "\uFEFF\n  a\n  x",
  },
  {
    name: "a match at the end of a blank line (\\r\\r\\n file): the blank line's space stays before the edit",
    content: "\uFEFF\r\r\n \r\r\ny-",
    old: "\ny-",
    new: "a\n\n",
    expect: "\uFEFF\r\r\n a\r\r\n\r\r\n",
  },
  {
    name: "a whole last line replaced in a mixed file: its indentation stays",
    content: "x\n+)\r\n\r\n  ...",
    old: "...",
    new: "a\n",
    expect: "x\n+)\r\n\r\n  a\r\n",
  },
  {
    name: "a match ending inside the next line's indentation (CRLF): the rest of that line stays after the edit",
    content: "y\r\n  x\r\n  x\r\n",
    old: "y\n  ",
    new: "\n  \n",
    expect: "\r\n  \r\nx\r\n  x\r\n",
  },
  {
    // "... a" differs from the find text's own "...a" by a space: the model's line, written literally (issue 32).
    name: "a replacement like an elision, after the indentation of an exact match: written literally, the indentation kept",
    content: "  x\n\n  x\n...a",
    old: "x\n...a",
    new: "... a",
    expect: "  x\n\n  ... a",
  },
  {
    // Exact means literal (issue 32): the added line stands where the model wrote it.
    name: "control: an exact match after the indentation that adds a line: written literally, what followed the match stays after it",
    content: "def f():\n    x = 1;  \n",
    old: "x = 1;",
    new: "x = 1;\nprint(x);",
    expect: "def f():\n    x = 1;\nprint(x);  \n",
  },
];

for (const c of keptAround) {
  test(`item 1: ${c.name}`, () => {
    const r = attempt(() => replace(c.content, c.old, c.new));
    if (typeof c.expect === "string") {
      assert.ok(!(r instanceof EditError), String(r));
      assert.equal(r.content, c.expect);
    } else {
      assert.ok(r instanceof EditError, `applied: ${JSON.stringify(r)}`);
      assert.equal(r.code, c.expect.code);
    }
  });
}

test("item 1 control: an exact match after the indentation that adds lines writes them as sent (exact means literal, issue 32)", () => {
  const r = replace("  if (a) {\n    go();\n  }\n", "go();", "go();\nstop();");
  assert.equal(r.content, "  if (a) {\n    go();\nstop();\n  }\n");
});

// --- item 6: non-finite numbers are never a decision -------------------------------

const ambiguous = "a\nx\nb\nx\nc\n";
const huge = "9".repeat(400);
const nonFinite: { name: string; run: () => unknown }[] = [
  { name: "startLine NaN", run: () => replace(ambiguous, "x", "y", { startLine: Number.NaN }) },
  { name: "startLine 3 (equidistant) with hintWindow NaN", run: () => replace(ambiguous, "x", "y", { startLine: 3, hintWindow: Number.NaN } as never) },
  { name: "startLine Infinity", run: () => replace(ambiguous, "x", "y", { startLine: Number.POSITIVE_INFINITY }) },
  { name: "a hunk header with 400-digit numbers", run: () => applyPatch(ambiguous, `@@ -${huge},1 +${huge},1 @@\n-x\n+y\n`) },
  {
    name: "a SEARCH/REPLACE block with startLine NaN",
    run: () => applySearchReplace(ambiguous, "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", { startLine: Number.NaN } as never),
  },
];

for (const c of nonFinite) {
  test(`item 6: ${c.name} on an ambiguous edit is refused (INVALID_INPUT or AMBIGUOUS)`, () => {
    const r = attempt(c.run);
    assert.ok(r instanceof EditError, `applied: ${JSON.stringify(r)}`);
    assert.ok(["INVALID_INPUT", "AMBIGUOUS"].includes(r.code), r.code);
  });
}

// --- item 8: the file boundary decides only when the context is cut short there ----

const boundaryCases: { name: string; content: string; patch: string; want?: string }[] = [
  // One line after, none before: a writer of one-line context at the file's start, or anywhere.
  { name: "0 lines before, 1 after, one copy at the start", content: "x\ny\nm\nx\ny\nn\n", patch: "@@ @@\n-x\n+X\n y\n" },
  { name: "1 line before, 0 after, one copy at the end", content: "a\ny\nm\na\ny\n", patch: "@@ @@\n a\n-y\n+Y\n" },
  { name: "1 line before, 2 after, one copy at the start", content: "a\nx\nb\nc\nm\nn\na\nx\nb\nc\nd\n", patch: "@@ @@\n a\n-x\n+X\n b\n c\n" },
  { name: "an insertion with 1 line after, one copy at the start", content: "x\ny\nm\nx\ny\nn\n", patch: "@@ @@\n+new\n x\n" },
];

for (const c of boundaryCases) {
  test(`item 8: ${c.name}: AMBIGUOUS`, () => {
    const r = attempt(() => applyPatch(c.content, c.patch));
    assert.ok(r instanceof EditError && r.code === "AMBIGUOUS", `applied: ${JSON.stringify(r)}`);
  });
}

const boundaryControls: { name: string; content: string; patch: string; want: string }[] = [
  {
    name: "0 lines before, 3 after (full context cut by the start)",
    content: "a\nb\nc\nd\nm\na\nb\nc\nd\n",
    patch: "@@ @@\n-a\n+A\n b\n c\n d\n",
    want: "A\nb\nc\nd\nm\na\nb\nc\nd\n",
  },
  {
    name: "3 lines before, 0 after (full context cut by the end)",
    content: "a\nb\nc\nd\nm\na\nb\nc\nd\n",
    patch: "@@ @@\n a\n b\n c\n-d\n+D\n",
    want: "a\nb\nc\nd\nm\na\nb\nc\nD\n",
  },
];

for (const c of boundaryControls) {
  test(`item 8 control: ${c.name}: applied at that edge`, () => {
    assert.equal(applyPatch(c.content, c.patch).content, c.want);
  });
}

// --- item 10: replaceAll of a run inside one huge line -----------------------------

test("item 10: replaceAll over a 200k-space line with a line added per occurrence stays within 256 MB of heap", () => {
  const script = `
    import { replace } from "./src/index.ts";
    try {
      const r = replace(" ".repeat(2e5), " ".repeat(26), " ".repeat(26) + "\\nadded();", { replaceAll: true });
      console.log("applied", r.content.length);
    } catch (e) { console.log("refused", e.code); }`;
  const child = spawnSync(process.execPath, ["--max-old-space-size=256", "--import", "tsx", "--input-type=module", "-e", script], {
    cwd: new URL("..", import.meta.url).pathname,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(child.status, 0, child.stderr.slice(-300));
  assert.match(child.stdout, /^(applied \d+|refused [A-Z_]+)\n$/);
});

// --- item 12: prototype keys and null options ---------------------------------------

const protoCases: { name: string; run: () => unknown }[] = [];
for (const preset of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
  protoCases.push(
    { name: `replace, preset ${preset}`, run: () => replace("a\n", "a", "b", { preset } as never) },
    { name: `applyPatch, preset ${preset}`, run: () => applyPatch("a\n", "@@ @@\n-a\n+b\n", { preset } as never) },
    { name: `applySearchReplace, preset ${preset}`, run: () => applySearchReplace("a\n", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", { preset } as never) },
  );
}
for (const c of protoCases) {
  test(`item 12: ${c.name} is an EditError INVALID_INPUT`, () => {
    const r = attempt(c.run);
    assert.ok(r instanceof EditError && r.code === "INVALID_INPUT", `got ${JSON.stringify(r)}`);
  });
}

// One rule for null options in every entry point: null means "no options", as undefined does (never a TypeError).
const nullCases: { name: string; run: (o: unknown) => unknown }[] = [
  { name: "replace", run: (o) => replace("a\n", "a", "b", o as never) },
  { name: "applySearchReplace", run: (o) => applySearchReplace("a\n", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", o as never) },
  { name: "applyPatch", run: (o) => applyPatch("a\n", "@@ @@\n-a\n+b\n", o as never) },
  { name: "createPatch", run: (o) => createPatch("a\n", "b\n", o as never) },
];
for (const c of nullCases) {
  test(`item 12: ${c.name} reads options null as no options`, () => {
    assert.deepEqual(c.run(null), c.run(undefined));
  });
}

// --- item 4 (the applier's part): a BOM removed ------------------------------------

/** applyPatch(a, createPatch(a, b)) is b for each pair: applied, not refused. */
function roundTripsExactly(pairs: readonly (readonly [string, string])[]): void {
  for (const [a, b] of pairs) {
    const patch = createPatch(a, b);
    const r = attempt(() => applyPatch(a, patch));
    assert.ok(!(r instanceof EditError), `refused: ${String(r)}`);
    assert.equal(r.content, b, patch);
  }
}

test("item 4: applyPatch(a, createPatch(a, b)) is b when lines are added above the line that held a's BOM (its BOMs become text)", () => {
  roundTripsExactly([
    ["\uFEFF\n", "\n\uFEFF\n"],
    ["\uFEFFx\n", "y\n\uFEFFx\n"],
    ["\uFEFFx\n", "\uFEFFy\n\uFEFFx\n"],
    ["\uFEFF\uFEFF", "\n\uFEFF\uFEFF"],
    ["\uFEFF", "yy\n\uFEFF"],
  ]);
});

test("property: applyPatch(a, createPatch(a, b)) is b over texts of BOMs, spaces, letters and line breaks", () => {
  const text = fc.array(fc.constantFrom("\uFEFF", "\uFEFF\uFEFF", "\n", "x", "y", " "), { maxLength: 8 }).map((parts) => parts.join(""));
  fc.assert(
    fc.property(text, text, (a, b) => {
      fc.pre(a !== b);
      assert.equal(applyPatch(a, createPatch(a, b)).content, b);
    }),
    { numRuns: 3000 },
  );
});

test("item 4: applyPatch(a, createPatch(a, b)) is b when b drops a's BOM", () => {
  roundTripsExactly([
    ["\uFEFFa\nb\n", "a\nb\n"],
    ["\uFEFFa\nb\n", "x\nb\n"],
  ]);
});
