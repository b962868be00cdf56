/**
 * Lazy snippets (issue 34), the merge alone: not yet a format or a tool, since bench:lazy still
 * counts wrong merges (docs/formats.md says so); these tests hold what the merge does today.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { readHeader } from "../src/lazy/definitions.ts";
import { hasMarker } from "../src/lazy/markers.ts";
import { readMorphInput } from "../src/lazy/morph-input.ts";
import { renderSnippet } from "../bench/lazy/render.ts";
import { undecided } from "../bench/lazy/undecided.ts";
import { expectRefusal, type Refusal } from "./helpers/lazy-refusal.ts";

const TS = `import { a } from "a";

export class Store {
  constructor() {
    this.items = [];
  }

  add(item) {
    this.items.push(item);
    return this;
  }

  remove(item) {
    const k = this.items.indexOf(item);
    if (k >= 0) this.items.splice(k, 1);
    return this;
  }
}

function helper(x) {
  return x + 1;
}
`;

const PY = `import os


class Loader:
    def __init__(self, root):
        self.root = root

    def load(self, name):
        path = os.path.join(self.root, name)
        with open(path) as f:
            return f.read()

    def exists(self, name):
        return os.path.exists(os.path.join(self.root, name))


def main():
    print(Loader(".").load("a"))
`;

/** A function importing a helper, 30 lines above another that will import it too. */
const COPIED = `def first():\n    from helpers import tool\n    return tool(1)\n\n\n${Array.from({ length: 30 }, (_, k) => `X${k} = ${k}`).join("\n")}\n\n\ndef second(v):\n    w = v * 2\n    return w + 1\n`;

/** Every line of the two bodies twice in the file; the pair (y, x) in that order once. */
const SWAPPED = "def a():\n    x = make('apply')\n    y = make('ci')\n    return x\n\n\ndef b():\n    y = make('ci')\n    x = make('apply')\n    return x\n";

/** `width = settings.width` three times; the one in f is followed by the line a snippet changes. */
const WIDTH = "def a():\n    width = settings.width\n    return width\n\n\ndef b():\n    width = settings.width\n    return width * 2\n\n\ndef f(x):\n    docs = load(x)\n\n    width = settings.width\n    return [fmt(d, width) for d in docs]\n\n\ndef g():\n    return 1\n";

/** A function of distinct lines (moves within it are told by the lines around them). */
const MOVED = 'def f(x):\n    a = load(x)\n    b = parse(a)\n    log("parsed")\n    c = check(b)\n    return c\n\n\ndef g():\n    return 1\n';

const BLOCK_MOVED = "def h(items):\n    first = items[0]\n    total = 0\n    seen = set()\n    names = []\n    for it in items:\n        check(it)\n        total += it.size\n    return total\n";

/** `# scalar case` once, in mul, 45 lines above rmul. */
const SCALAR = `class M:\n    def mul(self, other):\n        # scalar case\n        if not hasattr(other, 'shape'):\n            return self._scale(other)\n        return self._mul(other)\n\n${Array.from({ length: 45 }, (_, k) => `    X${k} = ${k}`).join("\n")}\n\n    def rmul(self, other):\n        if not hasattr(other, 'shape'):\n            return self._rscale(other)\n        return other._mul(self)\n`;

interface Case {
  name: string;
  file: string;
  snippet: string;
  path?: string;
  want: string;
}

