/**
 * Exact means literal (issue 32). A property over real files (the real-edits
 * blobs, read at run time, and the project's own sources): a find text of
 * one of four shapes that occurs exactly once, and a replacement of one of
 * five kinds, gives the literal replacement — in replace(),
 * applySearchReplace() (whole-line shapes) and applyPatch() (a hunk made
 * from the same edit). The named exceptions are tested apart, and so are
 * the real failure classes the issue lists.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { isReplacementElision } from "../src/match/elided.ts";
import { applyPatch, applySearchReplace, replace } from "../src/index.ts";

// ---------------------------------------------------------------------------
// The corpus: real files nobody here wrote, and our own sources.

const BLOBS = join(import.meta.dirname, "../../shared/real-edits/blobs");
const SOURCES = join(import.meta.dirname, "../src");

function corpus(): string[] {
  const files: string[] = [];
  if (existsSync(BLOBS)) {
    // A fixed sample (sorted names, every 20th): the same files on every run.
    const names = readdirSync(BLOBS).sort();
    for (let k = 0; k < names.length; k += 20) {
      const path = join(BLOBS, names[k] as string);
      if (statSync(path).size < 150_000) files.push(readFileSync(path, "utf8"));
    }
  }
  for (const dir of ["engine", "match", "formats"]) {
    for (const name of readdirSync(join(SOURCES, dir)).sort()) files.push(readFileSync(join(SOURCES, dir, name), "utf8"));
  }
  return files.filter((f) => !f.includes("\r") && f.split("\n").length > 20);
}

const FILES = corpus();

type Shape = "whole-lines" | "after-indent" | "ends-inside-line" | "inside-line";
type Kind = "token-and-nested" | "nested-block" | "delete" | "repeat-following" | "nest-under-first";

interface Edit {
  content: string;
  find: string;
  repl: string;
  /** The find text as whole lines: file lines [from, to), for SEARCH/REPLACE and hunks. */
  lines?: { from: number; to: number; find: string[]; repl: string[] };
}

const indentOf = (l: string) => l.slice(0, l.length - l.trimStart().length);
const occurrences = (text: string, s: string) => {
  let n = 0;
  for (let at = text.indexOf(s); at !== -1; at = text.indexOf(s, at + 1)) n++;
  return n;
};

/** The find text of a shape over file lines [i, i + n), or undefined when the lines do not allow it. */
function findText(lines: readonly string[], i: number, n: number, shape: Shape, cut: number): string | undefined {
  const region = lines.slice(i, i + n);
  const first = region[0] ?? "";
  switch (shape) {
    case "whole-lines":
      return region.join("\n");
    case "after-indent":
      return indentOf(first) === "" ? undefined : [first.trimStart(), ...region.slice(1)].join("\n");
    case "ends-inside-line": {
      const last = region[region.length - 1] ?? "";
      const body = last.trimStart();
      if (n < 2 || body.length < 4) return undefined;
      const end = indentOf(last).length + 1 + (cut % (body.length - 2));
      return [...region.slice(0, -1), last.slice(0, end)].join("\n");
    }
    case "inside-line": {
      const body = first.trimStart();
      if (body.length < 8) return undefined;
      const from = indentOf(first).length + 1 + (cut % Math.floor(body.length / 2));
      return first.slice(from, from + 3 + (cut % (first.length - from - 2)));
    }
  }
}

/** A new line nested under `line` (one level deeper than its indentation). */
const nested = (line: string, text: string) => `${indentOf(line)}    ${text}`;

/** The replacement of a kind for a find text whose last file line is `last`, followed by `after`. */
function replacementFor(find: string, kind: Kind, lines: readonly string[], i: number, n: number): string {
  const last = lines[i + n - 1] ?? "";
  const tokened = find.replace(/\w+(?=\W*$)/, "zq_changed");
  const changed = tokened === find ? `${find}zq` : tokened;
  switch (kind) {
    case "token-and-nested":
      return `${changed}\n${nested(last, "zq_nested()")}`;
    case "nested-block":
      return `${find}\n${nested(last, "if zq_flag:")}\n${nested(last, "    zq_run()")}`;
    case "delete":
      return "";
    case "repeat-following":
      return [changed, ...lines.slice(i + n, i + n + 2)].join("\n");
    case "nest-under-first": {
      const [head, ...rest] = find.split("\n");
      return [head, ...rest.map((l) => (l.trim() === "" ? l : `    ${l}`))].join("\n");
    }
  }
}

