/**
 * Lazy snippets with the file's definitions read from its syntax tree (the
 * `definitions` option, a reader loaded before the merge): a bare
 * definition whose name the text reads as defined twice (methods of one name
 * in two classes, overloads, a doctest's call), and a signature-body snippet
 * whose lines stand in many places of the file but once in its definition.
 * Each case is refused without the reader (the text path) and merged right
 * with it, in several languages.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { classifySnippet } from "../src/lazy/markers.ts";
import { type LinesMerge, mergeWithinDefinitions } from "../src/lazy/scoped-merge.ts";
import { loadDefinitionsReader, readerLanguage } from "../src/syntax/definitions-reader.ts";
import { GO } from "./helpers/lazy-fixtures.ts";

interface Case {
  name: string;
  path: string;
  before: string;
  snippet: string;
  after: string;
  /** The text path (no tree) merges it as well. @default false */
  textMerges?: boolean;
}

const PY_CLASSES = `class Sinh(Function):
    def eval(cls, arg):
        if arg.is_zero:
            return S.Zero
        if arg.is_negative:
            return -cls(-arg)
        return None

class Cosh(Function):
    def eval(cls, arg):
        if arg.is_zero:
            return S.One
        if arg.is_negative:
            return cls(-arg)
        if arg.is_infinite:
            return S.Infinity
        return None
`;

const PY_DOCTEST = `def idiff(eq, y, x, n=1):
    """Return dy/dx.

    >>> idiff(circ, y, x)
    -x/y
    """
    f = eq.diff(x)
    return f

def other():
    return 1
`;

const PY_NESTED = `def decompose(f, *gens):
    """Top-level."""
    return f.decompose()

class Poly:
    def decompose(f):
        result = f.rep.decompose()
        return list(map(f.per, result))
`;

const TS_CLASSES = `export class Reader {
  read(path: string): string {
    const text = load(path);
    return text.trim();
  }
}

export class Writer {
  read(path: string): string {
    const hit = cache.get(path);
    if (hit === undefined) throw new Error(path);
    return hit;
  }

  write(path: string, text: string): void {
    cache.set(path, text);
  }
}
`;

const RUST = `impl<T> Own<T> {
    pub fn new(ptr: Box<T>) -> Self {
        Own { ptr: Box::into_raw(ptr) }
    }
}

impl<'a, T> Ref<'a, T> {
    pub fn new(ptr: &'a T) -> Self {
        Ref { ptr, lifetime: PhantomData }
    }
}
`;

const JAVA = `public final class Spec {
  public static Builder builder(TypeName type, String name) {
    checkNotNull(type, "type == null");
    return new Builder(type, name);
  }

  public static Builder builder(Type type, String name) {
    return builder(TypeName.get(type), name);
  }
}
`;

const JAVA_SIGNATURE = `public final class Spec {
  public Builder initializer(String format, Object... args) {
    return initializer(CodeBlock.of(format, args));
  }

  public Builder initializer(CodeBlock codeBlock) {
    checkState(this.initializer == null, "initializer was already set");
    this.initializer = checkNotNull(codeBlock, "codeBlock == null");
    return this;
  }

  public Builder build() {
    return this;
  }
}
`;

const PY_SIGNATURE = `class Prefix:
    def __mul__(self, other):
        from sympy.physics.units import Quantity
        from sympy.physics.units import Unit
        if isinstance(other, Unit):
            return other * self.scale_factor
        return super().__mul__(other)

    def __truediv__(self, other):
        from sympy.physics.units import Unit
        if isinstance(other, Unit):
            return other / self.scale_factor
        return super().__truediv__(other)
`;

