/**
 * Issue 10's numbered cases: edits a careful human gets right and the splice
 * must too, once it is a three-way merge (base = the model's find text as
 * written, ours = the file's matched region, theirs = the model's
 * replacement). Each case runs through every format it applies to —
 * `replace`, `applySearchReplace`, `applyPatch` — and cases 1, 3, 4 and 5 also
 * through the CLI (`fuzzpatch apply`, as a SEARCH/REPLACE block), with
 * the README's example response. The expected output is written out in full: what a careful
 * human writes, never what the engine happens to produce.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { applyPatch, applySearchReplace, EditError, replace } from "../src/index.ts";
import { cliCommand } from "./helpers/cli-run.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
// The CLI from source through tsx (the built bin is checked by test/pack/pack-install.ts).
/** The CLI from its sources, bundled once (helpers/cli-run.ts: a spawn through tsx costs four times the CPU). */
const [NODE, ...CLI] = cliCommand() as [string, ...string[]];

/** What a careful human does: writes exactly this, refuses with a code, or either of the two. */
type Expect =
  | { content: string }
  | { code: "NOT_FOUND" }
  /** The edit (with the elided lines written back), or an EditError whose message asks for the replacement in full. */
  | { content: string; orRefusalAsking: RegExp };

interface MergeCase {
  name: string;
  file: string;
  content: string;
  /** The str_replace pair, also the SEARCH/REPLACE block's two sides. */
  find?: string;
  replacement?: string;
  /** The same edit as a diff body (a hunk under `--- a/FILE` / `+++ b/FILE`). */
  hunk?: string;
  expect: Expect;
}

/** One outcome: the new content, or the EditError. Anything else thrown fails the test. */
type Outcome = { content: string } | { error: EditError };

function attempt(fn: () => string): Outcome {
  try {
    return { content: fn() };
  } catch (error) {
    assert.ok(error instanceof EditError, `expected an EditError, got ${String(error)}`);
    return { error };
  }
}

function block(find: string, replacement: string): string {
  return `<<<<<<< SEARCH\n${find}\n=======\n${replacement}\n>>>>>>> REPLACE\n`;
}

function patch(file: string, hunk: string): string {
  return `--- a/${file}\n+++ b/${file}\n${hunk}`;
}

function check(outcome: Outcome, expect: Expect, where: string): void {
  if ("code" in expect) {
    assert.ok("error" in outcome, `${where}: must be refused, but wrote:\n${"content" in outcome ? outcome.content : ""}`);
    assert.equal(outcome.error.code, expect.code, `${where}: ${outcome.error.message}`);
    return;
  }
  if ("error" in outcome) {
    if ("orRefusalAsking" in expect) {
      assert.match(outcome.error.message, expect.orRefusalAsking, `${where}: a refusal must ask for the replacement in full`);
      return;
    }
    assert.fail(`${where}: refused (${outcome.error.code}) an edit a careful human applies:\n${outcome.error.message}`);
  }
  assert.equal(outcome.content, expect.content, `${where}: wrong output`);
}

// Case 1: a Python file indented 4; SEARCH shifted to 8, REPLACE already at 4.
const cart = [
  "def total(items):",
  "    result = 0",
  "    for item in items:",
  "        result += item.price",
  "    return result",
  "",
].join("\n");
const cartAfter = [
  "def total(items):",
  "    result = 0",
  "    for item in items:",
  "        result += item.price * item.quantity",
  "    return round(result, 2)",
  "",
].join("\n");

// Case 2: file base 4, step 4. The model keeps the class line at 0 but writes its
// members at 2 and nests by its own step of 4 (6, 10): its levels are 0, 2, 6, 10.
const queue = [
  "class Queue {",
  "    push(item) {",
  "        if (item == null) {",
  "            return;",
  "        }",
  "        this.items.push(item);",
  "    }",
  "}",
  "",
].join("\n");
const queueAfter = [
  "class Queue {",
  "    size() {",
  "        return this.items.length;",
  "    }",
  "    push(item) {",
  "        if (item == null) {",
  '            throw new TypeError("item is required");',
  "        }",
  "        this.items.push(item);",
  "    }",
  "}",
  "",
].join("\n");