/** Each style and marker syntax the format accepts, with the text it must give. */
const cases: Case[] = [
  {
    name: "// ... existing code ... around one changed method",
    file: TS,
    snippet: "// ... existing code ...\n  add(item) {\n    this.items.push(item);\n    this.count++;\n    return this;\n  }\n// ... existing code ...",
    want: TS.replace("this.items.push(item);\n", "this.items.push(item);\n    this.count++;\n"),
  },
  {
    name: "/* ... */ block comment marker, snippet starting with one",
    file: TS,
    snippet: "/* ... */\nfunction helper(x) {\n  return x + 2;\n}",
    want: TS.replace("return x + 1;", "return x + 2;"),
  },
  {
    name: "// ... alone (no wording) around a changed method",
    file: TS,
    snippet: "// ...\n  add(item) {\n    this.items.push(item);\n    this.items.sort();\n    return this;\n  }\n// ...",
    want: TS.replace("this.items.push(item);\n", "this.items.push(item);\n    this.items.sort();\n"),
  },
  {
    name: "# ... in Python (no wording) around a changed line of a method",
    file: PY,
    path: "loader.py",
    snippet: "# ...\n    def load(self, name):\n        path = os.path.join(self.root, name.strip())\n        with open(path) as f:\n# ...",
    want: PY.replace("os.path.join(self.root, name)\n        with", "os.path.join(self.root, name.strip())\n        with"),
  },
  {
    name: "a class with its unchanged methods elided, a method in the middle changed",
    file: TS,
    snippet: "export class Store {\n  // ... other methods ...\n\n  add(item) {\n    this.items.unshift(item);\n    return this;\n  }\n\n  // ... other methods ...\n}",
    want: TS.replace("this.items.push(item);", "this.items.unshift(item);"),
  },
  {
    name: "two functions with markers around them, both changed",
    file: TS,
    snippet: "// ... existing code ...\n  add(item) {\n    this.items.push(item, item);\n    return this;\n  }\n// ... existing code ...\nfunction helper(x) {\n  return x + 3;\n}",
    want: TS.replace("this.items.push(item);", "this.items.push(item, item);").replace("return x + 1;", "return x + 3;"),
  },
  {
    name: "a bare Python method (no marker) replaces the method of the same name in its class",
    file: PY,
    path: "loader.py",
    snippet: "    def exists(self, name):\n        return os.path.lexists(os.path.join(self.root, name))",
    want: PY.replace("os.path.exists(os.path", "os.path.lexists(os.path"),
  },
  {
    name: "… other methods … (Unicode ellipsis) inside a class, a method inserted before its end",
    file: TS,
    snippet: "export class Store {\n  // … other methods …\n\n  clear() {\n    this.items = [];\n  }\n}",
    want: TS.replace("    return this;\n  }\n}\n", "    return this;\n  }\n\n  clear() {\n    this.items = [];\n  }\n}\n"),
  },
  {
    name: "a kept signature whose body is a marker, the signature changed",
    file: TS,
    snippet: "  remove(item, all) {\n    // ... existing code ...\n  }",
    want: TS.replace("remove(item) {", "remove(item, all) {"),
  },
  {
    name: "a bare function with no marker replaces the definition of the same name",
    file: TS,
    snippet: "function helper(x, y = 1) {\n  return x + y;\n}",
    want: TS.replace("function helper(x) {\n  return x + 1;\n}", "function helper(x, y = 1) {\n  return x + y;\n}"),
  },
  {
    name: "a deletion shown by the context around it (no marker there)",
    file: TS,
    snippet: "// ... existing code ...\n  remove(item) {\n    const k = this.items.indexOf(item);\n    return this;\n  }\n// ... existing code ...",
    want: TS.replace("    if (k >= 0) this.items.splice(k, 1);\n", ""),
  },
  {
    name: "a deletion shown by a // remove note",
    file: TS,
    snippet: "// ... existing code ...\n    this.items.push(item);\n    return this;\n  }\n\n  // remove the remove() method\n}\n\nfunction helper(x) {\n// ... existing code ...",
    want: TS.replace(/\n {2}remove\(item\) \{[\s\S]*?\n {2}\}\n/, "\n"),
  },
  {
    name: "# ... rest of code ... in Python, a method changed inside a class",
    file: PY,
    path: "loader.py",
    snippet: "class Loader:\n    # ... rest of code ...\n    def exists(self, name):\n        return os.path.isfile(os.path.join(self.root, name))\n\n\n# ... rest of code ...",
    want: PY.replace("os.path.exists(os.path", "os.path.isfile(os.path"),
  },
  {
    name: "a bare ... line in Python, a method appended at the end of its class",
    file: PY,
    path: "loader.py",
    snippet: "class Loader:\n    ...\n    def size(self, name):\n        return os.path.getsize(os.path.join(self.root, name))",
    want: PY.replace(
      "        return os.path.exists(os.path.join(self.root, name))\n",
      "        return os.path.exists(os.path.join(self.root, name))\n    def size(self, name):\n        return os.path.getsize(os.path.join(self.root, name))\n",
    ),
  },
  {
    name: "# ... keep existing code ..., an insertion anchored by a neighbour's first line",
    file: PY,
    path: "loader.py",
    snippet: "# ... keep existing code ...\n    def reload(self, name):\n        return self.load(name)\n\n    def exists(self, name):\n# ... keep existing code ...",
    want: PY.replace("    def exists(self, name):", "    def reload(self, name):\n        return self.load(name)\n\n    def exists(self, name):"),
  },
  {
    name: "<!-- ... --> in Markdown",
    file: "# Title\n\nIntro.\n\n## Usage\n\nRun it.\n\n## License\n\nMIT\n",
    path: "README.md",
    snippet: "<!-- ... -->\n## Usage\n\nRun it with `npx`.\n\n## License\n<!-- ... -->",
    want: "# Title\n\nIntro.\n\n## Usage\n\nRun it with `npx`.\n\n## License\n\nMIT\n",
  },
  {
    name: "JSX {/* ... */} markers",
    file: "export function App() {\n  return (\n    <div>\n      <Header />\n      <Main />\n      <Footer />\n    </div>\n  );\n}\n",
    path: "app.jsx",
    snippet: "      {/* ... existing code ... */}\n      <Main />\n      <Aside />\n      {/* ... */}",
    want: "export function App() {\n  return (\n    <div>\n      <Header />\n      <Main />\n      <Aside />\n      <Footer />\n    </div>\n  );\n}\n",
  },
  {
    name: "a whole-file snippet with every unchanged region elided, two changes",
    file: TS,
    snippet: 'import { a, b } from "a";\n\n// ... existing code ...\nfunction helper(x) {\n  return b(x) + 1;\n}',
    want: TS.replace('import { a } from "a";', 'import { a, b } from "a";').replace("return x + 1;", "return b(x) + 1;"),
  },
  {
    name: "Morph's <code>…</code><update>…</update> input",
    file: TS,
    snippet: `<instruction>Add one</instruction>\n<code>${TS}</code>\n<update>// ... existing code ...\nfunction helper(x) {\n  return x + 100;\n}\n</update>`,
    want: TS.replace("return x + 1;", "return x + 100;"),
  },
  {
    name: "CRLF file and snippet: the file's line endings are kept",
    file: TS.replace(/\n/g, "\r\n"),
    snippet: "// ...\r\nfunction helper(x) {\r\n  return x - 1;\r\n}",
    want: TS.replace("return x + 1;", "return x - 1;").replace(/\n/g, "\r\n"),
  },
  {
    name: "a bare ... in a file whose docstring has ... lines: a marker where it aligns with none next to its neighbours",
    file: 'def f():\n    """\n    >>> f()\n    ...\n    """\n    x = 1\n    y = 2\n    return x + y\n',
    snippet: "    ...\n    y = 3\n    return x + y",
    want: 'def f():\n    """\n    >>> f()\n    ...\n    """\n    x = 1\n    y = 3\n    return x + y\n',
    path: "a.py",
  },
  {
    name: "a bare ... after a header the file has stands for the body, though the file has a ... stub elsewhere",
    file: "def f(a):\n    x = 1\n    y = 2\n    return x + y\n\n\ndef g():\n    ...\n",
    snippet: "def f(a):\n    ...\n    return x + y + a",
    want: "def f(a):\n    x = 1\n    y = 2\n    return x + y + a\n\n\ndef g():\n    ...\n",
    path: "a.py",
  },
  {
    name: "a marker inside a block, the next line past the block's end: the code between is kept, not deleted",
    file: "def f():\n    a = 1\n    b = 2\nx = 5\ny = 6\ndef g():\n    return 1\n",
    snippet: "def f():\n    a = 10\n    # ... existing code ...\ny = 6\ndef g():\n    return 1",
    want: "def f():\n    a = 10\n    b = 2\nx = 5\ny = 6\ndef g():\n    return 1\n",
    path: "a.py",
  },
  {
    name: "a new function after context that ends other functions too: placed after the nearest, nothing deleted",
    file: "function a() {\n  const result = 1;\n  return result;\n}\n\nfunction b() {\n  const result = 2;\n  return result;\n}\n\n/** Doc of c. */\nfunction c() {\n  return 3;\n}\n",
    snippet: "// ... existing code ...\n  return result;\n}\n\nfunction added() {\n  return 4;\n}\n\n/** Doc of c. */\nfunction c() {\n// ... existing code ...",
    want: "function a() {\n  const result = 1;\n  return result;\n}\n\nfunction b() {\n  const result = 2;\n  return result;\n}\n\nfunction added() {\n  return 4;\n}\n\n/** Doc of c. */\nfunction c() {\n  return 3;\n}\n",
  },
  {
    name: "a new function before context that heads other functions too: placed before the nearest, nothing deleted",
    file: "function a() {\n  return 0;\n}\n\n// helper\nfunction b() {\n  return 1;\n}\n\n// helper\nfunction c() {\n  return 2;\n}\n",
    snippet: "function a() {\n  return 0;\n}\n\nfunction added() {\n  return 4;\n}\n\n// helper\n// ... existing code ...",
    want: "function a() {\n  return 0;\n}\n\nfunction added() {\n  return 4;\n}\n\n// helper\nfunction b() {\n  return 1;\n}\n\n// helper\nfunction c() {\n  return 2;\n}\n",
  },
  {
    name: "an indented blank line the snippet adds next to the file's empty one: its whitespace stays on the line it is on",
    file: "def f():\n    x = 1\n\n    y = 2\n\n\ndef g():\n    pass\n",
    snippet: "def f():\n    x = 1\n    \n    z = 3\n\n    y = 2\n# ... existing code ...",
    want: "def f():\n    x = 1\n    \n    z = 3\n\n    y = 2\n\n\ndef g():\n    pass\n",
    path: "a.py",
  },
  {
    name: "two blank lines, a new function, one blank line before the next: the two are the file's two",
    file: "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
    snippet: "# ... existing code ...\n\n\ndef added():\n    return 3\n\ndef b():\n    return 2",
    want: "def a():\n    return 1\n\n\ndef added():\n    return 3\n\ndef b():\n    return 2\n",
    path: "a.py",
  },
  {
    name: "one blank line, a new function, two blank lines before a marker: the two are the file's two",
    file: "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
    snippet: "def a():\n    return 1\n\ndef added():\n    return 3\n\n\n# ... existing code ...",
    want: "def a():\n    return 1\n\ndef added():\n    return 3\n\n\ndef b():\n    return 2\n",
    path: "a.py",
  },
  {
    name: "a bare Python definition whose last line changed replaces the whole definition (no line of the old kept after it)",
    file: "def f(x):\n    y = x + 1\n    return y\n\n\ndef g():\n    return 2\n",
    snippet: "def f(x):\n    y = x + 1\n    return compute(y, 10)",
    want: "def f(x):\n    y = x + 1\n    return compute(y, 10)\n\n\ndef g():\n    return 2\n",
    path: "a.py",
  },
  {
    name: "a bare Python method whose last line changed replaces the whole method (its old last lines not kept after it)",
    file: PY,
    snippet: "    def load(self, name):\n        path = os.path.join(self.root, name)\n        with open(path, encoding='utf8') as f:\n            return f.read().strip()",
    want: PY.replace("with open(path) as f:\n            return f.read()", "with open(path, encoding='utf8') as f:\n            return f.read().strip()"),
    path: "a.py",
  },
  {
    name: "a bare Python function whose docstring has ... lines (a doctest) and whose last line changed replaces it whole",
    file: 'import os\n\n\ndef f(n):\n    """\n    >>> for p in f(2):\n    ...\n    """\n    m = n * 2\n    yield m\n\n\ndef g():\n    return 1\n',
    snippet: 'def f(n):\n    """\n    >>> for p in f(2):\n    ...\n    """\n    m = n * 2\n    yield m + 1',
    want: 'import os\n\n\ndef f(n):\n    """\n    >>> for p in f(2):\n    ...\n    """\n    m = n * 2\n    yield m + 1\n\n\ndef g():\n    return 1\n',
    path: "a.py",
  },
  {
    name: "a part none of whose lines is unique, placed by its runs of file lines standing together once",
    file: SWAPPED,
    snippet: "# ...\n    y = make('ci')\n    x = make('apply')\n    x.attach(y)\n    return x\n# ...",
    want: SWAPPED.replace("    x = make('apply')\n    return x\n", "    x = make('apply')\n    x.attach(y)\n    return x\n"),
    path: "a.py",
  },
  {
    name: "a new line that repeats a line of a function far above (a copied import): written as new, the other kept",
    file: COPIED,
    snippet: "# ...\ndef second(v):\n    w = v * 2\n    from helpers import tool\n    w = tool(w)\n    return w + 1",
    want: COPIED.replace("    w = v * 2\n", "    w = v * 2\n    from helpers import tool\n    w = tool(w)\n"),
    path: "a.py",
  },
  {
    name: "a statement moved below the next one, inside lines the snippet shows whole: its old place goes, its new one is written",
    file: MOVED,
    snippet: 'def f(x):\n    a = load(x)\n    b = parse(a)\n    c = check(b)\n    log("parsed")\n    return c\n# ...',
    want: MOVED.replace('    log("parsed")\n    c = check(b)\n', '    c = check(b)\n    log("parsed")\n'),
    path: "a.py",
  },
  {
    name: "a block moved past a shorter run of lines with a marker in it: the shorter run anchors, the block's old place goes",
    file: BLOCK_MOVED,
    snippet: "def h(items):\n    first = items[0]\n    for it in items:\n        # ...\n        total += it.size\n    total = 0\n    seen = set()\n    names = []\n    return total",
    want: BLOCK_MOVED.replace("    total = 0\n    seen = set()\n    names = []\n    for it in items:\n        check(it)\n        total += it.size\n", "    for it in items:\n        check(it)\n        total += it.size\n    total = 0\n    seen = set()\n    names = []\n"),
    path: "a.py",
  },
  {
    name: "a line copied from a method far above: the run of lines in order that jumps there with no marker is not taken",
    file: SCALAR,
    snippet: "    # ...\n    def rmul(self, other):\n        # scalar case\n        if not hasattr(other, 'shape'):\n            return self._rscale(other)\n        return other._mul(self)",
    want: SCALAR.replace("    def rmul(self, other):\n", "    def rmul(self, other):\n        # scalar case\n"),
    path: "a.py",
  },
  {
    name: "context after a marker that repeats elsewhere, then a changed line: placed before the change, not slid onto the blank line the snippet ends its part with",
    file: WIDTH,
    snippet: "    # ...\n\n    width = settings.width\n    out = [fmt(d, width) for d in docs]\n    return [o for o in out if o]\n\n\ndef g():\n# ...",
    want: WIDTH.replace("    return [fmt(d, width) for d in docs]\n", "    out = [fmt(d, width) for d in docs]\n    return [o for o in out if o]\n"),
    path: "a.py",
  },
  {
    name: "a changed last line, then a closing brace and a blank line before a marker: the brace is the block's, the old line replaced",
    file: "function a() {\n  const x = 1;\n  return x;\n}\n\nfunction b() {\n  const y = 2;\n\n  return y;\n}\n\nfunction c() {\n  return 3;\n}\n",
    snippet: "// ...\n  const y = 2;\n\n  return y + 1;\n}\n\n// ...",
    want: "function a() {\n  const x = 1;\n  return x;\n}\n\nfunction b() {\n  const y = 2;\n\n  return y + 1;\n}\n\nfunction c() {\n  return 3;\n}\n",
  },
  {
    name: "one changed line among context lines that stand twice: placed where the line it changes stands, the context the same around it",
    file: "def f(method):\n    fn = {\n        'a': 1,\n    }[method]\n\n    return fn(expr)\n\n\ndef g(method):\n    fn = {\n        'b': 2,\n    }[method]\n\n    return other(expr)\n",
    snippet: "    # ...\n    }[method]\n\n    return fn(expr, 2)\n\n\n# ...",
    want: "def f(method):\n    fn = {\n        'a': 1,\n    }[method]\n\n    return fn(expr, 2)\n\n\ndef g(method):\n    fn = {\n        'b': 2,\n    }[method]\n\n    return other(expr)\n",
    path: "a.py",
  },
];

