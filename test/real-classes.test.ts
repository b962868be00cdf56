/**
 * The classes of mistakes real models made (bench:real, issue "Right on the
 * edits real models write"), one case each through the library and the CLI:
 * whole-line matches, nesting kept, one-sided shifts, a misremembered token
 * on a rewritten line, and the peers' habits (padded V4A markers, a path in
 * its own fence, an indented hint, two equal places under a V4A anchor).
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyPatch, applySearchReplace, replace } from "../src/index.ts";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const block = (search: string, rep: string) => `<<<<<<< SEARCH\n${search}\n=======\n${rep}\n>>>>>>> REPLACE\n`;

interface LibCase {
  name: string;
  run: () => string;
  /** The content written, or an EditError code for a refusal. */
  want: string;
}

const PY = "def f(x):\n    if x:\n        if y:\n                s = repr(x)\n                t = 1\n    return s\n";
const GUARD = "def g():\n    data = fetch()\n    resp.raw.read(10)\n    return data\n";
const SIG = "        try:\n            signature = inspect.signature(func, aliases=self.aliases)\n            if signature.return_annotation is not Parameter.empty:\n                self.add_line(stringify(signature.return_annotation))\n";
const ORTHO = "def f(expr):\n    scale = total(expr)\n    \n    # orthogonal?\n    if any(p != 1 for p in depmat):\n        return expr\n    return scale * Mul(1 / total(u))\n";
const ORTHO_NEW = "    # orthogonal?\n    if any(p != 1 for p in depmat):\n        raise ValueError(depmat)\n    return scale * Mul(1 / total(u))\n";
// Union's constructor, then Intersection's as the model had edited it since it read it (the find text).
const ctor = (rule: string, body: string) =>
  `    def __new__(cls, *args, **kwargs):\n        evaluate = kwargs.get('evaluate', True)\n\n        # flatten inputs to merge iterables\n        args = _sympify(args)\n\n${body.replace("RULE", rule)}`;
const REDUCE = "        # Reduce sets using known rules\n        if evaluate:\n            args = list(cls._new_args_filter(args))\n            return RULE(args)\n\n        args = list(ordered(args, Set._infimum_key))\n\n        obj = Basic.__new__(cls, *args)\n        obj._argset = frozenset(args)\n        return obj\n";
const EDITED = "        # Drop duplicates\n        args = list(dict.fromkeys(args))\n\n        # Reduce sets using known rules\n        obj = Basic.__new__(cls, *args)\n        obj._argset = frozenset(args)\n        if evaluate:\n            args = list(cls._new_args_filter(obj._argset))\n            return RULE(args)\n        return obj\n";
const SETS = `class Union(Set):\n${ctor("simplify_union", REDUCE)}\n\nclass Intersection(Set):\n${ctor("simplify_intersection", EDITED)}`;
const SETS_FIND = ctor("simplify_intersection", REDUCE);
// Six functions alike but for their names, the fifth rewritten since the model read it.
const FUNCS = ["one", "two", "three", "four", "five", "six"]
  .map((n) => (n === "five" ? "function five(a, b) {\n  return a + b;\n}\n" : `function ${n}(a, b) {\n  const x = a;\n  const y = b;\n  return x + y;\n}\n`))
  .join("\n");