// Case 3: the blank line after the import is missing from the find text, kept in the replacement.
const run = ['import { a } from "./a.js";', "", "export function run() {", "  return a();", "}", ""].join("\n");
const runAfter = ['import { a } from "./a.js";', "", "export function run() {", "  return a() + 1;", "}", ""].join("\n");

// Case 4: the whole function quoted; the replacement adds a line and elides the rest.
const steps = ["function f() {", "  step1();", "  step2();", "  step3();", "}", ""].join("\n");
const stepsAfter = ["function f() {", "  step0();", "  step1();", "  step2();", "  step3();", "}", ""].join("\n");
const ASKS_FOR_FULL = /in full|complete|entire|whole|every line/i;

// Case 5: curly quotes copied into the find text; typographic characters typed inside the new literal.
const title = ["// Page header.", 'const title = "Welcome";', "export default title;", ""].join("\n");
const titleAfter = ["// Page header.", 'const title = "Welcome \u2014 it\u2019s \u201cgreat\u201d";', "export default title;", ""].join("\n");

// Case 6: the part before the marker also occurs, deeper, inside the span the marker stands for.
// Case 8: a doc comment repeated one level deeper with its opening line still at column 0.
const flags = [
  "/**",
  "Check for A.",
  "*/",
  "export const isA: boolean;",
  "",
  "/**",
  "  Check for A.",
  "  */",
  "  export const isA: boolean;",
  "",
  "Check for B.",
  "*/",
  "export const isB: boolean;",
  "",
].join("\n");
const flagsAfter = flags.replace("*/\nexport const isA: boolean;\n\n/**", "*/\n/**");

// Case 9: Markdown at column 0; the model's context four spaces deeper, its new line at two.
const readme = ["Console output:", "", "```", "Matched one", "```", ""].join("\n");
const readmeAfter = ["Console output:", "", "  A note on the output.", "```", "Matched one", "```", ""].join("\n");

const setup = [
  "function setup() {",
  "  if (ready) {",
  "    load();",
  "    if (ready) {",
  "      init();",
  "    }",
  "    if (ready) {",
  "      start();",
  "    }",
  "  }",
  "  finish();",
  "}",
  "",
].join("\n");
const setupAfter = setup.replace("  if (ready) {\n    load();", "  if (ready && !stopped) {\n    load();");

// Case 7: removed lines that exist nowhere in the file.
const parseArgs = [
  "export function parseArgs(argv) {",
  "  const options = {};",
  "",
  "  for (const arg of argv) {",
  '    if (arg.startsWith("--")) {',
  "      options[arg.slice(2)] = true;",
  "    }",
  "  }",
  "",
  "  validate(options);",
  "  return options;",
  "}",
  "",
].join("\n");
const parseArgsOld = parseArgs.trimEnd().split("\n");
/** The function as the model quotes it: a comment line the file never had where it has a blank line. */
const parseArgsQuoted = [...parseArgsOld.slice(0, 8), "  // options are checked below, once", ...parseArgsOld.slice(9)];
const docs = [
  "  saveState(): void;",
  "",
  "  /**",
  "   * Restore state before parse for calls after the first.",
  "   * Not usually called directly.",
  "   */",
  "  restoreState(): void;",
  "",
  "  /**",
  "   * Parse options from argv.",
  "   */",
  "  parseOptions(argv: string[]): void;",
  "",
].join("\n");

