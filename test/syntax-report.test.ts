/**
 * The syntax check in every interface: the file layer's report
 * (`FileReport.syntax`) and `verify: "syntax"` (SYNTAX, nothing written),
 * runTool's text and structured result, the CLI's warning line, `--json`
 * and `--verify syntax`, and the MCP server's `--verify syntax` (built
 * dist/, as users run it).
 */

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { EditError } from "../src/errors.ts";
import { SYNTAX_REPORT_MAX_CHARS } from "../src/fs/syntax-check.ts";
import { applyEdits } from "../src/node.ts";
import type { WriteToolOutput } from "../src/tools/result-data.ts";
import { runTool } from "../src/tools/run-tool.ts";
import { parseWithin } from "../src/syntax/parse-within.ts";
import { loadParser } from "../src/syntax/runtime.ts";
import { applyWasmTier, baselineWasmAsked, isOneShot, useBaselineWasm } from "../src/syntax/wasm-tier.ts";
import { runCli, runMain } from "./helpers/cli-run.ts";
import { makeTree, read } from "./helpers/temp-tree.ts";

const PY = "def f(x):\n    if x:\n        return 1\n    return 2\n";
/** Drops the colon of line 2: the file no longer parses. */
const BREAK = { path: "a.py", oldString: "    if x:", newString: "    if x" };
const FINE = { path: "a.py", oldString: "return 2", newString: "return 3" };

test("applyEdits: a valid edit reports that the file parses before and after", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await applyEdits(root, [FINE]);
  assert.equal(r.ok, true);
  assert.deepEqual(r.files[0]?.syntax, { language: "python", parsesBefore: true, parsesAfter: true, introduced: [], changed: { startLine: 4, endLine: 4 } });
});

test("applyEdits: a breaking edit is written (report only by default) and its error reported at its line", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await applyEdits(root, [BREAK]);
  assert.equal(r.ok, true);
  assert.equal(r.written, true);
  const syntax = r.files[0]?.syntax;
  assert.equal(syntax?.parsesAfter, false);
  assert.deepEqual(
    syntax?.introduced.map((i) => [i.line, i.excerpt]),
    [[2, "if x"]],
  );
  assert.equal(await read(root, "a.py"), PY.replace("if x:", "if x"));
});

test('applyEdits verify: "syntax": the breaking edit fails with SYNTAX naming the line and showing it; nothing written', async () => {
  const { root } = await makeTree({ "a.py": PY, "b.py": "x = 1\n" });
  const r = await applyEdits(root, [BREAK, { path: "b.py", oldString: "x = 1", newString: "x = 2" }], { verify: "syntax" });
  assert.equal(r.ok, false);
  assert.equal(r.written, false);
  const file = r.files[0];
  assert.equal(file?.status, "failed");
  const error = file?.edits[0]?.error;
  assert.ok(error instanceof EditError);
  assert.equal(error.code, "SYNTAX");
  assert.equal(error.detail.line, 2);
  assert.match(error.message, /a\.py .*line 2/);
  assert.match(error.message, /^> 2 \| {5}if x$/m);
  assert.match(error.message, /^ {2}3 \| {9}return 1$/m);
  assert.equal(await read(root, "a.py"), PY);
  assert.equal(await read(root, "b.py"), "x = 1\n");
});

test('applyEdits verify: "syntax" with partial writes the other files', async () => {
  const { root } = await makeTree({ "a.py": PY, "b.py": "x = 1\n" });
  const r = await applyEdits(root, [BREAK, { path: "b.py", oldString: "x = 1", newString: "x = 2" }], { verify: "syntax", partial: true });
  assert.equal(r.files[0]?.written, false);
  assert.equal(r.files[1]?.written, true);
  assert.equal(await read(root, "b.py"), "x = 2\n");
  assert.equal(await read(root, "a.py"), PY);
});

