/**
 * Lazy merges bench:lazy scored wrong in its third round: a blank line
 * taken from before a new top-level def, a lone changed line placed among
 * two alike, a snippet merged into the twin of the block it changes, and a
 * rendering that did not show its deletion. Each rule's case, and a case
 * next to it the rule must leave alone.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { applyLazyEdit } from "../src/lazy/apply-lazy-edit.ts";

const MODULE = "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef main():\n    print(load('x'))\n";
const SAVE = "def save(path, text):\n    with open(path, 'w') as f:\n        f.write(text)\n";

test("new code between a marker's blank line and the next def goes after the file's whole blank run", () => {
  const snippet = `# ... existing code ...\n\n${SAVE}\n\ndef main():\n# ... existing code ...`;
  const want = `import os\n\n\ndef load(path):\n    return open(path).read()\n\n\n${SAVE}\n\ndef main():\n    print(load('x'))\n`;
  assert.equal(applyLazyEdit(MODULE, snippet, { path: "a.py" }).content, want);
});

test("blank lines before new code that follow a line of the file, or outnumber the file's run, are shown as they are", () => {
  const shown = [
    // The line before them is the file's: they are the lines after it, not the marker's edge.
    [`# ... existing code ...\n    return open(path).read()\n\n${SAVE}\n\ndef main():\n# ... existing code ...`, 1],
    // Three after the marker where the file's run has two: new ones among them.
    [`# ... existing code ...\n\n\n\n${SAVE}\n\ndef main():\n# ... existing code ...`, 3],
  ] as const;
  for (const [snippet, blanks] of shown) {
    const want = `import os\n\n\ndef load(path):\n    return open(path).read()\n${"\n".repeat(blanks)}${SAVE}\n\ndef main():\n    print(load('x'))\n`;
    assert.equal(applyLazyEdit(MODULE, snippet, { path: "a.py" }).content, want);
  }
});
