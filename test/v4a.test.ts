import assert from "node:assert/strict";
import { access, cp, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { createPatch } from "../src/formats/create-patch.ts";
import { detectEdits } from "../src/formats/response.ts";
import type { FileEdit } from "../src/formats/types.ts";
import { findAnchor, lineEqual, type V4APayload, v4aFormat } from "../src/formats/v4a-format.ts";
import { Document } from "../src/text/document.ts";
import { parseV4A, patchExtent } from "../src/formats/v4a-parse.ts";
import { applyEdits } from "../src/fs/apply-edits.ts";
import { applyV4A as applyV4ASection } from "../src/index.ts";
import { applyChanges } from "../src/text/change-list.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";
import { type Run, runCli } from "./helpers/cli-run.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

const patch = (...lines: string[]) => `${lines.join("\n")}\n`;
const missing = async (root: string, rel: string) =>
  access(path.join(root, rel)).then(
    () => false,
    () => true,
  );

// --- parsing ------------------------------------------------------------------

/** A readable summary of what the parser read. */
function summary(text: string): unknown {
  const lines = text.split("\n");
  const begin = lines.indexOf("*** Begin Patch");
  const { end } = patchExtent(lines, begin, lines.length);
  return parseV4A(lines, begin, end).map((op) =>
    op.kind === "update"
      ? {
          update: op.path,
          ...(op.moveTo !== undefined && { moveTo: op.moveTo }),
          chunks: op.chunks.map((c) => ({ anchors: c.anchors, old: c.old, new: c.new, ...(c.endOfFile && { eof: true }), ...(c.unprefixed.length > 0 && { unprefixed: c.unprefixed }) })),
        }
      : op.kind === "add"
        ? { add: op.path, lines: op.lines }
        : { delete: op.path },
  );
}

const parseCases: { name: string; text: string; expect: unknown }[] = [
  {
    name: "the whole grammar: add, delete, update with a move, stacked anchors, end of file",
    text: patch(
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# New",
      "+",
      "+text",
      "*** Delete File: old.txt",
      "*** Update File: src/a.py",
      "*** Move to: src/b.py",
      "@@ class Foo",
      "@@     def bar(self):",
      "         x = 1",
      "-        return x",
      "+        return x + 1",
      "@@",
      " last()",
      "+tail()",
      "*** End of File",
      "*** End Patch",
    ),
    expect: [
      { add: "docs/new.md", lines: ["# New", "", "text"] },
      { delete: "old.txt" },
      {
        update: "src/a.py",
        moveTo: "src/b.py",
        chunks: [
          { anchors: ["class Foo", "def bar(self):"], old: ["        x = 1", "        return x"], new: ["        x = 1", "        return x + 1"] },
          { anchors: [], old: ["last()"], new: ["last()", "tail()"], eof: true },
        ],
      },
    ],
  },
  {
    name: "the first chunk of an update may omit its @@ line",
    text: patch("*** Begin Patch", "*** Update File: a.txt", " a", "-b", "+c", "*** End Patch"),
    expect: [{ update: "a.txt", chunks: [{ anchors: [], old: ["a", "b"], new: ["a", "c"] }] }],
  },
  {
    name: "leniency: missing *** End Patch, prose after the patch is not read as context",
    text: patch("Here you go:", "*** Begin Patch", "*** Update File: a.txt", "@@", " a", "-b", "+c", "", "That fixes it."),
    expect: [{ update: "a.txt", chunks: [{ anchors: [], old: ["a", "b"], new: ["a", "c"] }] }],
  },
  {
    name: "leniency: missing *** End Patch, a prose paragraph with a list after it ends the patch",
    text: patch("*** Begin Patch", "*** Update File: a.txt", "@@", " a", "-b", "+c", "", "Notes:", "- one", "- two"),
    expect: [{ update: "a.txt", chunks: [{ anchors: [], old: ["a", "b"], new: ["a", "c"] }] }],
  },
  {
    name: "leniency: a context line without its space is context, and is remembered",
    text: patch("*** Begin Patch", "*** Update File: a.txt", "@@", "def f():", "-    pass", "+    return 1", "*** End Patch"),
    expect: [{ update: "a.txt", chunks: [{ anchors: [], old: ["def f():", "    pass"], new: ["def f():", "    return 1"], unprefixed: [4] }] }],
  },
  {
    name: "leniency: blank lines inside a chunk are blank context; at its end they are the gap",
    text: patch("*** Begin Patch", "*** Update File: a.txt", "@@", " a", "", "-b", "+c", "", "", "*** Update File: b.txt", "@@", "-x", "+y", "*** End Patch"),
    expect: [
      { update: "a.txt", chunks: [{ anchors: [], old: ["a", "", "b"], new: ["a", "", "c"] }] },
      { update: "b.txt", chunks: [{ anchors: [], old: ["x"], new: ["y"] }] },
    ],
  },
  {
    name: "blank lines before an @@ line are gaps, not context",
    text: patch("*** Begin Patch", "*** Update File: a.txt", "", "@@ class A", "", "@@ def f", " x", "-y", "*** End Patch"),
    expect: [{ update: "a.txt", chunks: [{ anchors: ["class A", "def f"], old: ["x", "y"], new: ["x"] }] }],
  },
  {
    name: "marker text inside a prefixed line is content, not a marker",
    text: patch("*** Begin Patch", "*** Update File: a.txt", "@@", " *** End Patch", "-@@ x", "+*** End of File", "*** End Patch"),
    expect: [{ update: "a.txt", chunks: [{ anchors: [], old: ["*** End Patch", "@@ x"], new: ["*** End Patch", "*** End of File"] }] }],
  },
  {
    name: "Codex scenario 017: a padded *** Update File: where a header is expected is the header",
    text: patch("*** Begin Patch", "  *** Update File: foo.txt", "@@", "-old", "+new", "*** End Patch"),
    expect: [{ update: "foo.txt", chunks: [{ anchors: [], old: ["old"], new: ["new"] }] }],
  },
  {
    name: "Codex scenario 020: a padded *** End Patch with nothing after it closes the patch",
    text: patch("*** Begin Patch", "*** Update File: file.txt", "@@", "-one", "+two", " *** End Patch"),
    expect: [{ update: "file.txt", chunks: [{ anchors: [], old: ["one"], new: ["two"] }] }],
  },
  {
    name: "a padded header after an Add File's lines starts the next section",
    text: patch("*** Begin Patch", "*** Add File: a.txt", "+x", " *** Delete File: b.txt", "*** End Patch"),
    expect: [{ add: "a.txt", lines: ["x"] }, { delete: "b.txt" }],
  },
  {
    name: "leniency 7: *** Environment ID: before the first file operation is skipped",
    text: patch("*** Begin Patch", "*** Environment ID: remote", "*** Add File: hello.txt", "+hello", "*** End Patch"),
    expect: [{ add: "hello.txt", lines: ["hello"] }],
  },
];

describe("V4A parse", () => {
  for (const c of parseCases) test(c.name, () => assert.deepEqual(summary(c.text), c.expect));
});

const parseErrors: { name: string; text: string; message: RegExp; line: number }[] = [
  { name: "an unknown *** line", text: patch("*** Begin Patch", "*** Rename File: a", "*** End Patch"), message: /expected "\*\*\* Add File: PATH"/, line: 2 },
  { name: "lines after a Delete File", text: patch("*** Begin Patch", "*** Delete File: a", "-x", "*** End Patch"), message: /Delete File section has no lines/, line: 3 },
  { name: "a non-+ line in an Add File", text: patch("*** Begin Patch", "*** Add File: a", "+x", " y", "*** End Patch"), message: /starts with "\+"/, line: 4 },
  { name: "a Move to that does not follow its Update", text: patch("*** Begin Patch", "*** Move to: b", "*** End Patch"), message: /Move to/, line: 2 },
  { name: "an Update with nothing to do", text: patch("*** Begin Patch", "*** Update File: a", "*** End Patch"), message: /has no chunks/, line: 2 },
  { name: "a header without a path", text: patch("*** Begin Patch", "*** Update File: ", "@@", "-x", "*** End Patch"), message: /names no file/, line: 2 },
  { name: "an @@ line with no chunk lines", text: patch("*** Begin Patch", "*** Update File: a", "@@ def f", "*** End Patch"), message: /followed by no chunk lines/, line: 3 },
  { name: "a patch with no file operations", text: patch("*** Begin Patch", "*** End Patch"), message: /holds no file operations/, line: 1 },
  {
    name: "*** Environment ID: after a file operation",
    text: patch("*** Begin Patch", "*** Delete File: a", "*** Environment ID: x", "*** End Patch"),
    message: /Delete File section has no lines/,
    line: 3,
  },
  { name: "an unknown *** line inside an update", text: patch("*** Begin Patch", "*** Update File: a", "@@", "-x", "*** Oops", "*** End Patch"), message: /inside an Update File/, line: 5 },
];

describe("V4A parse errors", () => {
  for (const c of parseErrors) {
    test(c.name, () => {
      const found = detectEdits(c.text);
      assert.equal(found.edits.length, 0);
      const e = found.errors[0];
      assert.ok(e instanceof EditError, "a PARSE error");
      assert.equal(e.code, "PARSE");
      assert.match(e.message, c.message);
      assert.equal(e.detail.line, c.line);
    });
  }
});

test("property: the V4A reader throws nothing but EditError on arbitrary input", () => {
  const lineArb = fc.constantFrom("*** Begin Patch", "*** End Patch", "*** Update File: a", "*** Add File: b", "*** Delete File: c", "*** Move to: d", "@@", "@@ x", " a", "-a", "+b", "", "x", "*** End of File", "```");
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 12 }), (ls) => {
      const found = detectEdits(ls.join("\n"), "v4a");
      for (const e of found.errors) assert.ok(e instanceof EditError);
    }),
    { numRuns: 500 },
  );
});

