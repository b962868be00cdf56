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

const INTERVAL = lines("def interval(i):", "    mrow = make('mrow')", "    if i.start == i.end:", "        mrow.add('{')", "    else:", "        if i.left_open:", "            mrow.add('(')", "        else:", "            mrow.add('[')", "    mrow.close()", "    return mrow", "", "", "def other():", "    return 1");
const NESTED = lines("def f(x, fast):", "    if fast:", "        y = g(x)", "        if y:", "            return y", "        else:", "            return h(y)", "    return slow(x)");

run([
  {
    // Half the run's lines of the file stand 4 deeper than in the snippet: the `if` around them is gone.
    name: "a run whose first and last lines of the file are copied at the file's depth takes it: the lines between at another depth were re-indented",
    file: INTERVAL,
    snippet: lines("# ... existing code ...", "def interval(i):", "    mrow = make('mrow')", "    if i.left_open:", "        mrow.add('(')", "    else:", "        mrow.add('[')", "    mrow.close()", "    return mrow", "# ... existing code ..."),
    want: lines("def interval(i):", "    mrow = make('mrow')", "    if i.left_open:", "        mrow.add('(')", "    else:", "        mrow.add('[')", "    mrow.close()", "    return mrow", "", "", "def other():", "    return 1"),
  },
  {
    // The loop and the return now stand in a new `if`: the run's ends (`def entry`, `def other`) are copied at the file's depth.
    name: "a run with its ends copied at the file's depth writes lines it wraps in a new block at the snippet's depth",
    file: lines("class M:", "    def entry(self, i, j):", "        for r in self.rows:", "            if i < r:", "                break", "            i -= r", "        return self.blocks[i][j]", "", "    def other(self):", "        return 1"),
    snippet: lines("    # ... existing code ...", "    def entry(self, i, j):", "        if all_numbers(i, j):", "            for r in self.rows:", "                if i < r:", "                    break", "                i -= r", "            return self.blocks[i][j]", "        return Element(self, i, j)", "", "    def other(self):", "    # ... existing code ..."),
    want: lines("class M:", "    def entry(self, i, j):", "        if all_numbers(i, j):", "            for r in self.rows:", "                if i < r:", "                    break", "                i -= r", "            return self.blocks[i][j]", "        return Element(self, i, j)", "", "    def other(self):", "        return 1"),
  },
  {
    // `if a:` copied 2 shallower than the file's, its body at the file's depth: which part the model re-indented is a guess.
    name: "a run whose ends are copied at another depth than the file's, with lines between at the file's, is refused",
    file: lines("def f():", "    if a:", "        go()", "    return 1", "", "", "def g():", "    return 2"),
    snippet: lines("# ...", "  if a:", "        go()", "        new()", "  return 1", "# ..."),
    want: { refused: "AMBIGUOUS" },
  },
  {
    // The run ends on the wrapped loop's last line (4 deeper than the file's); its first line, the header, is copied at the file's depth.
    name: "a run whose first line of the file is its header copied at the file's depth takes that depth, though its last line was re-indented",
    file: lines("class M:", "    def entry(self, i, j):", "        for r in self.rows:", "            if i < r:", "                break", "            i -= r", "        return self.blocks[i][j]", "", "    def other(self):", "        return 1"),
    snippet: lines("    # ... existing code ...", "    def entry(self, i, j):", "        if all_numbers(i, j):", "            for r in self.rows:", "                if i < r:", "                    break", "                i -= r", "            return self.blocks[i][j]", "        return Element(self, i, j)", "    # ... existing code ..."),
    want: lines("class M:", "    def entry(self, i, j):", "        if all_numbers(i, j):", "            for r in self.rows:", "                if i < r:", "                    break", "                i -= r", "            return self.blocks[i][j]", "        return Element(self, i, j)", "", "    def other(self):", "        return 1"),
  },
  {
    // `else:` is every if's: copied at one else's depth, it does not say the run's lines under it are that else's.
    name: "a run whose first line is a line found everywhere (else:) does not take that line's depth when its last line stands elsewhere",
    file: lines("def toc(entries, explicit):", "    for entry in entries:", "        if glob:", "            add(entry)", "        else:", "            if explicit:", "                ref = explicit.group(2)", "                title = explicit.group(1)", "            else:", "                ref = entry", "                title = None", "            use(ref)", "    return 1"),
    snippet: lines("            # ... existing code ...", "            else:", "                    ref = entry", "                    title = None", "            # ... existing code ..."),
    want: { refused: "AMBIGUOUS" },
  },
  {
    // The snippet's `else:` at the outer depth is the file's inner one: which lines it stands for is a guess.
    name: "a run whose ends stand at different shifts, and whose first line is not its shallowest, is refused",
    file: NESTED,
    snippet: lines("        # ... existing code ...", "        y = g(x)", "        z = k(y)", "        return z", "    else:", "    # ... existing code ..."),
    want: { refused: "AMBIGUOUS" },
  },
]);
