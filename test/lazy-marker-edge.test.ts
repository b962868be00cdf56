/**
 * Lazy merge (issue 34): a line next to a marker that is a line of the file but left unplaced
 * (the segment anchored by new code that repeats lines of the file) read again from that line
 * (edge-reading.ts): the one place that gives a merge passing every check is taken.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

const ROOTS = "def nthroot_mod(a, n, p, all_roots=False):\n    roots = []\n    if a % p == 0:\n        roots.append(0)\n    if n == 2:\n        return sqrt_mod(a, p, all_roots)\n    if (p - 1) % n == 0:\n        roots += _nthroot_mod1(a, n, p, all_roots)\n    # The roots of x**n - a = 0 (mod p) are roots of\n    # gcd(x**n - a, x**(p - 1) - 1) = 0 (mod p)\n    pa = n\n    pb = p - 1\n    return roots\n";
const FILLER = Array.from({ length: 30 }, (_, k) => `        x${k} = other.part(${k})`).join("\n");
const TWINS = `class M:\n    def __mul__(self, other):\n${FILLER}\n\n        # scalar multiplication\n        if not isinstance(other, collections.abc.Iterable):\n            try:\n                return self._scalar_mul(other)\n            except TypeError:\n                pass\n        return NotImplemented\n\n    def __rmul__(self, other):\n${FILLER}\n\n        # scalar multiplication\n        if not isinstance(other, collections.Iterable):\n            try:\n                return self._scalar_rmul(other)\n            except TypeError:\n                pass\n        return NotImplemented\n`;
const RETURNS = "def first(a):\n    expr = a\n    return expr\n\n\ndef parse(a):\n    try:\n        expr = parse_expr(a)\n    except TokenError as exc:\n        raise SympifyError(a, exc)\n\n    return expr\n\n\ndef other(a):\n    expr = a * 2\n    return expr\n";

const merges = [
  {
    name: "context after a marker, then new lines that copy lines the file has above it: the context places them, the copies are new",
    file: ROOTS,
    snippet: "    # ... existing code ...\n    if (p - 1) % n == 0:\n        roots += _nthroot_mod1(a, n, p, all_roots)\n    roots = []\n    if a % p == 0:\n        roots.append(0)\n\n    # The roots of x**n - a = 0 (mod p) are roots of\n    # gcd(x**n - a, x**(p - 1) - 1) = 0 (mod p)\n    # ... existing code ...",
    want: ROOTS.replace("all_roots)\n    # The roots", "all_roots)\n    roots = []\n    if a % p == 0:\n        roots.append(0)\n\n    # The roots"),
  },
  {
    name: "a change to the second of two twin blocks, whose first is already changed so: the line before the marker is the second's only",
    file: TWINS,
    snippet: "    # ... existing code ...\n\n        # scalar multiplication\n        if not isinstance(other, collections.abc.Iterable):\n            try:\n                return self._scalar_rmul(other)\n    # ... existing code ...",
    want: TWINS.replace("isinstance(other, collections.Iterable)", "isinstance(other, collections.abc.Iterable)"),
  },
];

for (const c of merges) {
  test(`applyLazyEdit (marker edge): ${c.name}`, () => {
    assert.equal(applyLazyEdit(c.file, c.snippet, { path: "a.py" }).content, c.want);
  });
}

const refusals = [
  {
    // The model wrote `return expr` again before the file's own: the blank line before the marker places it.
    name: "a line of the file, a blank line and a marker, the blank line the file's just before that line: still refused",
    file: RETURNS,
    snippet: "    # ... existing code ...\n        expr = parse_expr(a)\n    except (TokenError, RecursionError) as exc:\n        raise SympifyError(a, exc)\n\n    if not isinstance(expr, Expr):\n        raise SympifyError(a)\n\n    return expr\n\n    # ... existing code ...",
    code: "AMBIGUOUS",
    says: [/snippet line 9/, /fits none of them/],
  },
];

for (const c of refusals) {
  test(`applyLazyEdit (marker edge) refuses: ${c.name}`, () => {
    expectRefusal(() => applyLazyEdit(c.file, c.snippet, { path: "a.py" }), c.code, c.says);
  });
}