test("property: applying arbitrary V4A chunks to arbitrary text throws nothing but EditError; a change it reports is the new text's", () => {
  const lineArb = fc.constantFrom("a", "b", "", " ", "  a", "}", "x y");
  const chunkLineArb = fc.tuple(fc.constantFrom(" ", "-", "+", "@@ ", ""), lineArb).map(([p, l]) => p + l);
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 10 }), fc.array(chunkLineArb, { minLength: 1, maxLength: 8 }), fc.constantFrom("\n", "\r\n"), (file, body, eol) => {
      const found = detectEdits(["*** Begin Patch", "*** Update File: f.txt", "@@", ...body, "*** End Patch"].join("\n"), "v4a");
      for (const edit of found.edits) {
        try {
          const text = file.join(eol);
          const r = v4aFormat.apply(text, edit as FileEdit<V4APayload>, { path: "f.txt", exists: true, options: {} });
          // The file layer writes and diffs from the changes alone.
          if (r.changes) assert.equal(applyChanges(text, r.changes), r.content);
        } catch (error) {
          assert.ok(error instanceof EditError, String(error));
        }
      }
    }),
    { numRuns: 500 },
  );
});

// --- anchors ------------------------------------------------------------------

const anchorCases: { name: string; file: string[]; anchor: string; from: number; expect: number | undefined }[] = [
  { name: "exact", file: ["class A:", "class B:"], anchor: "class B:", from: 0, expect: 1 },
  { name: "surrounding whitespace ignored", file: ["x", "    def f(self):"], anchor: "def f(self):", from: 0, expect: 1 },
  { name: "typographic quotes and dashes read as ASCII", file: ['name = "x" - 1'], anchor: "name = \u201Cx\u201D \u2013 1", from: 0, expect: 0 },
  { name: "the start of a line, at a word boundary", file: ["def barn():", "def bar(self, x):"], anchor: "def bar", from: 0, expect: 1 },
  { name: "searched from the cursor on", file: ["def f():", "def f():"], anchor: "def f():", from: 1, expect: 1 },
  { name: "absent", file: ["a", "b"], anchor: "c", from: 0, expect: undefined },
];