for (const c of cases) {
  test(`applyLazyEdit: ${c.name}`, () => {
    const r = applyLazyEdit(c.file, c.snippet, c.path === undefined ? { path: "a.ts" } : { path: c.path });
    assert.equal(r.content, c.want);
  });
}


const DOUBLE = "function a() {\n  setup();\n  run(1);\n}\n\nfunction b() {\n  setup();\n  run(2);\n}\n";

const refusals: Refusal[] = [
  {
    name: "an anchor that occurs twice",
    file: DOUBLE,
    snippet: "// ... existing code ...\n  setup();\n  check();\n// ... existing code ...",
    code: "AMBIGUOUS",
    says: [/snippet line 2/, /lines 2, 7/],
  },
  {
    name: "new code between two markers: its place is unknowable",
    file: TS,
    snippet: "// ... existing code ...\nfunction brandNew() {\n  return 0;\n}\n// ... existing code ...",
    code: "NOT_FOUND",
    says: [/snippet line 2/],
  },
  {
    name: "new lines between two markers after a known line",
    file: TS,
    snippet: 'import { a } from "a";\n// ... existing code ...\nconst z = 1;\n// ... existing code ...',
    code: "AMBIGUOUS",
    says: [/snippet line 3/, /lines 2-22/],
  },
  {
    name: "a large deletion no marker covers (a forgotten marker)",
    file: `${Array.from({ length: 40 }, (_, k) => `const v${k} = ${k};`).join("\n")}\n`,
    snippet: "const v0 = 0;\nconst v1 = 100;\nconst v39 = 39;",
    code: "CONFLICT",
    says: [/snippet line 1/, /snippet line 3/, /lines 2-39/],
  },
  {
    name: "a merge that would unbalance the braces",
    file: TS,
    snippet: "// ... existing code ...\n  add(item) {\n    if (item) {\n    this.items.push(item);\n// ... existing code ...",
    code: "CONFLICT",
    says: [/more opening braces/],
  },
  {
    name: "a function defined twice, sent bare",
    file: "class A {\n  run() {\n    return 1;\n  }\n}\nclass B {\n  run() {\n    return 2;\n  }\n}\n",
    snippet: "run() {\n  return 3;\n}",
    code: "AMBIGUOUS",
    says: [/snippet line 1/, /lines 2, 7/],
  },
  {
    name: "a new line next to a kept line it may be a change of",
    file: "# Title\n\n## Usage\n\nRun it.\n\n## License\n\nMIT\n",
    snippet: "<!-- ... -->\n## Usage\n\nRun it with `npx`.\n<!-- ... -->",
    code: "AMBIGUOUS",
    says: [/snippet line 4/, /file line 5/],
  },
  {
    name: "no line of the snippet is in the file",
    file: TS,
    snippet: "// ...\nconst unrelated = true;",
    code: "NOT_FOUND",
    says: [/snippet line 2/],
  },
  {
    name: "a line of the file next to a marker that fits none of its places (the segment anchored elsewhere)",
    file: `function a() {\n  run(1);\n  run(1);\n}\n\n${Array.from({ length: 15 }, (_, k) => `const v${k} = ${k};`).join("\n")}\n\nfunction b() {\n  setup();\n  check(2);\n  run(2);\n}\n\nfunction c() {\n  run(1);\n}\n`,
    snippet: "// ...\n  run(1);\n  check(2);\n  extra();\n// ...",
    code: "AMBIGUOUS",
    says: [/snippet line 2/, /lines 2, 3, 29/],
  },
  {
    name: "a segment whose aligned lines are re-indented by different amounts",
    file: "def f():\n    if a:\n        go()\n    return 1\n\n\ndef g():\n    return 2\n",
    snippet: "# ...\n  if a:\n        go()\n        new()\n  return 1\n# ...",
    code: "AMBIGUOUS",
    says: [/snippet line 2/, /file line 2 \(indented \+2\)/, /file line 3 \(indented \+0\)/],
    path: "a.py",
  },
  {
    name: "a new first line (no marker before it) that may be a change of the file line above",
    file: "from m import a, b\nimport os\n\n\ndef f():\n    return 1\n",
    snippet: "from m import a, b, c\nimport os\n# ...",
    code: "AMBIGUOUS",
    says: [/snippet line 1/, /file line 1/],
    path: "a.py",
  },
  {
    name: "a deletion between two aligned lines that cuts another block's start",
    file: "def a():\n    x = 1\n    return x\n\n\ndef b():\n    y = 2\n    log('b')\n    return y\n\n\ndef c():\n    return x\n",
    snippet: "# ...\n    return x\n    log('b')\n    extra()\n# ...",
    code: "CONFLICT",
    says: [/snippet line 2 and snippet line 3/, /lines 4-7/, /def b\(\):/],
    path: "a.py",
  },
  {
    name: "a new return before the file's return that the marker keeps (one of them could never run)",
    file: "def f(x):\n    y = x + 1\n    return y\n\n\ndef g():\n    return 2\n",
    snippet: "def f(x):\n    y = x + 1\n    return compute(y)\n    # ... existing code ...",
    code: "AMBIGUOUS",
    says: [/snippet line 3/, /file line 3/, /return y/],
    path: "a.py",
  },
  {
    name: "a snippet of markers and blank lines only",
    file: PY,
    snippet: "# ...\n\n# ...",
    code: "NOT_FOUND",
    says: [/snippet line 1/],
    path: "a.py",
  },
  {
    name: "new lines between two markers of one block (the block's end is not their place)",
    file: PY,
    snippet: "    def load(self, name):\n        # ...\n        log(name)\n        # ...",
    code: "AMBIGUOUS",
    says: [/snippet line 3/, /lines 9-18/],
    path: "a.py",
  },
  {
    name: "new lines, then a line the file has in several places and a blank line before a marker, inserting only: the line may be new too (a second return)",
    file: "def f(a):\n    try:\n        expr = parse(a)\n    except (TokenError, SyntaxError) as exc:\n        raise SympifyError(a, exc)\n\n    return expr\n\n\ndef g(b):\n    expr = b\n    return expr\n",
    snippet: "    # ... rest of code ...\n        expr = parse(a)\n    except (TokenError, SyntaxError, RecursionError) as exc:\n        raise SympifyError(a, exc)\n    \n    if not isinstance(expr, Expr):\n        raise SympifyError(a)\n        \n    return expr\n\n    # ... rest of code ...",
    code: "AMBIGUOUS",
    says: [/snippet line 9/, /lines 7, 12/],
    path: "a.py",
  },
];

