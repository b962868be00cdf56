/**
 * A segment placed by one line alone that the file has at another depth
 * (src/lazy/lone-anchor-depth.ts): refused, naming the snippet line and the
 * file line; and the merges next to it the rule must leave alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";
import { expectRefusal } from "./helpers/lazy-refusal.ts";

// A function whose last line is `return expr`, a blank line of four spaces in it.
const FUNC = "def trigsimp(expr):\n    from sympy import Wild\n    \n    new_expr = expr.rewrite(exp)\n    if new_expr != expr:\n        return new_expr\n    return expr\n\n\ndef fu(rv):\n    rv = rv.expand()\n    return rv\n";
// A method whose last lines are a nested `return` and an `else:` branch.
const METHOD = "class P:\n    def _print_B(self, expr):\n        if not lines:\n            return prettyForm('')\n        \n        if len(lines) > 1:\n            pad = 1\n            \n            return prettyForm('\\n'.join(padded))\n        else:\n            return prettyForm(' '.join(lines))\n\n    def _print_N(self, expr):\n        return 1\n";

const refusals: { name: string; file: string; snippet: string; says: RegExp[] }[] = [
  {
    // Once merged with the whole run shifted by the anchor's 4 columns: `def helper` at column 0, in the function.
    name: "a new nested function whose `return expr` is the only line the file has, one level deeper than the file's",
    file: FUNC,
    snippet: "    # ... rest of code ...\n    \n    def helper(expr):\n        a, b = expr.as_coeff_mul(I)\n        if a:\n            return sin(b)\n        return expr\n\n    new_expr = expr.replace(helper)\n\n    # ... rest of code ...\n",
    says: [/Snippet line 7/, /file line 7/, /less deep by 4/],
  },
  {
    // Once merged as the nested `else:` return changed, kept 4 columns deeper than the snippet wrote it.
    name: "a changed line alone between blank lines, read as a file line 4 columns deeper",
    file: METHOD,
    snippet: "        # ... rest of code ...\n        \n        return prettyForm(' + '.join(lines))\n\n        # ... rest of code ...\n",
    says: [/Snippet line 3/, /file line 11/, /deeper by 4/],
  },
];

for (const r of refusals) {
  test(`applyLazyEdit refuses (was wrong) ${r.name}, naming the snippet line and the file line`, () => {
    const e = expectRefusal(() => applyLazyEdit(r.file, r.snippet, { path: "a.py" }), "AMBIGUOUS", r.says);
    assert.ok((e.detail.candidates?.length ?? 0) > 0, "names its candidates");
  });
}

const merges: { name: string; file: string; snippet: string; want: string }[] = [
  {
    name: "one found line at the snippet's own depth, a new line after it",
    file: FUNC,
    snippet: "    # ... rest of code ...\n    new_expr = expr.rewrite(exp)\n    new_expr = new_expr.simplify()\n    # ... rest of code ...\n",
    want: FUNC.replace("    new_expr = expr.rewrite(exp)\n", "    new_expr = expr.rewrite(exp)\n    new_expr = new_expr.simplify()\n"),
  },
  {
    // The lone line at the run's outermost depth: the snippet as a whole sent from column 0.
    name: "a snippet sent from column 0 whose one found line is the run's outermost",
    file: FUNC,
    snippet: "# ... rest of code ...\nnew_expr = expr.rewrite(exp)\nnew_expr = new_expr.simplify()\n# ... rest of code ...\n",
    want: FUNC.replace("    new_expr = expr.rewrite(exp)\n", "    new_expr = expr.rewrite(exp)\n    new_expr = new_expr.simplify()\n"),
  },
];

for (const m of merges) {
  test(`applyLazyEdit still merges ${m.name}`, () => {
    assert.equal(applyLazyEdit(m.file, m.snippet, { path: "a.py" }).content, m.want);
  });
}