describe("V4A @@ anchors", () => {
  for (const c of anchorCases) test(c.name, () => assert.equal(findAnchor(c.file, c.anchor, c.from), c.expect));
  test("an anchor found in the text (no line array) is the first line from the cursor on equal to it, or trimmed equal, as in the file's lines", () => {
    const line = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "\r", "\u00a0"), maxLength: 4 });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.constantFrom("\n", "\r\n", "\r"), fc.boolean(), line, fc.nat(11), fc.boolean(), (ls, eol, final, anchor, from, trimmed) => {
        const doc = Document.from(ls.join(eol) + (final ? eol : ""));
        const lines = doc.lines(0, doc.lineCount);
        const same = (l: string) => (trimmed ? l.trim() === anchor.trim() : l === anchor);
        const want = lines.findIndex((l, i) => i >= from && same(l));
        const empty = (trimmed ? anchor.trim() : anchor) === "";
        assert.equal(lineEqual(doc, anchor, from, trimmed), empty || want === -1 ? undefined : want);
      }),
      { numRuns: 3000 },
    );
  });
});

// --- applying through the file layer --------------------------------------------

const TWO = "class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 1\n";

const applyCases: { name: string; files: Record<string, string>; response: string; expect: Record<string, string | null> }[] = [
  {
    name: "Add File creates the file from its + lines",
    files: {},
    response: patch("*** Begin Patch", "*** Add File: src/new.py", "+def hi():", "+    return 'hi'", "*** End Patch"),
    expect: { "src/new.py": "def hi():\n    return 'hi'\n" },
  },
  { name: "Delete File deletes", files: { "old.txt": "bye\n" }, response: patch("*** Begin Patch", "*** Delete File: old.txt", "*** End Patch"), expect: { "old.txt": null } },
  {
    name: "Move to writes the new path and deletes the old, with the chunk applied",
    files: { "a.py": "x = 1\ny = 2\n" },
    response: patch("*** Begin Patch", "*** Update File: a.py", "*** Move to: lib/b.py", "@@", " x = 1", "-y = 2", "+y = 3", "*** End Patch"),
    expect: { "a.py": null, "lib/b.py": "x = 1\ny = 3\n" },
  },
  {
    name: "Move to alone renames",
    files: { "a.txt": "same\n" },
    response: patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "*** End Patch"),
    expect: { "a.txt": null, "b.txt": "same\n" },
  },
  {
    name: "an @@ anchor picks the second of two identical bodies",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class B:", "     def run(self):", "-        return 1", "+        return 2", "*** End Patch"),
    expect: { "m.py": TWO.replace(/return 1\n$/, "return 2\n") },
  },
  {
    name: "stacked anchors and a fuzzy anchor (a line's start)",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class B", "@@ def run(", "-        return 1", "+        return 3", "*** End Patch"),
    expect: { "m.py": TWO.replace(/return 1\n$/, "return 3\n") },
  },
  {
    name: "an anchor repeated as the chunk's first context line",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class A:", " class A:", "     def run(self):", "-        return 1", "+        return 0", "*** End Patch"),
    expect: { "m.py": TWO.replace("return 1", "return 0") },
  },
  {
    name: "chunks in order, each after the one before",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class A:", "-        return 1", "+        return 10", "@@ class B:", "-        return 1", "+        return 20", "*** End Patch"),
    expect: { "m.py": TWO.replace("return 1\n", "return 10\n").replace(/return 1\n$/, "return 20\n") },
  },
  {
    name: "added lines only go right after their anchor",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class B:", "+    name = 'b'", "*** End Patch"),
    expect: { "m.py": TWO.replace("class B:\n", "class B:\n    name = 'b'\n") },
  },
  {
    name: "added lines only, without an anchor, go at the end (as Codex does)",
    files: { "list.txt": "a\nb\n" },
    response: patch("*** Begin Patch", "*** Update File: list.txt", "@@", "+c", "*** End Patch"),
    expect: { "list.txt": "a\nb\nc\n" },
  },
  {
    name: "fuzzy context: other indentation and typographic quotes",
    files: { "c.js": 'const a = {\n  name: "x",\n  retries: 3,\n};\n' },
    response: patch("*** Begin Patch", "*** Update File: c.js", "@@", "    name: \u201Cx\u201D,", "-    retries: 3,", "+    retries: 5,", "*** End Patch"),
    expect: { "c.js": 'const a = {\n  name: "x",\n  retries: 5,\n};\n' },
  },
  {
    name: "missing *** End Patch, and a context line without its space",
    files: { "t.txt": "one\ntwo\nthree\n" },
    response: "Patch:\n\n*** Begin Patch\n*** Update File: t.txt\n@@\none\n-two\n+2\n three\n\nDone.\n",
    expect: { "t.txt": "one\n2\nthree\n" },
  },
  {
    name: "*** End of File takes the last of two identical places",
    files: { "e.txt": "end\nmid\nend\n" },
    response: patch("*** Begin Patch", "*** Update File: e.txt", "@@", "-end", "+END", "*** End of File", "*** End Patch"),
    expect: { "e.txt": "end\nmid\nEND\n" },
  },
  {
    name: "a response with a unified diff and a bare V4A patch: each format takes its own",
    files: { "d.txt": "one\ntwo\n", "v.txt": "alpha\nbeta\n" },
    response: `The diff:\n\n\`\`\`diff\n--- a/d.txt\n+++ b/d.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n\`\`\`\n\nThe patch:\n\n${patch("*** Begin Patch", "*** Update File: v.txt", "@@", " alpha", "-beta", "+BETA", "*** End Patch")}`,
    expect: { "d.txt": "one\n2\n", "v.txt": "alpha\nBETA\n" },
  },
  {
    name: "CRLF files keep their line endings",
    files: { "w.txt": "a\r\nb\r\n" },
    response: patch("*** Begin Patch", "*** Update File: w.txt", "@@", " a", "-b", "+c", "*** End Patch"),
    expect: { "w.txt": "a\r\nc\r\n" },
  },
];