// An exact hunk first (on `two`): what comes before it is no place for the next hunk.
const TWO_HUNK = "@@ -7,7 +7,7 @@\n function two(a, b) {\n   const x = a;\n   const y = b;\n-  return x + y;\n+  return x * y;\n }\n \n function three(a, b) {\n";
const FIVE_HUNK = "@@ -25,7 +25,7 @@\n function five(a, b) {\n   const x = a;\n   const y = b;\n-  return x + y;\n+  return x - y;\n }\n \n function six(a, b) {\n";
const LRU = "  get(key) {\n    if (v) {\n      this.mapList.delete(key)\n      return v\n    }\n  }\n\n  delete(key) {\n    return this.map.delete(key)\n  }\n";
const POINT_OLD = "exports.isPoint = function(tn, ns, attrs, foreignNS) {\n    if ((!foreignNS || foreignNS === NS.HTML) && isHtmlPoint(tn, ns, attrs)) {\n        return true;\n    }\n\n    if ((!foreignNS || foreignNS === NS.MATHML) && isMathPoint(tn, ns)) {\n        return true;\n    }\n\n    return false;\n};\n";
const POINT_NEW = POINT_OLD.replace("        return true;\n    }\n\n    return", "        return true;\n        if (options.strict) return checkStrict(tn);\n        // strict mode checks the namespace before anything else\n        const strictResult = inspect(ns, 22);\n    }\n\n    return");
// A changelog whose 2.5 entry was edited already, the next entry reading alike, and the hunk that made the edit.
const CHANGELOG = "# log\n\n## 2.5\n\nNo changes at all in this release.\n\n## 2.4\n\nNo changes in this release.\n\n## 2.3\n\nNo changes in this release.\n";
const CHANGELOG_HUNK = " \n ## 2.5\n \n-No changes in this release.\n+No changes at all in this release.\n \n ## 2.4\n";
/** "already applied" when the library says so, else the content it wrote. */
const outcome = (r: { content: string; alreadyApplied?: unknown }): string => (r.alreadyApplied ? "already applied" : r.content);
const CLS = "class A:\n    def m(self):\n        x = 1\n        return x\n";

