/**
 * The rules ledger's switches (src/engine/rules.ts, docs/rules.md): a rule
 * named in FUZZPATCH_RULES_OFF is off for the whole process, read once at
 * load, so each case runs in a child process. Each case is an edit the
 * rule decides: with the rule on and off, the outcomes differ as the ledger
 * says.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { RULES } from "../src/engine/rules.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** The JSON of `expr` (a replace() call) evaluated in a child with `off` switched off. */
function run(off: string, expr: string): unknown {
  const code = `import { replace } from "./src/index.ts"; let out; try { out = ${expr}; } catch (e) { out = { code: e.code }; } console.log(JSON.stringify(out));`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: REPO,
    env: { ...process.env, FUZZPATCH_RULES_OFF: off },
    encoding: "utf8",
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

const cases: { rule: string; expr: string; on: unknown; off: unknown }[] = [
  {
    rule: "already-applied",
    // An insertion sent again: its old text stands only inside its new text.
    expr: `replace("a = 1\\nb = 2\\nc = compute(a, b)\\n", "a = 1\\nb = 2", "a = 1\\nb = 2\\nc = compute(a, b)").content`,
    on: "a = 1\nb = 2\nc = compute(a, b)\n",
    off: "a = 1\nb = 2\nc = compute(a, b)\nc = compute(a, b)\n",
  },
  {
    rule: "inline-merge",
    // A typeset copy of a quote in a changed line: merged, the file's ASCII quotes stay.
    expr: `replace('log("ready");\\nrun(1);\\n', "log(\\u201cready\\u201d);\\nrun(1);\\n", "log(\\u201cready\\u201d, 2);\\nrun(1);\\n").content`,
    on: 'log("ready", 2);\nrun(1);\n',
    off: "log(\u201cready\u201d, 2);\nrun(1);\n",
  },
];

test("the switchable rules include the merge frame, inline merge, carry-over and already-applied", () => {
  for (const name of ["merge-frame", "inline-merge", "carry-over", "already-applied"]) assert.ok((RULES as readonly string[]).includes(name), name);
});

for (const c of cases) {
  test(`FUZZPATCH_RULES_OFF=${c.rule} changes what the rule decides`, () => {
    assert.deepEqual(run("", c.expr), c.on);
    assert.deepEqual(run("no-such-rule", c.expr), c.on, "an unknown name is ignored");
    assert.deepEqual(run(c.rule, c.expr), c.off);
  });
}
