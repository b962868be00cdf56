/**
 * Segments whose lines stand in several places of the file ("many-places"):
 * bench:lazy's proof that a deletion shown by its context alone is
 * undecided when the same context stands around other lines elsewhere
 * (bench/lazy/undecided.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { undecided } from "../bench/lazy/undecided.ts";
import { renderSnippet } from "../bench/lazy/render.ts";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";

test("bench:lazy undecided: a deletion shown by its context alone is undecided when that context stands around other lines elsewhere", () => {
  const body = (line: string) => `    y = 0\n    if y:\n${line}\n        return 1\n    return 2\n`;
  const before = `def a():\n    return 0\n\n\ndef b():\n${body("        log('b')")}\n\ndef c():\n${body("        log('c')")}\n\ndef d():\n    pass\n`;
  const after = before.replace("        log('b')\n", "");
  const short = renderSnippet(before, after, "python", "rest-of-code") as string;
  // One line of context: `if y:` and `return 1` stand around log('c') too; deleting it renders the same.
  assert.equal(undecided(before, after, "python", "rest-of-code", short), true);
  assert.throws(() => applyLazyEdit(before, short, { path: "a.py" }));
  // Three lines of context reach the function's name: decided.
  const long = renderSnippet(before, after, "python", "existing-code") as string;
  assert.equal(undecided(before, after, "python", "existing-code", long), false);
  assert.equal(applyLazyEdit(before, long, { path: "a.py" }).content, after);
  // A removal note quotes the line it removes: decided.
  const noted = renderSnippet(before, after, "python", "remove-note") as string;
  assert.equal(undecided(before, after, "python", "remove-note", noted), false);
});

test("bench:lazy undecided: another deletion at the same place, only wider (a blank line more), proves nothing", () => {
  const before = "def a():\n    return 0\n\n\nclass S(Base):\n    def __init__(self, it=None):\n        self.it = it\n";
  const after = before.replace("class S(Base):\n", "");
  const snippet = renderSnippet(before, after, "python", "rest-of-code") as string;
  assert.equal(undecided(before, after, "python", "rest-of-code", snippet), false);
});