const editArb = fc
  .record({
    file: fc.nat(),
    line: fc.nat(),
    n: fc.integer({ min: 1, max: 4 }),
    shape: fc.constantFrom<Shape>("whole-lines", "after-indent", "ends-inside-line", "inside-line"),
    kind: fc.constantFrom<Kind>("token-and-nested", "nested-block", "delete", "repeat-following", "nest-under-first"),
    cut: fc.nat(),
  })
  .map(({ file, line, n, shape, kind, cut }): Edit | undefined => {
    const content = FILES[file % FILES.length] as string;
    const lines = content.split("\n");
    const i = line % Math.max(1, lines.length - n - 3);
    const count = shape === "inside-line" ? 1 : kind === "nest-under-first" ? Math.max(2, n) : n;
    if (lines.slice(i, i + count).some((l) => l.trim() === "")) return undefined;
    const find = findText(lines, i, count, shape, cut);
    if (find === undefined || find.trim() === "" || occurrences(content, find) !== 1) return undefined;
    const repl = replacementFor(find, kind, lines, i, count);
    if (repl === find) return undefined;
    // An elision marker the find text lacks is an exception (tested apart); so is a replacement already standing.
    const quoted = new Set(find.split("\n").map((l) => l.trim()));
    if (repl.split("\n").some((l) => isReplacementElision(l) && !quoted.has(l.trim()))) return undefined;
    const whole = shape === "whole-lines" ? { from: i, to: i + count, find: lines.slice(i, i + count), repl: repl === "" ? [] : repl.split("\n") } : undefined;
    const edit = { file: file % FILES.length, find, repl, ...(whole && { lines: whole }) } as unknown as Edit;
    // The file stays out of a counterexample's printout (its index is enough to find it again).
    Object.defineProperty(edit, "content", { value: content, enumerable: false });
    return edit;
  });

/** The literal result: the replacement where the find text stood; a deletion of a whole line's text takes the line. */
function literal(e: Edit): string {
  const at = e.content.indexOf(e.find);
  let start = at;
  let end = at + e.find.length;
  if (e.repl === "") {
    const lineStart = e.content.lastIndexOf("\n", at - 1) + 1;
    const lineEnd = e.content.indexOf("\n", end);
    const endsLine = lineEnd === end || lineEnd === -1;
    if (endsLine && e.content.slice(lineStart, at).trim() === "") {
      start = lineStart;
      end = lineEnd === -1 ? end : end + 1;
    }
  }
  return e.content.slice(0, start) + e.repl + e.content.slice(end);
}

const RUNS = 400;

test("property: an exact, unique find text of any shape is replaced literally by replace()", () => {
  fc.assert(
    fc.property(editArb, (e) => {
      fc.pre(e !== undefined);
      const r = replace(e.content, e.find, e.repl);
      assert.equal(r.match.strategy, "exact");
      assert.equal(r.content, literal(e));
    }),
    { numRuns: RUNS },
  );
});

const MARKER = /^(<<<<<<<|=======|>>>>>>>)/;

test("property: an exact, unique whole-line SEARCH text is replaced literally by applySearchReplace()", () => {
  fc.assert(
    fc.property(editArb, (e) => {
      fc.pre(e?.lines !== undefined && ![...e.lines.find, ...e.lines.repl].some((l) => MARKER.test(l)));
      const w = e.lines;
      const block = `<<<<<<< SEARCH\n${e.find}\n=======\n${e.repl === "" ? "" : `${e.repl}\n`}>>>>>>> REPLACE\n`;
      const r = applySearchReplace(e.content, block);
      assert.deepEqual(r.failed, []);
      const lines = e.content.split("\n");
      assert.equal(r.content, [...lines.slice(0, w.from), ...w.repl, ...lines.slice(w.to)].join("\n"));
    }),
    { numRuns: RUNS },
  );
});

test("property: a hunk whose old side stands exactly once is applied literally by applyPatch()", () => {
  fc.assert(
    fc.property(editArb, (e) => {
      fc.pre(e?.lines !== undefined);
      const w = e.lines;
      const hunk = `@@ -${w.from + 1},${w.find.length} +${w.from + 1},${w.repl.length} @@\n${w.find.map((l) => `-${l}`).join("\n")}\n${w.repl.map((l) => `+${l}\n`).join("")}`;
      const r = applyPatch(e.content, `--- a/f\n+++ b/f\n${hunk}`);
      const lines = e.content.split("\n");
      assert.equal(r.content, [...lines.slice(0, w.from), ...w.repl, ...lines.slice(w.to)].join("\n"));
    }),
    { numRuns: RUNS },
  );
});