// Case 12: context lines in the middle that the file does not have, long real lines around them
// (a similarity match over the whole hunk still passes): the model edits code that is not there.
const iov = [
  "function main() {",
  "  store(0, 8); // iov.iov_base: this is a pointer to the start of the 'hello world' string in linear memory",
  "  store(4, 12); // iov.iov_len: the length of the 'hello world' string, in bytes, without the trailing newline",
  "",
  "  fdWrite(",
  "    1, // file_descriptor: 1 for stdout",
  "    0, // iovs: the pointer to the iov array, which is stored at memory location 0",
  "    1, // iovs_len: we're printing 1 string stored in an iov, so one",
  "    20, // nwritten: a place in memory to store the number of bytes written",
  "  );",
  "}",
  "",
].join("\n");
/** The function as the model quotes it: three lines of its own where the file has a blank line, `fdWrite(` and its first argument. */
const iovQuoted = [
  ...iov.split("\n").slice(0, 3),
  "  broltska.moult(drumeltmai);",
  "  if (kiltni.furmix) return diquundoult;",
  "  skinvukam.bombrusk(bretrar);",
  ...iov.split("\n").slice(6, 10),
];
const iovNew = [...iovQuoted.slice(0, 3), "  vaix.plinquar();", ...iovQuoted.slice(3)];

// Case 13: a block opener with nothing in it yet; the model's context shifted one level deeper, its new line in the file's frame.
const ready = ["function setup() {", "  const ready = check();", "  if (ready) {", "  }", "  return ready;", "}", ""].join("\n");
const readyAfter = ready.replace("  if (ready) {\n", "  if (ready) {\n    start();\n");
const browser = ["/**", " * Order of preference:", " *", " * For Browser:", " *", " * 1. window.Promise", " */", ""].join("\n");
const browserAfter = browser.replace(" * For Browser:\n", " * For Browser:\n   const order = preference(1);\n");

// Case 14: context shifted deeper, a blank line and the lines after it rewritten as one line in the file's indentation.
const comparator = ["class Comparator {", "  debug() {", "    log(this)", "  }", "", "  parse (comp) {", "    const r = re()", "  }", "}", ""].join("\n");
const comparatorAfter = comparator.replace("\n\n  parse (comp) {\n", "\n  let value = 1;\n");
const colors = ["export interface ColorSupport {", "\thas256: boolean;", "", "\t/**", "\tTruecolor.", "\t*/", "\thas16m: boolean;", "}", ""].join("\n");
const colorsAfter = colors.replace("\n\n\t/**\n\tTruecolor.\n", "\n\t// a note\n");

