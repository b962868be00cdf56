import assert from "node:assert/strict";
import { test } from "node:test";
import { inFindWhitespace } from "../src/engine/whitespace-kind.ts";
import { applyPatch, applySearchReplace, replace } from "../src/index.ts";

const cases: { name: string; find: string[]; repl: string[]; region?: string[]; unit: string; out: string[] | undefined }[] = [
  {
    name: "tabs typed for 4 spaces, a kept line's copy shows the level",
    find: ["    x = 1", "    return x"],
    repl: ["\tx = 2", "\tif x:", "\t\tprint(x)", "\treturn x"],
    unit: "    ",
    out: ["    x = 2", "    if x:", "        print(x)", "    return x"],
  },
  {
    name: "2 spaces typed for tabs, a kept line's copy shows the width",
    find: ["\tif (a) {", "\t\tb();", "\t}"],
    repl: ["  if (a) {", "    b();", "    c();", "  }"],
    unit: "\t",
    out: ["\tif (a) {", "\t\tb();", "\t\tc();", "\t}"],
  },
  {
    name: "spaces for tabs with no copy: the first new line at the first line it rewrites",
    find: ["\t\tb();"],
    repl: ["    c();", "    d();"],
    unit: "\t",
    out: ["\t\tc();", "\t\td();"],
  },
  {
    name: "a diff's context copied exactly, new lines in spaces: placed at the next context line's level",
    find: ["\t\t\"a\",", "\t\t\"b\""],
    repl: ["\t\t\"a\",", "        \"x\",", "\t\t\"b\""],
    unit: "\t",
    out: ["\t\t\"a\",", "\t\t\"x\",", "\t\t\"b\""],
  },
  {
    name: "tabs typed for 2 spaces, the copies several levels apart: the levels between keep one unit per tab",
    find: ["        key = f(a);", "        obj = g(b);", "      }", "    }", "  });"],
    repl: ["\t\t\t\tkey = f(a);", "\t\t\t\tobj = h(b);", "\t\t\t}", "\t\t}", "\t});"],
    unit: "  ",
    out: ["        key = f(a);", "        obj = h(b);", "      }", "    }", "  });"],
  },
  {
    name: "tabs typed for spaces under a doc comment: its ` * ` lines say nothing, a tab is a level, alignment spaces stay",
    find: ["/**", " * Pulls a value.", " */", "function f(p) {", "    return p;"],
    repl: ["/**", "\t * Pulls a value twice.", "\t */", "function f(p) {", "\treturn p;"],
    unit: "    ",
    out: ["/**", "     * Pulls a value twice.", "     */", "function f(p) {", "    return p;"],
  },
  {
    name: "tabs typed for 2 spaces, levels skipped between the typed lines: one unit per tab",
    find: ["          .list()", "          .map((f) => g(f));", "      }"],
    repl: ["\t\t\t\t\t.list()", "\t\t\t\t\t.map((f) => h(f));", "\t\t\t} // done"],
    unit: "  ",
    out: ["          .list()", "          .map((f) => h(f));", "      } // done"],
  },
  {
    name: "a doc comment at column 0 typed with a tab for its alignment space: the space back",
    find: [" * @since 1.0.0", " */"],
    repl: ["\t* @since 1.0.8", "\t*/"],
    unit: "  ",
    out: [" * @since 1.0.8", " */"],
  },
  { name: "a replacement in the find text's whitespace: untouched", find: ["    x = 1"], repl: ["    x = 2", "    y = 3"], unit: "    ", out: undefined },
  { name: "a replacement mixing both kinds: untouched", find: ["    x = 1"], repl: ["\tx = 2", "    y = 3"], unit: "    ", out: undefined },
  {
    name: "a find text re-indented in the other whitespace than the file's: the merge's to read",
    find: ["  if (a) {", "    b();", "  }"],
    repl: ["\tif (a) {", "\t\tc();", "\t}"],
    region: ["\tif (a) {", "\t\tb();", "\t}"],
    unit: "\t",
    out: undefined,
  },
];
for (const c of cases) {
  test(`inFindWhitespace: ${c.name}`, () => {
    assert.deepEqual(inFindWhitespace(c.find, c.repl, c.region ?? c.find, c.unit), c.out);
    // The unit asked lazily gives the same answer, and is asked only when spaces are written for tabs.
    let asked = 0;
    const unit = () => {
      asked++;
      return c.unit;
    };
    assert.deepEqual(inFindWhitespace(c.find, c.repl, c.region ?? c.find, unit), c.out);
    assert.ok(asked <= 1);
    if (c.out === undefined) assert.equal(asked, 0);
  });
}

test("inFindWhitespace: a replacement in the find text's own whitespace never samples the file's unit", () => {
  const unit = () => assert.fail("the file's indent unit was computed");
  assert.equal(inFindWhitespace(["    x = 1"], ["    x = 2", "    y = 3"], ["    x = 1"], unit), undefined);
});

test("replace: a replacement typed with tabs in a file indented with spaces is written in spaces (the find text off by a trailing space)", () => {
  const content = "def greet(name):\n    print(name)\n    x = 1\n    return x\n";
  const r = replace(content, "    print(name) \n    x = 1", "\tprint(name)\n\tx = 2\n\ty = 3");
  assert.equal(r.content, "def greet(name):\n    print(name)\n    x = 2\n    y = 3\n    return x\n");
});

test("applySearchReplace: a REPLACE section typed with spaces in a tab-indented file is written with tabs (the SEARCH text off by a trailing space)", () => {
  const content = "function f() {\n\tif (a) {\n\t\tb();\n\t}\n}\n";
  const r = applySearchReplace(content, "<<<<<<< SEARCH\n\tif (a) { \n\t\tb();\n=======\n    if (a) {\n        b();\n        c();\n>>>>>>> REPLACE\n");
  assert.equal(r.content, "function f() {\n\tif (a) {\n\t\tb();\n\t\tc();\n\t}\n}\n");
});

test("applyPatch: a diff's added lines are taken as written, in any whitespace (a patch applies back exactly)", () => {
  const content = "function f() {\n\tif (a) {\n\t\tb();\n\t}\n}\n";
  const r = applyPatch(content, "@@ @@\n \tif (a) {\n \t\tb();\n+        c();\n \t}\n");
  assert.equal(r.content, "function f() {\n\tif (a) {\n\t\tb();\n        c();\n\t}\n}\n");
});