// ---------------------------------------------------------------------------
// The three exceptions, each named in the report.

test("exception: the whole replacement already standing at the match writes nothing (already applied)", () => {
  const content = "a = 1\nb = 2\nc = 3\n";
  const r = replace(content, "a = 1\n", "a = 1\nb = 2\n");
  assert.equal(r.content, content);
  assert.equal(r.alreadyApplied?.code, "ALREADY_APPLIED");
});

test("exception: an elision marker opening the replacement stands for the find text's head: filled from the matched text", () => {
  const content = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n";
  const r = replace(content, "    a = 1\n    b = 2\n    c = 3\n    return a", "    # ... existing code ...\n    c = 3\n    return a + 1");
  assert.equal(r.content, "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a + 1\n");
  assert.equal(r.match.exception, "elision-filled");
});

test("exception: an elision marker right before a changed line is refused (which lines it stands for is a guess)", () => {
  const content = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n";
  assert.throws(
    () => replace(content, "    a = 1\n    b = 2\n    c = 3\n    return a", "    a = 1\n    # ... existing code ...\n    return a + 1"),
    (e: unknown) => (e as { code?: string }).code === "INVALID_INPUT",
  );
});

test("exception: an elision marker whose neighbours stand once in the find text is filled, and named", () => {
  const content = "function f() {\n  a();\n  b();\n  c();\n  d();\n}\n";
  const r = replace(content, "function f() {\n  a();\n  b();\n  c();\n  d();\n}", "function f() {\n  a0();\n  a();\n  // ... existing code ...\n  d();\n}");
  assert.equal(r.content, "function f() {\n  a0();\n  a();\n  b();\n  c();\n  d();\n}\n");
  assert.equal(r.match.exception, "elision-filled");
});

test("exception: a bare `...` between two find lines it skips is filled (accuracy bench elided-replace-anchored)", () => {
  const content = "function f() {\n  a();\n  b();\n  c();\n  d();\n}\n";
  const r = replace(content, "  a();\n  b();\n  c();\n  d();", "  a0();\n  a();\n  ...\n  d();");
  assert.equal(r.content, "function f() {\n  a0();\n  a();\n  b();\n  c();\n  d();\n}\n");
  assert.equal(r.match.exception, "elision-filled");
});

test("not an exception: a bare `...` that does not sit between two find lines it skips is code, written as sent", () => {
  const content = "def f():\n    x = 1\n    return x\n";
  // A stub's body, at the end of the replacement.
  assert.equal(replace(content, "def f():\n    x = 1\n    return x", "def f():\n    ...").content, "def f():\n    ...\n");
  // Between two adjacent find lines: the model's own line.
  assert.equal(replace(content, "    x = 1\n    return x", "    x = 1\n    ...\n    return x").content, "def f():\n    x = 1\n    ...\n    return x\n");
});

test("exception: an elision marker that cannot be placed is refused, never written", () => {
  const content = "function f() {\n  a();\n  b();\n  a();\n  d();\n}\n";
  assert.throws(
    () => replace(content, "  a();\n  b();\n  a();\n  d();", "  a();\n  // ... existing code ...\n  e();"),
    (e: unknown) => (e as { code?: string }).code === "INVALID_INPUT",
  );
});

test("exception: a replacement shifted as a whole by one indentation is un-shifted, and named", () => {
  const content = "class A:\n    def m(self):\n        x = 1\n        return x\n";
  const r = replace(content, "        x = 1\n        return x", "            x = 2\n            y = 3\n            return x");
  assert.equal(r.content, "class A:\n    def m(self):\n        x = 2\n        y = 3\n        return x\n");
  assert.equal(r.match.exception, "shift-undone");
});

test("exception: a deletion whose kept lines are shifted as a whole is un-shifted (accuracy bench reindent-whole)", () => {
  const content = "function f(mod) {\n    if (mod) return mod;\n    var result = {};\n    init(result);\n    return result;\n}\n";
  const r = replace(content, "    if (mod) return mod;\n    var result = {};\n    init(result);", "        if (mod) return mod;\n        init(result);");
  assert.equal(r.content, "function f(mod) {\n    if (mod) return mod;\n    init(result);\n    return result;\n}\n");
  assert.equal(r.match.exception, "shift-undone");
});

test("not an exception: a replacement that only indents its find text deeper is the edit", () => {
  const content = "def f():\n    x = 1\n    return x\n";
  const r = replace(content, "    x = 1\n    return x", "        x = 1\n        return x");
  assert.equal(r.content, "def f():\n        x = 1\n        return x\n");
  assert.equal(r.match.exception, undefined);
  // With a blank line added (engine-properties counterexample): still only indentation.
  assert.equal(replace("'", "'", "\n '").content, "\n '");
});