const cases: MergeCase[] = [
  {
    name: "1. SEARCH mis-indented (8), REPLACE already right (4): written at 4",
    file: "cart.py",
    content: cart,
    find: "        result = 0\n        for item in items:\n            result += item.price\n        return result",
    replacement: "    result = 0\n    for item in items:\n        result += item.price * item.quantity\n    return round(result, 2)",
    hunk: "@@ @@\n         result = 0\n         for item in items:\n-            result += item.price\n-        return result\n+        result += item.price * item.quantity\n+    return round(result, 2)\n",
    expect: { content: cartAfter },
  },
  {
    name: "2. model levels 0, 2, 6, 10 on a file of step 4: added lines at the file's levels 4, 8, 12",
    file: "queue.js",
    content: queue,
    find: "class Queue {\n  push(item) {\n      if (item == null) {\n          return;\n      }",
    replacement:
      'class Queue {\n  size() {\n      return this.items.length;\n  }\n  push(item) {\n      if (item == null) {\n          throw new TypeError("item is required");\n      }',
    hunk: '@@ @@\n class Queue {\n+  size() {\n+      return this.items.length;\n+  }\n   push(item) {\n       if (item == null) {\n-          return;\n+          throw new TypeError("item is required");\n       }\n',
    expect: { content: queueAfter },
  },
  {
    name: "3. a blank line forgotten in the find text, kept in the replacement: one blank line, not two",
    file: "run.js",
    content: run,
    find: 'import { a } from "./a.js";\nexport function run() {\n  return a();',
    replacement: 'import { a } from "./a.js";\n\nexport function run() {\n  return a() + 1;',
    hunk: '@@ @@\n import { a } from "./a.js";\n+\n export function run() {\n-  return a();\n+  return a() + 1;\n }\n',
    expect: { content: runAfter },
  },
  {
    name: "4. elision marker in the replacement only: the elided lines kept (or a refusal asking for it in full)",
    file: "steps.js",
    content: steps,
    find: "function f() {\n  step1();\n  step2();\n  step3();\n}",
    replacement: "function f() {\n  step0();\n  // ... existing code ...\n}",
    hunk: "@@ @@\n-function f() {\n-  step1();\n-  step2();\n-  step3();\n-}\n+function f() {\n+  step0();\n+  // ... existing code ...\n+}\n",
    expect: { content: stepsAfter, orRefusalAsking: ASKS_FOR_FULL },
  },
  {
    name: "5. curly quotes copied from the find text take the file's; typed ones inside the new literal stay",
    file: "title.js",
    content: title,
    find: "const title = \u201cWelcome\u201d;",
    replacement: 'const title = "Welcome \u2014 it\u2019s \u201cgreat\u201d";',
    hunk: '@@ @@\n // Page header.\n-const title = \u201cWelcome\u201d;\n+const title = "Welcome \u2014 it\u2019s \u201cgreat\u201d";\n export default title;\n',
    expect: { content: titleAfter },
  },
  {
    name: "6. elided find text whose first line repeats, deeper, inside the elided span: the exact place",
    file: "setup.js",
    content: setup,
    find: "  if (ready) {\n  // ... existing code ...\n  }\n  finish();",
    replacement: "  if (ready && !stopped) {\n  // ... existing code ...\n  }\n  finish();",
    hunk: "@@ @@\n-  if (ready) {\n+  if (ready && !stopped) {\n   // ... existing code ...\n   }\n   finish();\n",
    expect: { content: setupAfter },
  },
  {
    name: "7. a removed line that exists nowhere, where the file has a blank line: NOT_FOUND",
    file: "args.js",
    content: parseArgs,
    find: parseArgsQuoted.join("\n"),
    replacement: parseArgsQuoted.filter((_, i) => i !== 8).join("\n"),
    hunk: `@@ @@\n${parseArgsQuoted.map((l, i) => (i === 8 ? `-${l}` : ` ${l}`)).join("\n")}\n`,
    expect: { code: "NOT_FOUND" },
  },
  {
    name: "7. a removed line that exists nowhere, in place of a real line, full context: NOT_FOUND",
    file: "docs.d.ts",
    content: docs,
    find: "  /**\n   * Restore state before parse for calls after the first.\n   * Not usually called directly.\n   */\n  let drapoux = \"zaimpembrex feba\";",
    replacement: "  /**\n   * Restore state before parse for calls after the first.\n   * Not usually called directly.\n   */\n  restoreStateNext(): void;",
    hunk: '@@ @@\n \n   /**\n    * Restore state before parse for calls after the first.\n    * Not usually called directly.\n    */\n-  let drapoux = "zaimpembrex feba";\n+  restoreStateNext(): void;\n \n   /**\n',
    expect: { code: "NOT_FOUND" },
  },
  {
    name: "8. elided find text whose first part repeats deeper, the copy's first line at the same column: the exact place",
    file: "index.d.ts",
    content: flags,
    find: "/**\nCheck for A.\n*/\nexport const isA: boolean;\n\n// ... existing code ...\nexport const isB: boolean;",
    replacement: "/**\nCheck for A.\n*/\n// ... existing code ...\nexport const isB: boolean;",
    hunk: "@@ @@\n /**\n Check for A.\n */\n-export const isA: boolean;\n-\n // ... existing code ...\n export const isB: boolean;\n",
    expect: { content: flagsAfter },
  },
  {
    name: "9. a diff whose context was shifted deeper adds lines shallower than the shift: the file's indentation",
    file: "README.md",
    content: readme,
    hunk: "@@ @@\n     Console output:\n \n+  A note on the output.\n     ```\n     Matched one\n",
    expect: { content: readmeAfter },
  },
  {
    name: "10. an elision marker followed by a changed line: the elided lines kept, or a refusal asking for it in full",
    file: "f.js",
    content: ["function f() {", "  a();", "  b();", "  c();", "  d();", "}", ""].join("\n"),
    find: "  a();\n  b();\n  c();\n  d();",
    replacement: "  a();\n  // ...\n  x();",
    hunk: "@@ @@\n-  a();\n-  b();\n-  c();\n-  d();\n+  a();\n+  // ...\n+  x();\n",
    expect: { content: ["function f() {", "  a();", "  b();", "  c();", "  x();", "}", ""].join("\n"), orRefusalAsking: ASKS_FOR_FULL },
  },
  {
    name: "10. the same with x() like b(): never the marker written, never b() and c() lost",
    file: "f.js",
    content: ["function f() {", "  a();", "  b();", "  c();", "}", ""].join("\n"),
    find: "  a();\n  b();\n  c();",
    replacement: "  a();\n  // ...\n  x();",
    hunk: "@@ @@\n-  a();\n-  b();\n-  c();\n+  a();\n+  // ...\n+  x();\n",
    expect: { content: ["function f() {", "  a();", "  b();", "  x();", "}", ""].join("\n"), orRefusalAsking: ASKS_FOR_FULL },
  },
  {
    name: "11. curly quotes typed in a new literal next to a copied one: the copied quote takes the file's, the typed ones stay",
    file: "tone.js",
    content: "skinTone('\u{1F984}', 'dark');\n",
    find: "skinTone(\u2018\u{1F984}\u2019, \u2018dark\u2019);",
    replacement: "skinTone('new\u2019s \u2018typed\u2019 \u{1F984}', 'darkList');",
    hunk: "@@ @@\n-skinTone(\u2018\u{1F984}\u2019, \u2018dark\u2019);\n+skinTone('new\u2019s \u2018typed\u2019 \u{1F984}', 'darkList');\n",
    expect: { content: "skinTone('new\u2019s \u2018typed\u2019 \u{1F984}', 'darkList');\n" },
  },
  {
    name: "12. three quoted lines in the middle that the file does not have, long real lines around them: NOT_FOUND",
    file: "main.js",
    content: iov,
    find: iovQuoted.join("\n"),
    replacement: iovNew.join("\n"),
    hunk: `@@ @@\n${iovNew.map((l, i) => (i === 3 ? `+${l}` : ` ${l}`)).join("\n")}\n`,
    expect: { code: "NOT_FOUND" },
  },
  {
    name: "13. a line inserted into an empty block, context shifted a level deeper: one level inside the block, in the file's frame",
    file: "setup.js",
    content: ready,
    find: "    if (ready) {\n    }",
    replacement: "  if (ready) {\n    start();\n  }",
    hunk: "@@ @@\n     const ready = check();\n     if (ready) {\n+    start();\n     }\n     return ready;\n",
    expect: { content: readyAfter },
  },
  {
    name: "13. the same with the new line shifted alike (the whole edit a level deeper): one level inside the block",
    file: "setup.js",
    content: ready,
    find: "    if (ready) {\n    }",
    replacement: "    if (ready) {\n      start();\n    }",
    hunk: "@@ @@\n     const ready = check();\n     if (ready) {\n+      start();\n     }\n     return ready;\n",
    expect: { content: readyAfter },
  },
  {
    name: "13. the same after a doc comment's `For Browser:`: the new line stays at the file's column 3",
    file: "loader.js",
    content: browser,
    find: "   * For Browser:\n   *",
    replacement: " * For Browser:\n   const order = preference(1);\n *",
    hunk: "@@ @@\n    * Order of preference:\n    *\n    * For Browser:\n+   const order = preference(1);\n    *\n    * 1. window.Promise\n",
    expect: { content: browserAfter },
  },
  {
    name: "14. common indentation dropped, a blank line and a line rewritten as one in the file's indentation: written there",
    file: "comparator.js",
    content: comparator,
    hunk: "@@ @@\n   log(this)\n }\n-\n-parse (comp) {\n+  let value = 1;\n   const r = re()\n }\n",
    expect: { content: comparatorAfter },
  },
  {
    name: "14. the same with tabs: context two tabs deeper, the new line at the file's one tab",
    file: "colors.d.ts",
    content: colors,
    hunk: "@@ @@\n \t\t\thas256: boolean;\n-\n-\t\t\t/**\n-\t\t\tTruecolor.\n+\t// a note\n \t\t\t*/\n \t\t\thas16m: boolean;\n",
    expect: { content: colorsAfter },
  },
];