test('applyEdits verify: "syntax" writes a valid edit and a new file that parses; refuses a new file that does not', async () => {
  const { root } = await makeTree({ "a.py": PY });
  const ok = await applyEdits(root, [FINE, { path: "new.js", oldString: "", newString: "export const a = 1;\n" }], { verify: "syntax" });
  assert.equal(ok.ok, true);
  assert.equal(ok.written, true);
  const bad = await applyEdits(root, [{ path: "bad.js", oldString: "", newString: "export const a = [1;\n" }], { verify: "syntax" });
  assert.equal(bad.files[0]?.edits[0]?.error?.code, "SYNTAX");
});

test("applyEdits: no syntax report for an unknown language or with syntax: off", async () => {
  const { root } = await makeTree({ "a.py": PY, "notes.txt": "a (\n" });
  const r = await applyEdits(root, [{ path: "notes.txt", oldString: "a (", newString: "a ((" }, BREAK], { syntax: "off" });
  assert.equal(r.files[0]?.syntax, undefined);
  assert.equal(r.files[1]?.syntax, undefined);
  const txt = await applyEdits(root, [{ path: "notes.txt", oldString: "a ((", newString: "a (((" }]);
  assert.equal(txt.files[0]?.syntax, undefined);
});

test("a file over the report's size limit gets no syntax report and says why; verify: \"syntax\" still checks it", async () => {
  // A Python file just over the limit, whose edit breaks it: not parsed (the report skipped), unless asked to verify.
  const big = `${"x = 1\n".repeat(Math.ceil(SYNTAX_REPORT_MAX_CHARS / 6))}${PY}`;
  assert.ok(big.length > SYNTAX_REPORT_MAX_CHARS);
  const { root } = await makeTree({ "a.py": big, "b.py": big, "small.py": PY });
  const r = await applyEdits(root, [BREAK, { ...BREAK, path: "small.py" }]);
  assert.equal(r.written, true);
  assert.equal(r.files[0]?.syntax, undefined);
  assert.match(r.files[0]?.syntaxSkipped ?? "", /^not checked: \d+ characters, over the syntax report's limit of 1048576/);
  assert.equal(r.files[1]?.syntaxSkipped, undefined);
  assert.equal(r.files[1]?.syntax?.parsesAfter, false);
  const tool = await runTool("edit_file", { path: "a.py", edits: [{ oldString: "return 2", newString: "return 3" }] }, { root });
  assert.match(tool.text, /^Syntax not checked: \d+ characters, over the syntax report's limit/m);
  assert.match((tool.structured as WriteToolOutput | undefined)?.files[0]?.syntaxSkipped ?? "", /^not checked/);
  const verified = await applyEdits(root, [{ ...BREAK, path: "b.py" }], { verify: "syntax" });
  assert.equal(verified.files[0]?.edits[0]?.error?.code, "SYNTAX");
  assert.equal(verified.files[0]?.syntaxSkipped, undefined);
});

test("a parse past its time limit is cancelled: a Python file of a long comment run (quadratic in its grammar's scanner) is written, unchecked, and the report says why", async () => {
  const parser = await loadParser("python");
  const comments = "# a comment line of the run\n".repeat(8000);
  assert.throws(() => parseWithin(parser, `${PY}${comments}`, null, 50), (e: Error) => e.name === "ParseTimeout" && /took over 50 ms/.test(e.message));
  // The parser is reset after a cancelled parse: the next text is parsed from its start, not as the rest of the last.
  const next = parseWithin(parser, PY, null, 50).rootNode;
  assert.equal(next.hasError, false);
  assert.equal(next.endIndex, PY.length);
  const { root } = await makeTree({ "a.py": `${PY}${comments}` });
  const r = await applyEdits(root, [{ path: "a.py", oldString: "return 2", newString: "return 3" }]);
  assert.equal(r.written, true);
  assert.equal(r.files[0]?.syntax, undefined);
  assert.match(r.files[0]?.syntaxSkipped ?? "", /^not checked: parsing \d+ characters took over \d+ ms/);
});

test("applyEdits: a bad syntax or verify option is INVALID_INPUT", async () => {
  const { root } = await makeTree({ "a.py": PY });
  for (const options of [{ verify: "types" }, { syntax: "on" }]) {
    await assert.rejects(applyEdits(root, [FINE], options as never), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
  }
});

test("runTool: the introduced error is a warning in the text and data in the structured result", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await runTool("edit_file", { path: "a.py", edits: [{ oldString: BREAK.oldString, newString: BREAK.newString }] }, { root });
  assert.equal(r.isError, false);
  assert.match(r.text, /Warning: the file now has a syntax error \(python; it parsed before this edit\)/);
  assert.match(r.text, /- line 2: unexpected "if x"/);
  assert.deepEqual((r.structured as WriteToolOutput | undefined)?.files[0]?.syntax, {
    language: "python",
    parsesBefore: true,
    parsesAfter: false,
    introduced: [{ line: 2, column: 9, message: 'unexpected "if x"', excerpt: "if x" }],
  });
});

test('runTool verify: "syntax": an error result with SYNTAX; the file unchanged', async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await runTool("edit_file", { path: "a.py", edits: [{ oldString: BREAK.oldString, newString: BREAK.newString }] }, { root, verify: "syntax" });
  assert.equal(r.isError, true);
  assert.match(r.text, /failed with SYNTAX:\nThe edit would leave a\.py with a syntax error \(python\) at line 2/);
  assert.equal((r.structured as WriteToolOutput | undefined)?.files[0]?.edits[0]?.error?.code, "SYNTAX");
  assert.equal(await read(root, "a.py"), PY);
});

const RESPONSE = "a.py\n```\n<<<<<<< SEARCH\n    if x:\n=======\n    if x\n>>>>>>> REPLACE\n```\n";

test("CLI apply: a warning line for the introduced error; --json carries the report", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await runMain(["apply", RESPONSE, "--root", root, "--dry-run"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^warning: a\.py: the edit introduces a syntax error \(python; it parsed before\) at line 2: unexpected "if x" \("if x"\); review the change$/m);
  const json = await runMain(["apply", RESPONSE, "--root", root, "--dry-run", "--json"]);
  const report = JSON.parse(json.stdout) as { files: { syntax?: { parsesAfter: boolean; introduced: { line: number }[] } }[] };
  assert.equal(report.files[0]?.syntax?.parsesAfter, false);
  assert.equal(report.files[0]?.syntax?.introduced[0]?.line, 2);
  const off = await runMain(["apply", RESPONSE, "--root", root, "--dry-run", "--syntax", "off"]);
  assert.doesNotMatch(off.stdout, /syntax error/);
});

test("CLI apply --verify syntax: exit 1, SYNTAX on stderr with the line, the file unchanged", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await runMain(["apply", RESPONSE, "--root", root, "--verify", "syntax"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^SYNTAX: a\.py: edit 1 \(search-replace\): The edit would leave a\.py with a syntax error \(python\) at line 2/m);
  assert.equal(await read(root, "a.py"), PY);
  const bad = await runMain(["apply", RESPONSE, "--root", root, "--verify", "types"]);
  assert.equal(bad.code, 2);
});

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

test("fuzzpatch mcp --verify syntax (built dist/): SYNTAX in the text, the structured error, the file unchanged", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, "dist", "cli", "bin.cjs"), "mcp", "--root", root, "--verify", "syntax"],
    stderr: "pipe",
  });
  const client = new Client({ name: "fuzzpatch-test", version: "1.0.0" });
  await client.connect(transport, { timeout: 20_000 });
  try {
    const result = await client.callTool({ name: "edit_file", arguments: { path: "a.py", edits: [{ oldString: BREAK.oldString, newString: BREAK.newString }] } }, { timeout: 20_000 });
    assert.equal(result.isError, true);
    const text = (result.content as { text?: string }[])[0]?.text ?? "";
    assert.match(text, /SYNTAX:\nThe edit would leave a\.py with a syntax error \(python\) at line 2/);
    const structured = result.structuredContent as { files: { edits: { error?: { code: string } }[] }[] };
    assert.equal(structured.files[0]?.edits[0]?.error?.code, "SYNTAX");
    assert.equal(await read(root, "a.py"), PY);
  } finally {
    await client.close();
  }
});