const libCases: LibCase[] = [
  {
    name: "whole lines: a one-line SEARCH unique as a whole line, also inside longer lines, is not ambiguous",
    run: () => applySearchReplace("a = foo(x)\nb = foo(x) + 1\nfoo(x)\nc = foo(x)\n", block("foo(x)", "bar(x)")).content,
    want: "a = foo(x)\nb = foo(x) + 1\nbar(x)\nc = foo(x)\n",
  },
  {
    name: "whole lines: indented find text inside a deeper line's indentation moves the replacement with it",
    run: () => replace(PY, "            s = repr(x)\n            t = 1\n", "            s = str(x)\n            t = 2\n").content,
    want: PY.replace("s = repr(x)", "s = str(x)").replace("t = 1", "t = 2"),
  },
  {
    name: "nesting: a kept line wrapped in a new try: goes inside it",
    run: () => replace(GUARD, "    data = fetch()\n    resp.raw.read(10)\n", "    data = fetch()\n    try:\n        resp.raw.read(10)\n    except OSError:\n        pass\n").content,
    want: "def g():\n    data = fetch()\n    try:\n        resp.raw.read(10)\n    except OSError:\n        pass\n    return data\n",
  },
  {
    name: "one-sided: a replacement shifted deeper as a whole, its find text exact, is written at the file's depth",
    run: () => replace(CLS, "        x = 1\n        return x\n", "            x = 2\n            return x\n").content,
    want: CLS.replace("x = 1", "x = 2"),
  },
  {
    name: "one-sided: a replacement that wraps its lines (a shallower new line) keeps its nesting",
    run: () => replace(CLS, "        x = 1\n        return x\n", "        if self:\n            x = 2\n            return x\n").content,
    want: CLS.replace("        x = 1\n        return x\n", "        if self:\n            x = 2\n            return x\n"),
  },
  {
    name: "both sides shifted a tab deeper, new lines shallower than the kept ones: mapped to the file's levels",
    run: () =>
      replace(
        "function f() {\n\treturn 1;\n}\n\nmodule.exports = g(function (t) {\n\tvar from;\n\tvar to = t;\n});\n",
        "\t}\n\n\tmodule.exports = g(function (t) {\n\t\tvar from;\n\t\tvar to = t;",
        "\t} // done\n\tlet x = 1;\n\t\tvar from;\n\t\tvar to = t;",
      ).content,
    want: "function f() {\n\treturn 1;\n} // done\nlet x = 1;\n\tvar from;\n\tvar to = t;\n});\n",
  },
  {
    name: "one-sided: a blank line missing from the find text only is not doubled",
    run: () => applySearchReplace("a = 1\n\nb = 2\nc = 3\n", block("a = 1\nb = 2", "a = 1\n\nb = 20")).content,
    want: "a = 1\n\nb = 20\nc = 3\n",
  },
  {
    name: "misremembered token on the rewritten line: the model's line replaces the file's",
    run: () => replace("def h(results):\n    total = len(results)\n    return total\n", "def h(results):\n    total = len(result)\n    return total\n", "def h(results):\n    total = len(results) + 1\n    return total\n").content,
    want: "def h(results):\n    total = len(results) + 1\n    return total\n",
  },
  {
    name: "a line changed in the file goes to the new line most like it: the kept line turned elif, not the new if above it",
    run: () =>
      replace(
        `def m(self):\n    if func and self.mode != 'none':\n${SIG}        except TypeError:\n            pass\n`,
        `    if self.mode != 'none':\n${SIG}`,
        `    if self.mode == 'description':\n        describe(func)\n    elif self.mode != 'none':\n${SIG}`,
      ).content,
    want: `def m(self):\n    if self.mode == 'description':\n        describe(func)\n    elif func and self.mode != 'none':\n${SIG}        except TypeError:\n            pass\n`,
  },
  {
    name: "a find text recalled wrong, its replacement starting with the file's line above and a blank line: written once",
    run: () => replace(ORTHO, "    # orthogonal?\n    if any(p != 1 for p in depmat):\n        return expr\n    return scale * Mul(1/total(u))\n", `    scale = total(expr)\n\n${ORTHO_NEW}`).content,
    want: ORTHO.replace("        return expr\n", "        raise ValueError(depmat)\n"),
  },
  {
    name: "a last line the find text recalls wrong and the replacement writes as the file has it is kept, not taken for the next line",
    run: () => replace("a\n    x = 1\n    return s * M(1 / t(u))\n", "    x = 1\n    return s * M(1/t(u))\n", "    x = 2\n    return s * M(1 / t(u))\n").content,
    want: "a\n    x = 2\n    return s * M(1 / t(u))\n",
  },
  {
    name: "an exact find text, its replacement starting with the file's line above and a blank line: written as sent",
    run: () => replace(ORTHO, "    # orthogonal?\n    if any(p != 1 for p in depmat):\n        return expr\n", "    scale = total(expr)\n\n    # orthogonal?\n    if any(p != 1 for p in depmat):\n        raise ValueError(depmat)\n").content,
    want: ORTHO.replace("    # orthogonal?\n    if any(p != 1 for p in depmat):\n        return expr\n", "    scale = total(expr)\n\n    # orthogonal?\n    if any(p != 1 for p in depmat):\n        raise ValueError(depmat)\n"),
  },
  {
    name: "a look-alike block read by similarity while the quoted block, changed since, holds the model's telling line: two places, refused",
    run: () => replace(SETS, SETS_FIND, SETS_FIND.replace("        # Reduce", "        seen = set()\n        # Reduce")).content,
    want: "AMBIGUOUS",
  },
  {
    // The hunk's own function was rewritten since; the one above reads alike (a name differs), is the
    // only one after the previous hunk, and its window ends on the quoted function's first line.
    // The quoted place, named by the header's line, no longer holds the line to change: refused there.
    name: "a look-alike function whose window ends where the quoted one, changed since, begins: refused at the quoted place, never written into the look-alike",
    run: () => applyPatch(FUNCS, `${TWO_HUNK}${FIVE_HUNK}`).content,
    want: "NOT_FOUND",
  },
  {
    name: "an indented find text is never read inside a longer line by loosened whitespace (a re-sent edit: already applied)",
    run: () => outcome(replace(LRU, "      this.map.delete(key)\n", "      this.mapList.delete(key)\n")),
    want: "already applied",
  },
  {
    name: "a re-sent insertion in the middle of a block, found by similarity over the new lines: already applied, not written twice",
    run: () => outcome(replace(`}\n\n${POINT_NEW}`, POINT_OLD, POINT_NEW)),
    want: "already applied",
  },
  {
    name: "a numbered hunk sent again while the next section reads alike: already applied at the header's line, not written there",
    run: () => outcome(applyPatch(CHANGELOG, `@@ -2,7 +2,7 @@\n${CHANGELOG_HUNK}`)),
    want: "already applied",
  },
  {
    name: "the same hunk sent again under a bare @@ @@ header: already applied, not written into the look-alike section",
    run: () => outcome(applyPatch(CHANGELOG, `@@ @@\n${CHANGELOG_HUNK}`)),
    want: "already applied",
  },
  {
    name: "an indented :start_line: inside REPLACE is the hint error, never written",
    run: () => applySearchReplace("x = 1\ny = 2\n", block("x = 1", "  :start_line:1\nx = 10")).content,
    want: "PARSE",
  },
];