/** The issue's own call for case 5, verbatim. */
test("5. replace() as the issue writes it keeps the typed characters", () => {
  const outcome = attempt(() => replace('const title = "Welcome";', "const title = \u201cWelcome\u201d;", 'const title = "Welcome \u2014 it\u2019s \u201cgreat\u201d";').content);
  check(outcome, { content: 'const title = "Welcome \u2014 it\u2019s \u201cgreat\u201d";' }, "replace");
});

for (const c of cases) {
  if (c.find !== undefined && c.replacement !== undefined) {
    const { find, replacement } = c;
    test(`replace: ${c.name}`, () => {
      check(
        attempt(() => replace(c.content, find, replacement).content),
        c.expect,
        "replace",
      );
    });
    test(`applySearchReplace: ${c.name}`, () => {
      const outcome = attempt(() => {
        const result = applySearchReplace(c.content, block(find, replacement));
        const failed = result.failed[0];
        if (failed !== undefined) throw failed;
        return result.content;
      });
      check(outcome, c.expect, "applySearchReplace");
    });
  }
  if (c.hunk !== undefined) {
    const hunk = c.hunk;
    test(`applyPatch: ${c.name}`, () => {
      check(
        attempt(() => applyPatch(c.content, patch(c.file, hunk)).content),
        c.expect,
        "applyPatch",
      );
    });
  }
}