/** A test that the snippet of `r` is refused with its code, the message naming what `r.says`. */
function refusalTest(label: string, r: Refusal): void {
  test(`applyLazyEdit refuses ${label}${r.name}, naming the snippet line and the candidates`, () => {
    expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: r.path ?? "a.ts" }), r.code, r.says);
  });
}

for (const r of refusals) refusalTest("", r);

test("applyLazyEdit: a snippet whose result already stands is ALREADY_APPLIED", () => {
  assert.throws(() => applyLazyEdit(TS, "// ...\nfunction helper(x) {\n  return x + 1;\n}", {}), (e: unknown) => e instanceof EditError && e.code === "ALREADY_APPLIED");
});

test("readHeader: a statement that calls a function is no definition of it", () => {
  for (const line of ["if isinstance(base, (Tuple, MatrixBase)):", "assert idiff(x**2 + y, y, x) == -2*x", "elif hasattr(a, 'b'):", "return sympify(a)(", "while len(stack) > 0:"]) {
    assert.equal(readHeader(line), undefined, line);
  }
  assert.deepEqual(readHeader("def load(self, name):"), { kind: "function", name: "load" });
  assert.deepEqual(readHeader("  public int size() {"), { kind: "function", name: "size" });
  assert.deepEqual(readHeader("    static Builder builder(String name) {"), { kind: "function", name: "builder" });
});