const cases: Case[] = [
  {
    name: "python: a bare method whose header two classes have, told by the body it shares",
    path: "hyperbolic.py",
    before: PY_CLASSES,
    snippet: "    def eval(cls, arg):\n        if arg.is_zero:\n            return S.One\n        if arg.is_negative:\n            return cls(-arg)\n        if arg.is_infinite:\n            return S.ComplexInfinity\n        return None\n",
    after: PY_CLASSES.replace("return S.Infinity", "return S.ComplexInfinity"),
  },
  {
    name: "python: a doctest's call is no second definition",
    path: "util.py",
    before: PY_DOCTEST,
    snippet: 'def idiff(eq, y, x, n=1):\n    """Return dy/dx.\n\n    >>> idiff(circ, y, x)\n    -x/y\n    """\n    f = eq.diff(x, n)\n    return f\n',
    after: PY_DOCTEST.replace("eq.diff(x)", "eq.diff(x, n)"),
  },
  {
    name: "python: a method and a top-level function of one name, told by the indentation and header",
    path: "polytools.py",
    before: PY_NESTED,
    snippet: "    def decompose(f):\n        result = f.rep.decompose()\n        return [f.per(g) for g in result]\n",
    after: PY_NESTED.replace("return list(map(f.per, result))", "return [f.per(g) for g in result]"),
  },
  {
    name: "typescript: methods of one name in two classes",
    path: "io.ts",
    before: TS_CLASSES,
    snippet: "  read(path: string): string {\n    const hit = cache.get(path);\n    if (hit === undefined) throw new Error(path);\n    return hit.trim();\n  }\n",
    after: TS_CLASSES.replace("return hit;", "return hit.trim();"),
  },
  {
    name: "go: a method and a function of one name, told by the receiver",
    path: "int.go",
    before: GO,
    snippet: 'func Int(name string, value int, usage string) *int {\n\treturn CommandLine.IntP(name, "i", value, usage)\n}\n',
    after: GO.replace('IntP(name, "", value', 'IntP(name, "i", value'),
  },
  {
    name: "rust: fn new in two impls, told by the header",
    path: "ptr.rs",
    before: RUST,
    snippet: "    pub fn new(ptr: &'a T) -> Self {\n        Ref { ptr: ptr, lifetime: PhantomData }\n    }\n",
    after: RUST.replace("Ref { ptr, lifetime", "Ref { ptr: ptr, lifetime"),
  },
  {
    name: "java: overloads, told by the header",
    path: "Spec.java",
    before: JAVA,
    snippet: '  public static Builder builder(TypeName type, String name) {\n    checkNotNull(type, "type == null");\n    checkNotNull(name, "name == null");\n    return new Builder(type, name);\n  }\n',
    after: JAVA.replace('    checkNotNull(type, "type == null");\n', '    checkNotNull(type, "type == null");\n    checkNotNull(name, "name == null");\n'),
  },
  {
    name: "java: a kept signature whose closing brace stands in many places, merged within the method",
    path: "Spec.java",
    before: JAVA_SIGNATURE,
    snippet: '  // ... existing code ...\n  public Builder initializer(CodeBlock codeBlock) {\n    checkState(this.initializer == null, "initializer was already set");\n    System.out.println("set");\n  // ... existing code ...\n  }\n  // ... existing code ...\n',
    after: JAVA_SIGNATURE.replace('already set");\n', 'already set");\n    System.out.println("set");\n'),
    // The closing brace after the marker closes the method open at the aligned line before it (closing-lines.ts).
    textMerges: true,
  },
  {
    name: "python: a kept signature whose body's first lines stand in two methods, merged within the one named",
    path: "prefixes.py",
    before: PY_SIGNATURE,
    snippet: "    # ... existing code ...\n    def __mul__(self, other):\n        # ... existing code ...\n        from sympy.physics.units import Unit\n        if isinstance(other, Unit):\n            return Quantity(self.name + other.name)\n        return self.scale_factor * other\n\n        # ... existing code ...\n",
    after: PY_SIGNATURE.replace("            return other * self.scale_factor\n        return super().__mul__(other)\n", "            return Quantity(self.name + other.name)\n        return self.scale_factor * other\n"),
  },
];

for (const c of cases) {
  test(`lazy definitions: ${c.name}`, async () => {
    assert.notEqual(c.before, c.after, "the case changes the file");
    if (c.textMerges) assert.equal(applyLazyEdit(c.before, c.snippet, { path: c.path }).content, c.after, "the text path merges it too");
    else assert.throws(() => applyLazyEdit(c.before, c.snippet, { path: c.path }), (e: unknown) => e instanceof EditError && (e.code === "AMBIGUOUS" || e.code === "CONFLICT"), "the text path refuses it");
    const definitions = await loadDefinitionsReader(c.path);
    assert.ok(definitions, `a reader for ${c.path}`);
    assert.equal(applyLazyEdit(c.before, c.snippet, { path: c.path, definitions }).content, c.after);
  });
}