test("fuzzpatch mcp (built dist/), report only: the edit is written, the warning in the text, the report in structuredContent", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(REPO, "dist", "cli", "bin.cjs"), "mcp", "--root", root], stderr: "pipe" });
  const client = new Client({ name: "fuzzpatch-test", version: "1.0.0" });
  await client.connect(transport, { timeout: 20_000 });
  try {
    const result = await client.callTool({ name: "edit_file", arguments: { path: "a.py", edits: [{ oldString: BREAK.oldString, newString: BREAK.newString }] } }, { timeout: 20_000 });
    assert.equal(result.isError, false);
    const text = (result.content as { text?: string }[])[0]?.text ?? "";
    assert.match(text, /Warning: the file now has a syntax error \(python; it parsed before this edit\)/);
    assert.match(text, /- line 2: unexpected "if x"/);
    const structured = result.structuredContent as { files: { syntax?: { parsesAfter: boolean; introduced: { line: number; message: string }[] } }[] };
    assert.equal(structured.files[0]?.syntax?.parsesAfter, false);
    assert.deepEqual(
      structured.files[0]?.syntax?.introduced.map((i) => [i.line, i.message]),
      [[2, 'unexpected "if x"']],
    );
    assert.notEqual(await read(root, "a.py"), PY);
  } finally {
    await client.close();
  }
});