/**
 * Counterexamples noise-property.test.ts found at 8× and 32× its runs
 * (seeds 1009, 1-6, 10 and 13), kept here as fixed examples (that file runs
 * with test:slow). In the first four the replacement is in the file's
 * indentation while the find text is not, and one line lands on the find
 * text's outermost level by chance: a kept line at the file's level, or a new
 * line at the level of the file line it replaces. The frame was read as the
 * find text's, and the new lines were shifted. In the fifth the file has no
 * indented line, so the find text's spaces are the model's own: the typed tab
 * was rewritten in them. The last is of the first kind, written by hand (its
 * body was written at column 0).
 */
const FRAME_EXAMPLES: { name: string; content: string; find: string; replacement: string; expected: string }[] = [
  {
    name: "find text shifted deeper, the kept first line at the file's level",
    content: '  const v0 = "s0";\n\n\n\nconst v4 = "s4";\n\n\n\n\n',
    find: '    const v0 = "s0";\n\n\n\n  const v4 = "s4";',
    replacement: '  const v0 = "s0";\n\n\n  const v1000 = "s1000";',
    expected: '  const v0 = "s0";\n\n\n  const v1000 = "s1000";\n\n\n\n\n',
  },
  {
    name: "common indentation dropped, a new line at the level of the file line it replaces",
    content: '\n\n\n\n  return v4 - 4;\n    const v5 = "s5";\n\n\n',
    find: 'return v4 - 4;\n  const v5 = "s5";',
    replacement: '  const v1000 = "s1000";\n    const v5 = "s5";',
    expected: '\n\n\n\n  const v1000 = "s1000";\n    const v5 = "s5";\n\n\n',
  },
  {
    name: "common indentation dropped, a new opener at the level of the file line it replaces",
    content: '\n\n  const v2 = "s2";\n\n    const v4 = "s4";\n\n\n\n\n\n\n',
    find: 'const v2 = "s2";\n\n  const v4 = "s4";',
    replacement: '  if (v1000 > 1000) {\n\n    const v4 = "s4";',
    expected: '\n\n  if (v1000 > 1000) {\n\n    const v4 = "s4";\n\n\n\n\n\n\n',
  },
  {
    name: "common indentation dropped, a kept line inside a block the replacement opens at the file's level",
    content: "\n\n  const v9 = \"s9\";\n    call(v10, 'k10');\n    const v11 = \"s11\";\n\n\n",
    find: "const v9 = \"s9\";\n  call(v10, 'k10');\n  const v11 = \"s11\";",
    replacement: "  call(v1000, 'k1000');\n  if (v1001 > 1001) {\n    const v11 = \"s11\";",
    expected: "\n\n  call(v1000, 'k1000');\n  if (v1001 > 1001) {\n    const v11 = \"s11\";\n\n\n",
  },
  {
    name: "find text shifted deeper in a file with no indented line: the replacement's typed tab is kept",
    content: '\nconst v1 = "s1";\n\n\n\n\nconst v6 = "s6";\n\n',
    find: '  const v1 = "s1";\n\n\n\n\n  const v6 = "s6";',
    replacement: 'const v1 = "s1";\n\n\tconst v1000 = "s1000";\n\n\n\nconst v6 = "s6";',
    expected: '\nconst v1 = "s1";\n\n\tconst v1000 = "s1000";\n\n\n\nconst v6 = "s6";\n\n',
  },
  {
    name: "an `if` removed around its body, the find text shifted deeper: the body at the file's level it was written at",
    content: "def f():\n    if x:\n        foo()\n    bar()\n",
    find: "        if x:\n            foo()",
    replacement: "    foo()",
    expected: "def f():\n    foo()\n    bar()\n",
  },
];