const refusals: { name: string; path: string; before: string; snippet: string; names: RegExp }[] = [
  {
    name: "python: one header and one body in two classes stay ambiguous, the classes named",
    path: "twins.py",
    before: "class A:\n    def f(self):\n        return 1\n\n\nclass B:\n    def f(self):\n        return 1\n",
    snippet: "    def f(self):\n        return 2\n",
    names: /in A.*in B/,
  },
  {
    name: "java: an overload's new header that reads as another's stays ambiguous",
    path: "Spec.java",
    before: JAVA,
    // builder(Type, ...) rewritten with builder(TypeName, ...)'s header: the body is the other's.
    snippet: "  public static Builder builder(TypeName type, String name) {\n    return builder(TypeName.get(type), name);\n  }\n",
    names: /defined 2 times/,
  },
];

for (const r of refusals) {
  test(`lazy definitions refuse: ${r.name}`, async () => {
    const definitions = await loadDefinitionsReader(r.path);
    assert.throws(
      () => applyLazyEdit(r.before, r.snippet, { path: r.path, definitions }),
      (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS" && r.names.test(e.message),
    );
  });
}

test("definitions reader: kinds, names, classes and ranges with decorators and doc comments", async () => {
  const read = await loadDefinitionsReader("m.py");
  assert.ok(read);
  const text = "class A:\n    # the one\n    @property\n    def f(self):\n        return 1\n\n\ndef g():\n    pass\n";
  assert.deepEqual(
    read(text)?.map((d) => [d.kind, d.name, d.container, d.start, d.nameLine, d.end]),
    [
      ["class", "A", "", 0, 0, 5],
      ["method", "f", "A", 1, 3, 5],
      ["function", "g", "", 7, 7, 9],
    ],
  );
  assert.equal(readerLanguage(undefined, "ts"), "typescript");
  assert.equal(readerLanguage("notes.txt"), undefined);
  assert.equal(await loadDefinitionsReader("notes.txt"), undefined);
});

test("definitions reader: a parse cut at its time limit reads nothing, and the merge falls back to the text", async () => {
  const read = await loadDefinitionsReader("big.py", undefined, "", 0);
  assert.ok(read);
  const big = `${PY_CLASSES}\n${"x = [1, 2, 3]\n".repeat(20000)}`;
  assert.equal(read(big), undefined);
  const snippet = "    def eval(cls, arg):\n        if arg.is_zero:\n            return S.One\n        if arg.is_negative:\n            return cls(-arg)\n        if arg.is_infinite:\n            return S.ComplexInfinity\n        return None\n";
  assert.throws(() => applyLazyEdit(big, snippet, { path: "big.py", definitions: read }), (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS");
});

test("applyLazyEdit: a definitions option that is no function is INVALID_INPUT", () => {
  assert.throws(() => applyLazyEdit("a\n", "b\n", { definitions: 3 as never }), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
});

test("merge within definitions: a marker that would keep none of the definition's lines leaves the whole-file merge's refusal", async () => {
  const read = await loadDefinitionsReader("m.py");
  assert.ok(read);
  const file = "class A:\n    def a(self):\n        cols = self.cols\n        return cols\n\n    def b(self):\n        cols = self.cols\n        return cols * 2\n";
  const lines = file.replace(/\n$/, "").split("\n");
  const defs = read(lines.join("\n"));
  assert.ok(defs);
  const snip = (text: string) => classifySnippet(text.split("\n"), new Set(lines.map((l) => l.trim())));
  const never: LinesMerge = () => assert.fail("not merged");
  // The marker after the header keeps nothing: `cols = self.cols` is a line added above the old one, or the old one.
  assert.equal(mergeWithinDefinitions(snip("    def a(self):\n        # ... existing code ...\n        cols = self.cols\n        cols += 1\n        return cols"), lines, defs, never), undefined);
  // A removal note inside the definition: the whole-file merge decides.
  assert.equal(mergeWithinDefinitions(snip("    def a(self):\n        # remove cols = self.cols\n        return cols"), lines, defs, never), undefined);
  // Code that is not a definition nor its class line: not only definitions.
  assert.equal(mergeWithinDefinitions(snip("x = 1\n# ... existing code ...\n    def a(self):\n        return 2"), lines, defs, never), undefined);
  const merged = mergeWithinDefinitions(snip("    def b(self):\n        # ... existing code ...\n        return cols * 3"), lines, defs, (s, f) => ({ lines: [...f.slice(0, 2), "        return cols * 3"], stats: { aligned: 1, added: 1, kept: 1, deleted: 1, markers: s.length - 2 } }));
  assert.deepEqual(merged?.lines.slice(5), ["    def b(self):", "        cols = self.cols", "        return cols * 3"]);
});