test("marker lines: every comment syntax and wording, and what is code", () => {
  for (const m of ["// ... existing code ...", "# ... rest of code ...", "// ... keep existing code ...", "// ...", "  // … other methods …", "/* ... */", "<!-- ... -->", "{/* ... */}", "...", "-- ... rest of the file ...", "# existing code here"]) {
    assert.ok(hasMarker(m), m);
  }
  for (const code of ["// TODO: check this", "console.log('...')", "#include <stdio.h>", "x = y  # compute", "/* the loader */", "items.push(...rest);"]) {
    assert.ok(!hasMarker(code), code);
  }
});

test("readMorphInput: the update part, <code> searched only before it", () => {
  assert.deepEqual(readMorphInput("<code>a</code>\n<update>\nb <code>x</code>\n</update>"), { code: "a", update: "b <code>x</code>" });
  assert.equal(readMorphInput("plain text"), undefined);
});

test("applyLazyEdit never throws anything but EditError, and never writes a marker line", () => {
  const pieces = ["// ... existing code ...", "  add(item) {", "  }", "}", "", "function helper(x) {", "  return x + 7;", "# ...", "const k = 1;", "    return this;"];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 }), (lines) => {
      try {
        const r = applyLazyEdit(TS, lines.join("\n"), { path: "a.ts" });
        assert.ok(!r.content.includes("existing code"));
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
      }
    }),
    { numRuns: 300 },
  );
});