test("wasm tier: one-shot commands ask for the baseline compiler, the server and batch do not; FUZZPATCH_WASM_OPTIMIZE=1 keeps the default", async () => {
  assert.deepEqual(
    ["apply", "replace", undefined, "mcp", "batch"].map((c) => isOneShot(c)),
    [true, true, true, false, false],
  );
  useBaselineWasm({ FUZZPATCH_WASM_OPTIMIZE: "1" });
  assert.equal(baselineWasmAsked(), false);
  useBaselineWasm({});
  assert.equal(baselineWasmAsked(), true);
  // Applied once, before the runtime compiles: then nothing is pending.
  await applyWasmTier();
  assert.equal(baselineWasmAsked(), false);
});

test("CLI apply (spawned, baseline compiler, and with FUZZPATCH_WASM_OPTIMIZE=1): the same check, and a tie broken by syntax", async () => {
  const go = "package main\n\nfunc first() {\n\tif ready {\n\t\tcleanup()\n\t}\n}\n\nfunc second() {\n\tcleanup()\n}\n";
  const { root } = await makeTree({ "a.go": go });
  // Typed with spaces, the find text fits both `cleanup()` lines; a function may follow only the `}` that ends second().
  const edit = JSON.stringify({ path: "a.go", oldString: "    cleanup()\n}", newString: "    cleanup()\n}\n\nfunc extra() {\n    log()\n}" });
  const want = `${go}\nfunc extra() {\n\tlog()\n}\n`;
  for (const optimize of [undefined, "1"]) {
    const saved = process.env.FUZZPATCH_WASM_OPTIMIZE;
    if (optimize === undefined) delete process.env.FUZZPATCH_WASM_OPTIMIZE;
    else process.env.FUZZPATCH_WASM_OPTIMIZE = optimize;
    try {
      const r = await runCli(["apply", "--root", root, "--dry-run", "--json"], root, edit);
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const report = JSON.parse(r.stdout) as { files: { edits: { bySyntax?: boolean; startLine?: number }[]; syntax?: { introduced: unknown[] } }[] };
      assert.equal(report.files[0]?.edits[0]?.bySyntax, true);
      assert.equal(report.files[0]?.edits[0]?.startLine, 10);
      assert.deepEqual(report.files[0]?.syntax?.introduced, []);
      const written = await runCli(["apply", "--root", root], root, edit);
      assert.equal(written.code, 0, written.stderr);
      assert.equal(await read(root, "a.go"), want);
      await writeFile(path.join(root, "a.go"), go);
    } finally {
      if (saved === undefined) delete process.env.FUZZPATCH_WASM_OPTIMIZE;
      else process.env.FUZZPATCH_WASM_OPTIMIZE = saved;
    }
  }
});