for (const c of libCases) {
  test(`library: ${c.name}`, () => {
    let got: string;
    try {
      got = c.run();
    } catch (error) {
      assert.ok(error instanceof EditError, String(error));
      got = error.code;
    }
    assert.equal(got, c.want);
  });
}

// --- through the CLI --------------------------------------------------------------

const apply = (root: string, responseFile: string) => runMain(["apply", responseFile, "--root", root, "-q"]);

const cliCases: { name: string; files: Record<string, string>; response: string; code: number; want?: [string, string]; says?: RegExp }[] = [
  {
    name: "a V4A patch padded with whitespace (models indent it) is read",
    files: { "x.py": "def a():\n    x = 1\n    return x\n" },
    response: " *** Begin Patch\n  *** Update File: x.py\n@@ def a():\n     x = 1\n-    return x\n+    return x + 1\n *** End Patch\n",
    code: 0,
    want: ["x.py", "def a():\n    x = 1\n    return x + 1\n"],
  },
  {
    name: "a path alone in its own fence before the block's fence names the block's file",
    files: { "x.py": "def a():\n    x = 1\n" },
    response: "Here:\n\n```\nx.py\n```\n\n```python\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n>>>>>>> REPLACE\n```\n",
    code: 0,
    want: ["x.py", "def a():\n    x = 2\n"],
  },
  {
    name: "two equal places inside a V4A @@ anchor's block are ambiguous, not the first",
    files: { "z.py": "class A:\n    x = 1\n    y = 2\n    x = 1\n    y = 2\n" },
    response: "*** Begin Patch\n*** Update File: z.py\n@@ class A:\n-    x = 1\n+    x = 10\n     y = 2\n*** End Patch\n",
    code: 1,
    says: /AMBIGUOUS/,
  },
  {
    name: "one equal place inside the anchor's block, another after it: the one inside",
    files: { "y.py": "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n" },
    response: "*** Begin Patch\n*** Update File: y.py\n@@ class B:\n     def f(self):\n-        return 1\n+        return 2\n*** End Patch\n",
    code: 0,
    want: ["y.py", "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 2\n"],
  },
  {
    name: "nesting through a SEARCH/REPLACE response",
    files: { "g.py": GUARD },
    response: "g.py\n```python\n<<<<<<< SEARCH\n    resp.raw.read(10)\n=======\n    try:\n        resp.raw.read(10)\n    except OSError:\n        pass\n>>>>>>> REPLACE\n```\n",
    code: 0,
    want: ["g.py", "def g():\n    data = fetch()\n    try:\n        resp.raw.read(10)\n    except OSError:\n        pass\n    return data\n"],
  },
  {
    name: "a re-sent block whose old line now stands only inside a longer line: nothing written, exit 0",
    files: { "lru.js": LRU },
    response: "lru.js\n```js\n<<<<<<< SEARCH\n      this.map.delete(key)\n=======\n      this.mapList.delete(key)\n>>>>>>> REPLACE\n```\n",
    code: 0,
    want: ["lru.js", LRU],
  },
];

for (const c of cliCases) {
  test(`cli: ${c.name}`, async () => {
    const t = await makeTree(c.files);
    const response = path.join(t.base, "response.txt");
    await writeFile(response, c.response);
    const r = await apply(t.root, response);
    assert.equal(r.code, c.code, r.stderr);
    if (c.want) assert.equal(await readFile(path.join(t.root, c.want[0]), "utf8"), c.want[1]);
    if (c.says) assert.match(r.stderr, c.says);
  });
}