// bench:lazy's wrong merges, by class (helper "lazywrong"): each case a merge that was written wrong.
const SORTED = "def f(items):\n    out = []\n    for x in items:\n        out.append(x)\n    out = sorted(out)\n    return out\n\n\ndef g():\n    return 2\n";

const ELSE_TWICE = "function apply(patch) {\n  let patches;\n  if (typeof patch === 'string') {\n    patches = parse(patch);\n  }\n  else {\n    patches = [patch];\n  }\n  if (patches.length > 1) {\n    throw new Error('one only');\n  }\n  return patches[0];\n}\n\nfunction other(x) {\n  if (x) {\n    return 1;\n  }\n  else {\n    return 2;\n  }\n}\n";

const wrongBefore: Case[] = [
  {
    name: "a comment that reads as a removal note, over new code, is written as a comment",
    file: SORTED,
    snippet: "# ... existing code ...\n        out.append(x)\n    # Remove duplicates\n    out = list(dict.fromkeys(out))\n    return out\n# ... existing code ...",
    want: SORTED.replace("    out = sorted(out)\n", "    # Remove duplicates\n    out = list(dict.fromkeys(out))\n"),
    path: "a.py",
  },
  {
    name: "a removal-like comment over new code before a marker deletes nothing the marker keeps",
    file: SORTED,
    snippet: "def f(items):\n    out = []\n    # Remove the cache first\n    cache.clear()\n    # ... existing code ...",
    want: SORTED.replace("    out = []\n", "    out = []\n    # Remove the cache first\n    cache.clear()\n"),
    path: "a.py",
  },
  {
    name: "a run of three blank lines before a marker is the file's run after the new line, not a new blank line",
    file: "import a\n\nimport b\n\n\n\ndef f():\n    pass\n",
    snippet: "# ... existing code ...\nimport a\n\nimport b\nimport c\n\n\n\n# ... existing code ...",
    want: "import a\n\nimport b\nimport c\n\n\n\ndef f():\n    pass\n",
    path: "a.py",
  },
  {
    name: "context that repeats the lines after a deletion (`}`, `else {`, gap, `}`) is the file's lines, not a new else block",
    file: ELSE_TWICE,
    snippet: "// ... existing code ...\n  }\n  else {\n  }\n  if (patches.length > 1) {\n// ... existing code ...",
    want: ELSE_TWICE.replace("    patches = [patch];\n", ""),
    path: "a.js",
  },
  {
    name: "an empty snippet line at a deletion's edge is the file's empty line there, not its whitespace-only one at the other edge",
    file: "def f(k, n):\n    if k:\n        return 1\n    \n    if n.is_infinite:\n        return 2\n\n    # note\n    return 3\n",
    snippet: "    # ... existing code ...\n        return 1\n\n    # note\n    return 3\n",
    want: "def f(k, n):\n    if k:\n        return 1\n\n    # note\n    return 3\n",
    path: "a.py",
  },
];