test("not an exception: a replacement that keeps its first line and nests the rest deeper is written as sent", () => {
  const content = "def f():\n    with lock:\n    x = 1\n    return x\n";
  const r = replace(content, "    with lock:\n    x = 1", "    with lock:\n        x = 1");
  assert.equal(r.content, "def f():\n    with lock:\n        x = 1\n    return x\n");
  assert.equal(r.match.exception, undefined);
});

test("not an exception: a shifted replacement with a new line opening a block is written as sent", () => {
  const content = "def f():\n    x = 1\n    return x\n";
  const r = replace(content, "    x = 1\n    return x", "        if c:\n            x = 2\n        return x");
  assert.equal(r.content, "def f():\n        if c:\n            x = 2\n        return x\n");
});

// ---------------------------------------------------------------------------
// The real failure classes of issue 32, one case each.

const block = (search: string, rep: string) => `<<<<<<< SEARCH\n${search}\n=======\n${rep}\n>>>>>>> REPLACE\n`;

test("real class: a find text starting after its line's indentation keeps the replacement's nesting", () => {
  const content = "class W:\n    def write(self, lines):\n        lines = super().write(lines)\n        return lines\n";
  const find = "def write(self, lines):\n        lines = super().write(lines)";
  const repl = "def write(self, lines):\n        lines = super().write(lines)\n        if lines:\n            lines = [l.rstrip() for l in lines]";
  assert.equal(replace(content, find, repl).content, content.replace(find, repl));
});

test("real class: a replacement ending with the lines that follow the match writes them twice, with a warning", () => {
  const content = "a = 1\nif a:\n    b()\nelse:\n    c()\n";
  const r = replace(content, "a = 1\nif a:\n    b()\n", "a = 2\nif a:\n    b()\nelse:\n    c()\n");
  assert.equal(r.content, "a = 2\nif a:\n    b()\nelse:\n    c()\nelse:\n    c()\n");
  assert.match(r.match.warnings?.[0] ?? "", /now stand twice/);
  const s = applySearchReplace(content, block("a = 1\nif a:\n    b()", "a = 2\nif a:\n    b()\nelse:\n    c()"));
  assert.equal(s.content, "a = 2\nif a:\n    b()\nelse:\n    c()\nelse:\n    c()\n");
  assert.match(s.applied[0]?.warnings?.[0] ?? "", /now stand twice/);
});

test("real class: a whole-line SEARCH line is never matched as the start of a longer line", () => {
  const content = "from compat import (\n    StringIO, unicode,\n)\n";
  const r = applySearchReplace(content, block("    StringIO,", "    StringIO"));
  assert.equal(r.content, content);
  assert.equal(r.failed[0]?.code, "NOT_FOUND");
});

test("real class: deleting a line's text matched after its indentation deletes the line", () => {
  const content = "def f():\n    x = 1\n    y = 2\n";
  assert.equal(replace(content, "x = 1", "").content, "def f():\n    y = 2\n");
  assert.equal(replace(content, "x = 1\n", "").content, "def f():\n    y = 2\n");
});

test("real class: an exact deletion of a function deletes exactly its text", () => {
  const content = "def a():\n    pass\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n";
  assert.equal(replace(content, "def b():\n    pass\n\n\n", "").content, "def a():\n    pass\n\n\ndef c():\n    pass\n");
  assert.equal(replace(content, "\n\ndef b():\n    pass\n", "").content, "def a():\n    pass\n\n\ndef c():\n    pass\n");
});

test("real class: a \\r\\r\\n file is matched exactly, and only the edited line changes", () => {
  const content = "a = 1\r\r\n    \r\r\nb = 2\r\r\nc = 3\r\r\n";
  const r = replace(content, "b = 2\r\r\nc = 3", "b = 20\r\r\nc = 3");
  assert.equal(r.match.strategy, "exact");
  assert.equal(r.content, "a = 1\r\r\n    \r\r\nb = 20\r\r\nc = 3\r\r\n");
});

test("real class: a trailing-whitespace-only edit on a file already without the space is already applied", () => {
  const content = "x = 1\ny = 2\n";
  const r = applySearchReplace(content, block("x = 1 ", "x = 1"));
  assert.equal(r.content, content);
  assert.deepEqual(r.failed, []);
  assert.equal(r.alreadyApplied[0]?.code, "ALREADY_APPLIED");
});
