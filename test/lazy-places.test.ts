/**
 * Lazy snippets whose segments stand in many places of the file, but whose
 * place the snippet still decides: closing lines after a marker close the
 * blocks open at the aligned line before it (closing-lines.ts); a method
 * whose name several classes define, whose body merges cleanly into one of
 * them only (fitting-definition.ts, with the file's syntax tree); one
 * changed line that wraps the middle of the file's line (wrapped-line.ts). And the
 * segments that stay refused: where nothing in the snippet tells the places
 * apart.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { wrapped } from "../src/lazy/wrapped-line.ts";
import { loadDefinitionsReader } from "../src/syntax/definitions-reader.ts";

interface Case {
  name: string;
  path: string;
  before: string;
  snippet: string;
  /** Undefined: must be refused as AMBIGUOUS. */
  after?: string;
}

const TS_FUNCS = `export function first(a: number): number {
  if (a > 0) {
    return a;
  }
  return -a;
}

/** The second one. */
export function second(text: string, n: number): string {
  const parts = text.split(",");
  if (parts.length > n) {
    return parts[n];
  }
  return "";
}

export function third(x: string): boolean {
  for (const c of x) {
    if (c === " ") {
      return true;
    }
  }
  return false;
}
`;

const GO_FUNCS = `func first(a int) int {
\tif a > 0 {
\t\treturn a
\t}
\treturn -a
}

func second(items []string) []string {
\tout := []string{}
\tfor _, it := range items {
\t\tout = append(out, it)
\t}
\treturn out
}
`;

const PY_SIMP = `def trigsimp(expr, method):
    trigsimpfunc = {
        'fu': (lambda x: fu(x)),
        'old': lambda x: trigsimp_old(x),
                   }[method]

    return trigsimpfunc(expr)


def futrig(expr, method):
    trigsimpfunc = {
        'fu': (lambda x: fu(x)),
                   }[method]

    if recursive:
        return expr
`;

const CASES: Case[] = [
  {
    name: "one changed line that wraps the middle of the file's line (`f(expr)` -> `f(g(expr))`), its context standing twice",
    path: "a.py",
    before: PY_SIMP,
    snippet: `    # ... existing code ...
                   }[method]

    return trigsimpfunc(exp_to_trig(expr))


# ... existing code ...
`,
    after: PY_SIMP.replace("    return trigsimpfunc(expr)\n", "    return trigsimpfunc(exp_to_trig(expr))\n"),
  },
  {
    name: "a changed signature, its body elided, and the function's `}` after the marker",
    path: "a.ts",
    before: TS_FUNCS,
    snippet: `// ... existing code ...
/** The second one. */
export function second(flag: boolean, text: string, n: number): string {
  const parts = text.split(",");
// ... existing code ...
}
// ... existing code ...
`,
    after: TS_FUNCS.replace("second(text: string, n: number)", "second(flag: boolean, text: string, n: number)"),
  },
  {
    name: "a removal note before the function's `}`",
    path: "a.ts",
    before: TS_FUNCS,
    snippet: `  // ... existing code ...
  if (parts.length > n) {
    return parts[n];
  }
// remove return "";
}

// ... existing code ...
`,
    after: TS_FUNCS.replace(`  }\n  return "";\n`, "  }\n"),
  },
  {
    name: "two closers after a marker: the loop's and the function's, then a new function",
    path: "a.ts",
    before: TS_FUNCS,
    snippet: `// ... existing code ...
export function third(x: string): boolean {
  for (const c of x) {
    // ... existing code ...
  }
  return false;
}

export function fourth(): void {}
`,
    after: `${TS_FUNCS}\nexport function fourth(): void {}\n`,
  },
  {
    name: "a Go function's `}` after the marker in its body",
    path: "a.go",
    before: GO_FUNCS,
    snippet: `// ... existing code ...
func second(items []string, sep string) []string {
\tout := []string{}
\t// ... existing code ...
}
`,
    after: GO_FUNCS.replace("second(items []string)", "second(items []string, sep string)"),
  },
  {
    name: "refused: a `}` after a marker that follows a whole function closes nothing open there",
    path: "a.ts",
    before: TS_FUNCS,
    snippet: `// ... existing code ...
  return -a;
}
// ... existing code ...
}
const added = 1;
// ... existing code ...
`,
  },
];

for (const c of CASES) {
  test(`lazy places: ${c.name}`, () => {
    if (c.after === undefined) {
      assert.throws(
        () => applyLazyEdit(c.before, c.snippet, { path: c.path }),
        (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS",
      );
      return;
    }
    assert.equal(applyLazyEdit(c.before, c.snippet, { path: c.path }).content, c.after);
  });
}

const PY_RUNS = `class A:
    def run(self, x):
        y = prepare(x)
        check(y)
        return y


class B:
    def run(self, x):
        y = prepare(x)
        if y:
            return y
        check(y)


class C:
    def run(self, x):
        return x
`;

const PY_SNIPPET = `    # ... existing code ...
    def run(self, x):
        # ... existing code ...
        check(y)
        audit(y)
        return y
    # ... existing code ...
`;

const TREE_CASES: Case[] = [
  {
    name: "a method three classes define, whose kept lines stand in the snippet's order in one only",
    path: "a.py",
    before: PY_RUNS,
    snippet: PY_SNIPPET,
    after: PY_RUNS.replace("        check(y)\n        return y\n", "        check(y)\n        audit(y)\n        return y\n"),
  },
  {
    name: "refused: two classes whose methods both take the snippet",
    path: "a.py",
    before: PY_RUNS.replace("class C:\n    def run(self, x):\n        return x\n", "class C:\n    def run(self, x):\n        y = prepare(x)\n        check(y)\n        return y\n"),
    snippet: PY_SNIPPET,
  },
  {
    name: "refused: the one class whose method takes the snippet writes a kept line (`check(y)`, another class's) as new",
    path: "a.py",
    before: PY_RUNS.replace("        y = prepare(x)\n        check(y)\n        return y\n", "        y = prepare(x)\n        return y\n"),
    snippet: PY_SNIPPET,
  },
];

for (const c of TREE_CASES) {
  test(`lazy places, with the syntax tree: ${c.name}`, async () => {
    const definitions = await loadDefinitionsReader(c.path);
    assert.ok(definitions, "the Python reader loads");
    // The text alone cannot tell the classes apart.
    assert.throws(() => applyLazyEdit(c.before, c.snippet, { path: c.path }), (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS");
    if (c.after === undefined) {
      assert.throws(() => applyLazyEdit(c.before, c.snippet, { path: c.path, definitions }), (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS");
      return;
    }
    assert.equal(applyLazyEdit(c.before, c.snippet, { path: c.path, definitions }).content, c.after);
  });
}

test("lazy places: a wrapped line is the old one with text put in at two points around a kept part", () => {
  const rows: [string, string, boolean][] = [
    ["return trigsimpfunc(expr)", "return trigsimpfunc(exp_to_trig(expr))", true],
    ["x = f(value)", "x = f(int(value))", true],
    ["return a", "return b + c", false],
    ["foo(x)", "bar(x)", false],
    // Only a bracket in common at the start: not a line's words.
    ["(a, b)", "(c, a, b, d)", false],
  ];
  for (const [a, b, want] of rows) assert.equal(wrapped(a, b), want, `${a} / ${b}`);
});
