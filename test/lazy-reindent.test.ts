/**
 * Lazy merges of snippets whose change re-indents lines the file has (a
 * block wrapped in a new `if`, an `if` taken away around its body), and the
 * removal notes such snippets leave where a line stood: each table row is
 * a file, a snippet and the merged file expected (or the refusal's code).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";

interface Row {
  name: string;
  file: string;
  snippet: string;
  /** The merged file, or the EditError code the merge must refuse with. */
  want: string | { refused: string };
}

const lines = (...l: string[]) => `${l.join("\n")}\n`;

function run(rows: readonly Row[]): void {
  for (const r of rows) {
    test(r.name, () => {
      if (typeof r.want === "string") {
        assert.equal(applyLazyEdit(r.file, r.snippet, { path: "m.py" }).content, r.want);
        return;
      }
      const code = r.want.refused;
      assert.throws(() => applyLazyEdit(r.file, r.snippet, { path: "m.py" }), (e: unknown) => e instanceof EditError && e.code === code);
    });
  }
}

const SPACER = lines("def scale(x):", "    if x < 0:", "        return 0", "    # v-spacer", "    y = x * 2", "    z = y + 1", "    return z", "", "", "def other():", "    return 1");

run([
  {
    name: "a removal note naming a line the run before it already took out is not written",
    file: SPACER,
    snippet: lines("def scale(x):", "    if x < 0:", "        return 0", "    y = x * 3", "    z = y + 1", "    # remove # v-spacer", "    return z", "# ... existing code ..."),
    want: lines("def scale(x):", "    if x < 0:", "        return 0", "    y = x * 3", "    z = y + 1", "    return z", "", "", "def other():", "    return 1"),
  },
  {
    name: "a removal-like comment naming no line the run passed is a new comment",
    file: SPACER,
    snippet: lines("def scale(x):", "    if x < 0:", "        return 0", "    y = x * 3", "    z = y + 1", "    # remove negative zero", "    return z", "# ... existing code ..."),
    want: lines("def scale(x):", "    if x < 0:", "        return 0", "    y = x * 3", "    z = y + 1", "    # remove negative zero", "    return z", "", "", "def other():", "    return 1"),
  },
]);