for (const e of FRAME_EXAMPLES) {
  test(`fixed example: ${e.name}`, () => {
    assert.equal(replace(e.content, e.find, e.replacement).content, e.expected, "replace");
    const result = applySearchReplace(e.content, `<<<<<<< SEARCH\n${e.find}\n=======\n${e.replacement}\n>>>>>>> REPLACE\n`);
    assert.equal(result.failed.length, 0, "applySearchReplace refused");
    assert.equal(result.content, e.expected, "applySearchReplace");
  });
}

// --- the CLI ------------------------------------------------------------------

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, input = ""): CliRun {
  const r = spawnSync(NODE, [...CLI, ...args], { cwd, input, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A model's response holding the case as a SEARCH/REPLACE block after the file's name. */
function response(c: MergeCase): string {
  return `Here is the change.\n\n${c.file}\n\`\`\`\n${block(c.find ?? "", c.replacement ?? "")}\`\`\`\n`;
}

const cliCases = cases.filter((c) => /^[1345]\. /.test(c.name));

// One process per case (each costs ~0.5 s on 2 cores): the block form; the library tests cover diffs.
for (const c of cliCases) {
  test(`CLI apply: ${c.name}`, async () => {
    const t = await makeTree({ [c.file]: c.content });
    const r = cli(["apply", "-", "--root", t.root], t.base, response(c));
    const written = await readFile(path.join(t.root, c.file), "utf8");
    const where = `exit ${r.code}\n${r.stdout}${r.stderr}`;
    if ("code" in c.expect) {
      assert.equal(r.code, 1, where);
      assert.equal(written, c.content, "nothing written");
      return;
    }
    if (r.code === 1 && "orRefusalAsking" in c.expect) {
      assert.equal(written, c.content, "nothing written");
      assert.match(r.stdout + r.stderr, c.expect.orRefusalAsking, where);
      return;
    }
    assert.equal(r.code, 0, where);
    assert.equal(written, c.expect.content, where);
  });
}

test("CLI apply: the README's example response writes greet() at the file's 2-space indentation", async () => {
  const t = await makeTree({});
  await cp(path.join(REPO, "examples", "project"), t.root, { recursive: true });
  const r = cli(["apply", path.join(REPO, "examples", "response.md"), "--root", t.root], t.base);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const greet = await readFile(path.join(t.root, "src", "greet.js"), "utf8");
  assert.equal(
    greet,
    [
      "// Greets people by name.",
      'export function greet(name, greeting = "Hello") {',
      `  return \`\${greeting}, \${name}!\`;`,
      "}",
      "",
      "export function farewell(name) {",
      '  return "Goodbye, " + name + ".";',
      "}",
      "",
    ].join("\n"),
  );
});