describe("V4A apply", () => {
  for (const c of applyCases) {
    test(c.name, async () => {
      const t = await makeTree(c.files);
      const r = await applyEdits(t.root, c.response);
      assert.ok(r.ok, JSON.stringify([r.errors, r.files.map((f) => [f.error?.message, f.edits.map((e) => e.error?.message)])]));
      for (const [rel, want] of Object.entries(c.expect)) {
        if (want === null) assert.ok(await missing(t.root, rel), `${rel} is gone`);
        else assert.equal(await read(t.root, rel), want);
      }
    });
  }
});

const refusals: { name: string; files: Record<string, string>; response: string; code: string; message: RegExp }[] = [
  {
    name: "an ambiguous chunk (two places, no anchor)",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@", "     def run(self):", "-        return 1", "+        return 2", "*** End Patch"),
    code: "AMBIGUOUS",
    message: /Chunk 1 \(patch line 3\)[\s\S]*"@@" line/,
  },
  {
    name: "two equal places in the block of a plain anchor line (not a block opener): ambiguous, not the first (issue 32)",
    files: { "a.py": "class A:\n    def f(self):\n        y = 2\n        z = 3\n        y = 2\n        z = 3\n\n    def g(self):\n        pass\n" },
    response: patch("*** Begin Patch", "*** Update File: a.py", "@@         y = 2", "-        z = 3", "+        z = 5", "*** End Patch"),
    code: "AMBIGUOUS",
    message: /Chunk 1/,
  },
  {
    name: "absent context",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@", " def stop(self):", "-    return 9", "+    return 8", "*** End Patch"),
    code: "NOT_FOUND",
    message: /Chunk 1/,
  },
  {
    name: "context that is only above the anchor",
    files: { "m.py": "def f():\n    return 1\n\ndef g():\n    pass\n" },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ def g():", "-    return 1", "+    return 2", "*** End Patch"),
    code: "NOT_FOUND",
    message: /searched from line 4, where its "@@ def g\(\):" line was found/,
  },
  {
    name: "an anchor that is not in the file",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class C:", "-        return 1", "+        return 2", "*** End Patch"),
    code: "NOT_FOUND",
    message: /anchor "@@ class C:" matches no line of m\.py/,
  },
  {
    name: "Add File over an existing file",
    files: { "a.txt": "here\n" },
    response: patch("*** Begin Patch", "*** Add File: a.txt", "+new", "*** End Patch"),
    code: "CONFLICT",
    message: /already exists/,
  },
  {
    name: "Move to onto an existing file",
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    response: patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "*** End Patch"),
    code: "CONFLICT",
    message: /cannot be moved to b\.txt/,
  },
  {
    name: "Update File of a missing file",
    files: {},
    response: patch("*** Begin Patch", "*** Update File: nope.txt", "@@", "-a", "+b", "*** End Patch"),
    code: "NOT_FOUND",
    message: /does not exist[\s\S]*Add File/,
  },
  {
    name: "Delete File of a missing file",
    files: {},
    response: patch("*** Begin Patch", "*** Delete File: nope.txt", "*** End Patch"),
    code: "NOT_FOUND",
    message: /nothing to delete/,
  },
  {
    name: "one failed chunk keeps the whole patch from being written",
    files: { "m.py": TWO, "n.txt": "n\n" },
    response: patch("*** Begin Patch", "*** Update File: n.txt", "-n", "+N", "*** Update File: m.py", "@@ class B:", "-        return 7", "+        return 8", "*** End Patch"),
    code: "NOT_FOUND",
    message: /Chunk 1/,
  },
];