for (const c of wrongBefore) {
  test(`applyLazyEdit (was wrong): ${c.name}`, () => {
    assert.equal(applyLazyEdit(c.file, c.snippet, { path: c.path ?? "a.ts" }).content, c.want);
  });
}

const TWICE = "def mul(self, other):\n    # scalar case\n    if not isinstance(other, Iterable):\n        try:\n            return self.scalar_mul(other)\n        except TypeError:\n            pass\n    return self.matrix_mul(other)\n\n\ndef rmul(self, other):\n    # scalar case\n    if not isinstance(other, collections.Iterable):\n        try:\n            return self.scalar_rmul(other)\n        except TypeError:\n            pass\n    return self.matrix_rmul(other)\n";

const wrongRefused: Refusal[] = [
  {
    name: "a deletion that cuts another block's start with only deeper new lines between (a body line added, not the block's header changed)",
    file: "def a():\n    x = 1\n    return x\n\n\ndef b():\n    y = 2\n    log('b')\n    return y\n\n\ndef c():\n    return x\n",
    snippet: "# ...\n    return x\n    check(x)\n    log('b')\n    extra()\n# ...",
    code: "CONFLICT",
    says: [/snippet line 2 and snippet line 4/, /lines 4-7/, /def b\(\):/],
    path: "a.py",
  },
  {
    name: "a line the file has word for word, after the same line, in its other copy of the block: not taken for the similar line changed",
    file: TWICE,
    snippet: "# ... existing code ...\n    # scalar case\n    if not isinstance(other, Iterable):\n        try:\n            return self.scalar_rmul(other)\n            # ... existing code ...",
    code: "CONFLICT",
    says: [/snippet line 5/, /lines 5-14/],
    path: "a.py",
  },
  {
    name: "a new header over lines the file has under another header the merge keeps (renamed, or a new function taking them?)",
    file: "class P:\n    def _print_Float(self, expr):\n        res = str(expr)\n        return res\n        if expr.known:\n            return 'k'\n        return 'u'\n\n    def other(self):\n        return 1\n",
    snippet: "    def _print_Function(self, expr):\n        if expr.known:\n            return 'k'\n        return 'u'",
    code: "AMBIGUOUS",
    says: [/snippet line 1/, /line 2 /],
    path: "a.py",
  },
  {
    name: "a repeated line next to a marker whose earlier place reads the new lines after it as the file's lines changed (added after its last place, or replacing lines after its first?)",
    file: "def f(rv):\n    rv = g(rv)\n    if not rv.is_Pow:\n        return rv\n\n    if (rv.exp < 0) == True:\n        return rv\n    if (rv.exp > max) == True:\n        return rv\n    if rv.exp == 2:\n        return h(rv)\n    return rv\n",
    snippet: "    # ...\n        return rv\n\n    if rv.exp.is_number and rv.exp < 0:\n        return rv\n    if rv.exp.is_number and rv.exp > max:\n        return rv\n    if rv.exp == 2:\n    # ...",
    code: "AMBIGUOUS",
    says: [/snippet line 2 /, /file lines 9 and 4/],
    path: "a.py",
  },
  {
    name: "a line next to a marker read as the line below it changed, when the line above is that line word for word (the file's line doubled)",
    file: "class P:\n    def a(self, i):\n        mrow = self.dom.createElement('mrow')\n        return str(mrow)\n\n    def b(self, i):\n        mrow = self.dom.createElement('mrow')\n        brac = self.dom.createElement('mfenced')\n        if i.start == i.end:\n            brac.appendChild(self._print(i.start))\n        return brac\n\n    def c(self, i):\n        return 1\n",
    snippet: "    # ... rest of code ...\n        mrow = self.dom.createElement('mrow')\n        if i.start == i.end:\n            mrow.appendChild(self._print(i.start))\n        return mrow\n\n    # ... rest of code ...\n",
    code: "AMBIGUOUS",
    says: [/snippet line 2 /, /file line 8 /, /file line 7 /],
    path: "a.py",
  },
];

for (const r of wrongRefused) refusalTest("(was wrong) ", r);

test("bench:lazy undecided: a snippet counts as undecided only when another after file renders to it byte for byte", () => {
  const twice = "def b():\n    y = 0\n    if y:\n        return 1\n    return 2\n";
  const before = `def a():\n    return 0\n\n\n${twice}\n\n${twice.replace("def b", "def c")}\n\ndef d():\n    pass\n`;
  const after = before.replace("        return 1\n    return 2\n\n\ndef c", "        return 5\n    return 2\n\n\ndef c");
  // One line of context around the change: the same lines stand in b and in c.
  const short = renderSnippet(before, after, "python", "rest-of-code") as string;
  assert.equal(undecided(before, after, "python", "rest-of-code", short), true);
  assert.throws(() => applyLazyEdit(before, short, { path: "a.py" }), (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS");
  // Three lines of context reach the function's name: decided.
  const long = renderSnippet(before, after, "python", "existing-code") as string;
  assert.equal(undecided(before, after, "python", "existing-code", long), false);
  assert.equal(applyLazyEdit(before, long, { path: "a.py" }).content, after);
});

test("bench:lazy render: a change adding a second definition of a name its class already has renders in no style (the snippet would read as a change of the first)", () => {
  const before = "class T:\n    def _latex(self, p):\n        return 'a'\n\n    def arg(self):\n        return 1\n";
  const twice = `${before}\n    def _latex(self, p):\n        return 'b'\n`;
  const styles = ["rest-of-code", "existing-code", "ellipsis-only", "whole-function", "signature-body"] as const;
  for (const style of styles) assert.equal(renderSnippet(before, twice, "python", style), undefined, style);
  // A namesake in a new class is no second one: it renders.
  const other = `${before}\n\nclass U:\n    def _latex(self, p):\n        return 'u'\n`;
  assert.notEqual(renderSnippet(before, other, "python", "existing-code"), undefined);
});