describe("V4A refusals", () => {
  for (const c of refusals) {
    test(c.name, async () => {
      const t = await makeTree(c.files);
      const before = await snapshot(t.root);
      const r = await applyEdits(t.root, c.response);
      assert.equal(r.ok, false);
      const errors = r.files.flatMap((f) => [f.error, ...f.edits.map((e) => e.error)]).filter((e) => e !== undefined);
      const e = errors[0];
      assert.ok(e, "an error");
      assert.equal(e.code, c.code, e.message);
      assert.match(e.message, c.message);
      assert.deepEqual(await snapshot(t.root), before, "nothing written");
    });
  }
});

// --- createPatch's V4A output ----------------------------------------------------

function applyV4A(oldText: string, text: string, context = 3): string | "already-applied" {
  const found = detectEdits(text, "v4a");
  assert.deepEqual(found.errors, []);
  assert.equal(found.edits.length, 1);
  const edit = found.edits[0] as FileEdit<V4APayload>;
  const r = v4aFormat.apply(oldText, edit, { path: "f.txt", exists: true, options: {} });
  // Without context, `a` -> `a`,`x` on a file where `x` follows `a` reads as an
  // insertion sent again (ALREADY_APPLIED): a patch with no context cannot tell.
  if (context === 0 && r.content === undefined && r.ops.some((o) => o.error?.code === "ALREADY_APPLIED")) return "already-applied";
  assert.ok(r.content !== undefined, JSON.stringify(r.ops));
  return r.content;
}

const lineArb = fc.constantFrom("a", "b", "c", "", " ", "  a", "}", "-- x", "++ y", "@@", "@@ x", "*** End Patch", "*** Begin Patch", "*** End of File", "+", "-");
const textArb = fc.array(lineArb, { maxLength: 14 });
const pairArb = fc.tuple(textArb, textArb, fc.boolean(), fc.array(fc.tuple(fc.nat(), lineArb), { maxLength: 4 }), fc.boolean()).map(([a, other, eol, edits, related]) => {
  const b = related ? [...a] : other;
  if (related) for (const [pos, line] of edits) b.splice(pos % (b.length + 1), pos % 3 === 0 ? 1 : 0, line);
  const join = (ls: string[]) => (ls.length === 0 ? "" : ls.join("\n") + (eol ? "\n" : ""));
  return [join(a), join(b)] as const;
});

test("property: applying createPatch's V4A output through the V4A entry gives the new text", () => {
  fc.assert(
    fc.property(pairArb, fc.integer({ min: 0, max: 3 }), ([a, b], context) => {
      const make = () => createPatch(a, b, { format: "v4a", path: "f.txt", context });
      // V4A cannot say "no newline at end of file" (an empty file is created with one).
      const eol = (t: string) => t === "" || t.endsWith("\n");
      if (b !== "" && eol(a) !== eol(b)) return assert.throws(make, /final newline/);
      const text = make();
      if (a === b) return assert.equal(text, "");
      assert.ok(text.startsWith("*** Begin Patch\n*** Update File: f.txt\n") && text.endsWith("*** End Patch\n"), text);
      const out = applyV4A(a, text, context);
      if (out !== "already-applied") assert.equal(out, b, text);
    }),
    { numRuns: 1000 },
  );
});

const createCases: { name: string; old: string; new: string; expect: string | RegExp }[] = [
  { name: "a change in the middle", old: "a\nb\nc\n", new: "a\nB\nc\n", expect: patch("*** Begin Patch", "*** Update File: f.txt", "@@", " a", "-b", "+B", " c", "*** End of File", "*** End Patch") },
  { name: "no path", old: "a\n", new: "b\n", expect: /needs the file's path/ },
  { name: "the final newline added", old: "a", new: "a\n", expect: /final newline/ },
];

describe("createPatch format v4a", () => {
  for (const c of createCases) {
    test(c.name, () => {
      const run = () => createPatch(c.old, c.new, { format: "v4a", ...(c.name !== "no path" && { path: "f.txt" }), context: 1 });
      if (typeof c.expect === "string") assert.equal(run(), c.expect);
      else assert.throws(run, (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT" && (c.expect as RegExp).test(e.message));
    });
  }
});

// --- the command line ------------------------------------------------------------


const run = (args: string[], cwd: string, input = ""): Promise<Run> => runCli(args, cwd, input);

const GREET = 'export function greet(name) {\n  return "Hello, " + name;\n}\n';

const cliCases: { name: string; files: Record<string, string>; response: string; args?: string[]; code: number; expect: Record<string, string | null>; stdout?: RegExp; stderr?: RegExp }[] = [
  {
    name: "add",
    files: {},
    response: patch("*** Begin Patch", "*** Add File: src/hi.js", "+export const hi = 1;", "*** End Patch"),
    code: 0,
    expect: { "src/hi.js": "export const hi = 1;\n" },
    stdout: /\+\+\+ b\/src\/hi\.js/,
  },
  { name: "delete", files: { "gone.js": "x\n" }, response: patch("*** Begin Patch", "*** Delete File: gone.js", "*** End Patch"), code: 0, expect: { "gone.js": null } },
  {
    name: "move",
    files: { "greet.js": GREET },
    response: patch("*** Begin Patch", "*** Update File: greet.js", "*** Move to: src/greet.js", "@@ export function greet(name) {", '-  return "Hello, " + name;', '+  return "Hi, " + name;', "*** End Patch"),
    code: 0,
    expect: { "greet.js": null, "src/greet.js": GREET.replace("Hello", "Hi") },
    stdout: /--- a\/greet\.js\n\+\+\+ b\/src\/greet\.js/,
  },
  {
    name: "--stat names a move as git does, and writes nothing",
    files: { "a.txt": "x\n" },
    response: patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "@@", "-x", "+y", "*** End Patch"),
    args: ["--stat"],
    code: 0,
    expect: { "a.txt": "x\n", "b.txt": null },
    stdout: /^ a\.txt => b\.txt \| 2 \+-$/m,
  },
  {
    name: "--json reports the move",
    files: { "a.txt": "x\n" },
    response: patch("*** Begin Patch", "*** Update File: a.txt", "*** Move to: b.txt", "*** End Patch"),
    args: ["--json"],
    code: 0,
    expect: { "a.txt": null, "b.txt": "x\n" },
    stdout: /"path": "a\.txt",\s*"movedTo": "b\.txt"/,
  },
  {
    name: "update with @@ anchors",
    files: { "m.py": TWO },
    response: patch("*** Begin Patch", "*** Update File: m.py", "@@ class B:", "@@ def run(self):", "-        return 1", "+        return 2", "*** End Patch"),
    code: 0,
    expect: { "m.py": TWO.replace(/return 1\n$/, "return 2\n") },
  },
  {
    name: "fuzzy context is applied with a warning",
    files: { "greet.js": GREET },
    response: patch("*** Begin Patch", "*** Update File: greet.js", "@@", "export function greet(name) {", '-    return "Hello, " + name;', '+    return "Hi, " + name;', "*** End Patch"),
    code: 0,
    expect: { "greet.js": GREET.replace("Hello", "Hi") },
    stderr: /warning: greet\.js: edit 1 \(v4a\) matched fuzzily/,
  },
  {
    name: "a missing *** End Patch inside a fence",
    files: { "greet.js": GREET },
    response: `Here:\n\n\`\`\`\n*** Begin Patch\n*** Update File: greet.js\n@@\n-  return "Hello, " + name;\n+  return "Hey, " + name;\n\`\`\`\n\nThat's all.\n`,
    code: 0,
    expect: { "greet.js": GREET.replace("Hello", "Hey") },
  },
  {
    name: "a response mixing V4A with SEARCH/REPLACE",
    files: { "greet.js": GREET, "notes.txt": "todo: one\n" },
    response: `First the notes:\n\nnotes.txt\n\`\`\`\n<<<<<<< SEARCH\ntodo: one\n=======\ntodo: two\n>>>>>>> REPLACE\n\`\`\`\n\nThen the code:\n\n*** Begin Patch\n*** Update File: greet.js\n@@\n-  return "Hello, " + name;\n+  return "Yo, " + name;\n*** End Patch\n`,
    code: 0,
    expect: { "greet.js": GREET.replace("Hello", "Yo"), "notes.txt": "todo: two\n" },
    stderr: /edit 1 \(search-replace[\s\S]*edit 2 \(v4a/,
  },
  {
    name: "--format v4a, and a refusal exits 1 writing nothing",
    files: { "greet.js": GREET },
    response: patch("*** Begin Patch", "*** Update File: greet.js", "@@", "-  return nothing;", "+  return 1;", "*** End Patch"),
    args: ["--format", "v4a"],
    code: 1,
    expect: { "greet.js": GREET },
    stderr: /NOT_FOUND[\s\S]*Chunk 1 \(patch line 3\): The chunk's old side/,
  },
];

describe("V4A on the command line", { concurrency: 4 }, () => {
  for (const c of cliCases) {
    test(c.name, async () => {
      const t = await makeTree(c.files);
      const r = await run(["apply", "-", "--root", t.root, ...(c.args ?? [])], t.base, c.response);
      assert.equal(r.code, c.code, r.stdout + r.stderr);
      for (const [rel, want] of Object.entries(c.expect)) {
        if (want === null) assert.ok(await missing(t.root, rel), `${rel} is gone`);
        else assert.equal(await read(t.root, rel), want);
      }
      if (c.stdout) assert.match(r.stdout, c.stdout);
      if (c.stderr) assert.match(r.stderr, c.stderr);
    });
  }

  test("the example V4A response applies to the example project", async () => {
    const t = await makeTree({});
    await cp(path.join(REPO, "examples", "project"), t.root, { recursive: true });
    const r = await run(["apply", path.join(REPO, "examples", "response-v4a.md"), "--root", t.root], t.base);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const math = await readFile(path.join(t.root, "src", "math.js"), "utf8");
    assert.match(math, /if \(values\.length === 0\) return 0;/);
    assert.ok(await missing(t.root, "src/config.js"), "config.js moved");
    assert.match(await read(t.root, "src/settings.js"), /retries: 5,/);
    assert.match(await read(t.root, "src/strings.js"), /export function shout/);
  });
});

// --- Codex's whitespace scenarios, as Codex's fixtures write them -------------------

const codexScenarios: { name: string; file: string; patch: string; expect: string }[] = [
  { name: "017 whitespace-padded hunk header", file: "old\n", patch: "*** Begin Patch\n  *** Update File: f.txt\n@@\n-old\n+new\n*** End Patch\n", expect: "new\n" },
  { name: "018 whitespace-padded patch markers", file: "one\n", patch: " *** Begin Patch\n*** Update File: f.txt\n@@\n-one\n+two\n*** End Patch \n", expect: "two\n" },
  { name: "020 whitespace-padded marker lines", file: "one\n", patch: "*** Begin Patch \n*** Update File: f.txt\n@@\n-one\n+two\n *** End Patch\n", expect: "two\n" },
  { name: "an Environment ID line, with CRLF in the file", file: "one\r\n", patch: "*** Begin Patch\n*** Environment ID: remote\n*** Update File: f.txt\n@@\n-one\n+two\n*** End Patch\n", expect: "two\r\n" },
];

describe("V4A: Codex scenarios through the file layer", () => {
  for (const c of codexScenarios) {
    test(c.name, async () => {
      const t = await makeTree({ "f.txt": c.file });
      const r = await applyEdits(t.root, c.patch, { format: "v4a" });
      assert.ok(r.ok, JSON.stringify(r.errors.map(String)) + JSON.stringify(r.files));
      assert.equal(await read(t.root, "f.txt"), c.expect);
    });
  }
});

// --- applyV4A: one headerless section (OpenAI's apply_patch diff) ----------------------

const CLASSES = "class A:\n    def run(self):\n        return 1\n\nclass B:\n    def run(self):\n        return 1\n";

const sectionCases: { name: string; content: string; diff: string; create?: boolean; expect: string | { code: string; message: RegExp } }[] = [
  { name: "an @@ anchor places the chunk", content: CLASSES, diff: "@@ class B:\n     def run(self):\n-        return 1\n+        return 2\n", expect: CLASSES.replace(/1\n$/, "2\n") },
  { name: "CRLF content keeps CRLF; a CRLF diff is read", content: "a\r\nb\r\n", diff: "@@\r\n a\r\n-b\r\n+c\r\n", expect: "a\r\nc\r\n" },
  { name: "a bare first chunk without @@", content: "a\nb\n", diff: " a\n-b\n+B\n", expect: "a\nB\n" },
  { name: "*** End of File pins the chunk to the end", content: "x\ny\nx\n", diff: "@@\n-x\n+z\n*** End of File\n", expect: "x\ny\nz\n" },
  { name: "leniency 8: the envelope copied into the diff is skipped", content: "a\n", diff: "*** Begin Patch\n*** Update File: f.py\n@@\n-a\n+b\n*** End Patch\n", expect: "b\n" },
  { name: "create: every line a + line", content: "", diff: "+one\n+\n+three", create: true, expect: "one\n\nthree\n" },
  { name: "create: an empty diff makes an empty file", content: "", diff: "", create: true, expect: "" },
  { name: "two places: AMBIGUOUS with both", content: CLASSES, diff: "@@\n-        return 1\n+        return 2\n", expect: { code: "AMBIGUOUS", message: /2 places[\s\S]*lines 3-3[\s\S]*lines 7-7/ } },
  { name: "an anchor that is not in the file", content: CLASSES, diff: "@@ class C:\n-x\n+y\n", expect: { code: "NOT_FOUND", message: /"@@ class C:" matches no line/ } },
  { name: "a diff with no chunks", content: "a\n", diff: "\n\n", expect: { code: "PARSE", message: /no chunks/ } },
  { name: "create: a line without +", content: "", diff: "+a\nb\n", create: true, expect: { code: "PARSE", message: /line 2: every line of a create_file diff starts with "\+"/ } },
  { name: "create over other content", content: "old\n", diff: "+new\n", create: true, expect: { code: "CONFLICT", message: /already exists/ } },
  {
    name: "one failed chunk of two: nothing applied, the failure named",
    content: "a\nb\nc\n",
    diff: "@@\n-a\n+A\n@@\n-zzz\n+Z\n",
    expect: { code: "NOT_FOUND", message: /Chunk 2 \(patch line 4\)[\s\S]*Nothing was applied/ },
  },
];

describe("applyV4A", () => {
  for (const c of sectionCases) {
    test(c.name, () => {
      const run = () => applyV4ASection(c.content, c.diff, { create: c.create === true });
      if (typeof c.expect === "string") {
        const r = run();
        assert.equal(r.content, c.expect);
        assert.ok(r.chunks.length >= 1 || c.diff === "");
        return;
      }
      const want = c.expect;
      assert.throws(run, (e: unknown) => e instanceof EditError && e.code === want.code && want.message.test(e.message));
    });
  }

  test("the report says where each chunk went and how", () => {
    const r = applyV4ASection("def f():\n    x = 1\n    return x\n", "@@ def f():\n-    x  =  1\n+    x = 2\n     return x\n");
    assert.equal(r.content, "def f():\n    x = 2\n    return x\n");
    assert.equal(r.chunks.length, 1);
    const [c] = r.chunks;
    assert.equal(c?.startLine, 2);
    assert.equal(c?.endLine, 3);
    assert.equal(c?.fuzzy, true);
  });

  test("sent again, the diff is reported already applied and changes nothing", () => {
    const diff = "@@\n a\n-b\n+B\n";
    const once = applyV4ASection("a\nb\nc\n", diff).content;
    const twice = applyV4ASection(once, diff);
    assert.equal(twice.content, once);
    assert.equal(twice.alreadyApplied?.code, "ALREADY_APPLIED");
    assert.deepEqual(twice.chunks, []);
  });

  test("not strings: INVALID_INPUT", () => {
    assert.throws(() => applyV4ASection(null as unknown as string, "@@\n-a"), /content must be a string/);
    assert.throws(() => applyV4ASection("a", 3 as unknown as string), /diff must be a string/);
  });

  test("property: arbitrary sections throw nothing but EditError, and a result keeps the content's line breaks", () => {
    const lineArb = fc.constantFrom("a", "b", "", " ", "  a", "}", "x y");
    const diffLineArb = fc.tuple(fc.constantFrom(" ", "-", "+", "@@ ", "", "*** "), lineArb).map(([p, l]) => p + l);
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 10 }), fc.array(diffLineArb, { maxLength: 8 }), fc.constantFrom("\n", "\r\n"), fc.boolean(), (file, diff, eol, create) => {
        const content = file.length === 0 ? "" : `${file.join(eol)}${eol}`;
        try {
          const r = applyV4ASection(create ? "" : content, diff.join("\n"), { create });
          if (!create && content.includes("\r\n")) assert.ok(!/[^\r]\n/.test(r.content) && !r.content.startsWith("\n"), JSON.stringify(r.content));
        } catch (error) {
          assert.ok(error instanceof EditError, String(error));
        }
      }),
      { numRuns: 500 },
    );
  });
});
