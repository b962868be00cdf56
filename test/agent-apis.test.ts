/**
 * The adapters for the vendors' own edit tools, driven through the real SDK
 * packages with no network: the OpenAI Agents SDK runs an agent whose model
 * is a fake that emits apply_patch calls; the `openai` and
 * `@anthropic-ai/sdk` clients talk to a fake `fetch`; and the shapes the
 * adapters declare are assigned to the SDKs' own types (checked by tsc,
 * which compiles this file).
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import Anthropic from "@anthropic-ai/sdk";
import { Agent, type AgentInputItem, applyPatchTool, type Editor, type Model, type ModelRequest, type ModelResponse, run, setTracingDisabled, Usage } from "@openai/agents";
import OpenAI from "openai";
import type { CustomTool, FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { createMemoryUndo, TRUNCATED_MARKER, textEditorCall, textEditorTool } from "../src/anthropic.ts";
import { applyEdits } from "../src/node.ts";
import { applyCodexPatch, applyPatchCall, codexApplyPatchFunction, codexApplyPatchTool, createApplyPatchEditor } from "../src/openai.ts";
import { runTool } from "../src/tools/run-tool.ts";
import { makeTree, read } from "./helpers/temp-tree.ts";

setTracingDisabled(true);

const PY = "class A:\r\n    def run(self):\r\n        return 1\r\n\r\nclass B:\r\n    def run(self):\r\n        return 1\r\n";

// --- OpenAI Agents SDK ----------------------------------------------------------

/** A model that answers each turn from a script and keeps the requests it got. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly turns: AgentInputItem[][]) {}
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.turns.shift() ?? [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }];
    return { usage: new Usage(), output: output as ModelResponse["output"], responseId: `r${this.requests.length}` };
  }
  // biome-ignore lint/correctness/useYield: the runs here are not streamed.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("not streamed");
  }
}

const patchCall = (callId: string, operation: Record<string, unknown>): AgentInputItem => ({ type: "apply_patch_call", callId, status: "completed", operation }) as AgentInputItem;

describe("OpenAI Agents SDK: applyPatchTool({ editor: createApplyPatchEditor({ root }) })", () => {
  test("a run applies the model's operations, keeps CRLF, and hands every result back to the model", async () => {
    const t = await makeTree({ "m.py": PY, "old.txt": "bye\n" });
    const model = new ScriptedModel([
      [
        patchCall("c1", { type: "update_file", path: "m.py", diff: "@@ class B:\n     def run(self):\n-        return 1\n+        return 2\n" }),
        patchCall("c2", { type: "update_file", path: "m.py", diff: "@@\n-        return 1\n+        return 3\n" }),
        patchCall("c3", { type: "create_file", path: "src/new.py", diff: "+print('hi')\n" }),
        patchCall("c4", { type: "delete_file", path: "old.txt" }),
      ],
    ]);
    const editor: Editor = createApplyPatchEditor({ root: t.root });
    const agent = new Agent({ name: "editor", model, tools: [applyPatchTool({ editor })] });
    const result = await run(agent, "edit the files");
    assert.equal(result.finalOutput, "done");
    // c2 comes after c1, when only A's `return 1` is left.
    assert.equal(await read(t.root, "m.py"), PY.replace("return 1", "return 3").replace(/return 1\r\n$/, "return 2\r\n"));
    assert.equal(await read(t.root, "src/new.py"), "print('hi')\n");
    await assert.rejects(read(t.root, "old.txt"));
    // The next request hands each result back to the model.
    const outputs = ((model.requests[1]?.input ?? []) as AgentInputItem[]).filter((i) => i.type === "apply_patch_call_output") as { callId: string; status: string; output?: string }[];
    assert.deepEqual(
      outputs.map((o) => [o.callId, o.status]),
      [
        ["c1", "completed"],
        ["c2", "completed"],
        ["c3", "completed"],
        ["c4", "completed"],
      ],
    );
    assert.match(outputs[0]?.output ?? "", /chunk 1: exact, lines 6-7/);
  });

  test("a chunk that fits two places is failed with both, and nothing is written", async () => {
    const t = await makeTree({ "m.py": PY });
    const editor = createApplyPatchEditor({ root: t.root });
    const r = await editor.updateFile({ type: "update_file", path: "m.py", diff: "@@\n-        return 1\n+        return 2\n" });
    assert.equal(r.status, "failed");
    assert.match(r.output, /AMBIGUOUS[\s\S]*lines 3-3[\s\S]*lines 7-7[\s\S]*"@@" line/);
    assert.equal(await read(t.root, "m.py"), PY);
  });

  const failures: { name: string; files: Record<string, string>; call: (e: ReturnType<typeof createApplyPatchEditor>) => Promise<{ status: string; output: string }>; output: RegExp }[] = [
    { name: "update of a missing file", files: {}, call: (e) => e.updateFile({ type: "update_file", path: "nope.py", diff: "@@\n-a\n+b\n" }), output: /NOT_FOUND|does not exist/ },
    { name: "create over a file with other text", files: { "a.txt": "old\n" }, call: (e) => e.createFile({ type: "create_file", path: "a.txt", diff: "+new\n" }), output: /CONFLICT: create_file: a\.txt already exists[\s\S]*update_file/ },
    { name: "a path out of the root", files: {}, call: (e) => e.createFile({ type: "create_file", path: "../x.txt", diff: "+x\n" }), output: /UNSAFE_PATH/ },
    { name: "a diff that is no V4A", files: { "a.txt": "a\n" }, call: (e) => e.updateFile({ type: "update_file", path: "a.txt", diff: "" }), output: /PARSE[\s\S]*no chunks/ },
    { name: "delete of a missing file", files: {}, call: (e) => e.deleteFile({ type: "delete_file", path: "gone.txt" }), output: /NOT_FOUND/ },
  ];
  for (const c of failures) {
    test(`failed, never thrown: ${c.name}`, async () => {
      const t = await makeTree(c.files);
      const r = await c.call(createApplyPatchEditor({ root: t.root }));
      assert.equal(r.status, "failed");
      assert.match(r.output, c.output);
    });
  }

  test("create_file of the text the file already holds, and a move", async () => {
    const t = await makeTree({ "a.txt": "same\r\n", "b.txt": "x\n" });
    const e = createApplyPatchEditor({ root: t.root });
    const again = await e.createFile({ type: "create_file", path: "a.txt", diff: "+same\n" });
    assert.equal(again.status, "completed");
    assert.match(again.output, /ALREADY_APPLIED/);
    const moved = await e.updateFile({ type: "update_file", path: "b.txt", diff: "@@\n-x\n+y\n", moveTo: "lib/c.txt" });
    assert.equal(moved.status, "completed", moved.output);
    assert.equal(await read(t.root, "lib/c.txt"), "y\n");
  });
});

// --- plain openai SDK: Responses API with a fake fetch ------------------------------

/** A fetch that answers each request with the next JSON body and keeps the bodies it was sent. */
function fakeFetch(replies: unknown[]): { fetch: typeof fetch; sent: unknown[] } {
  const sent: unknown[] = [];
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    sent.push(JSON.parse(String(init?.body ?? "null")));
    return new Response(JSON.stringify(replies.shift()), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

const response = (output: unknown[]) => ({ id: "resp_1", object: "response", created_at: 0, model: "gpt-5", status: "completed", output });

describe("openai SDK: applyPatchCall and the Codex tool definitions", () => {
  test("a Responses loop answers apply_patch_call items with apply_patch_call_output", async () => {
    const t = await makeTree({ "m.py": PY });
    const call = { type: "apply_patch_call", id: "apc_1", call_id: "call_1", status: "completed", operation: { type: "update_file", path: "m.py", diff: "@@ class A:\n-        return 1\n+        return 0\n" } };
    const { fetch, sent } = fakeFetch([response([call]), response([{ type: "message", id: "m", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] }])]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const input: ResponseInputItem[] = [{ role: "user", content: "edit m.py" }];
    for (let turn = 0; turn < 5; turn++) {
      const res = await client.responses.create({ model: "gpt-5", input, tools: [{ type: "apply_patch" }] });
      const calls = res.output.filter((o) => o.type === "apply_patch_call");
      if (calls.length === 0) break;
      for (const c of calls) input.push(c, await applyPatchCall(c, { root: t.root }));
    }
    assert.equal(await read(t.root, "m.py"), PY.replace("return 1", "return 0"));
    const second = sent[1] as { input: { type?: string; call_id?: string; status?: string; output?: string }[] };
    const out = second.input.find((i) => i.type === "apply_patch_call_output");
    assert.equal(out?.call_id, "call_1");
    assert.equal(out?.status, "completed");
    assert.match(out?.output ?? "", /lines 3-3/);
  });

  test("the Codex tool definitions are the SDK's CustomTool and FunctionTool, and the grammar names every marker", () => {
    const custom: CustomTool = codexApplyPatchTool;
    const fn: FunctionTool = codexApplyPatchFunction;
    assert.equal(custom.format?.type, "grammar");
    const grammar = codexApplyPatchTool.format.definition;
    for (const marker of ["*** Begin Patch", "*** End Patch", "*** Add File: ", "*** Delete File: ", "*** Update File: ", "*** Move to: ", "*** End of File", '"@@ "']) {
      assert.ok(grammar.includes(marker), marker);
    }
    assert.deepEqual(fn.parameters?.required, ["input"]);
  });

  test("applyCodexPatch: the custom tool's text, and the function's JSON arguments", async () => {
    const t = await makeTree({ "a.txt": "one\r\ntwo\r\n" });
    const patch = "*** Begin Patch\n*** Environment ID: local\n*** Update File: a.txt\n@@\n one\n-two\n+2\n *** End Patch\n";
    const r = await applyCodexPatch(patch, { root: t.root });
    assert.ok(r.ok, r.output);
    assert.equal(await read(t.root, "a.txt"), "one\r\n2\r\n");
    const again = await applyCodexPatch(JSON.stringify({ input: patch }), { root: t.root });
    assert.ok(again.ok);
    assert.match(again.output, /already/i);
    const bad = await applyCodexPatch({ input: "*** Begin Patch\n*** Update File: a.txt\n@@\n-zzz\n+y\n*** End Patch\n" }, { root: t.root });
    assert.equal(bad.ok, false);
    assert.match(bad.output, /NOT_FOUND/);
  });
});

// --- Anthropic text editor --------------------------------------------------------

const editorCases: { name: string; files: Record<string, string>; input: Record<string, unknown>; error?: boolean; content: RegExp; after?: Record<string, string>; maxCharacters?: number }[] = [
  { name: "view: every line, numbered", files: { "a.py": "x = 1\ny = 2\n" }, input: { command: "view", path: "a.py" }, content: /a\.py \(2 lines\):\n {5}1\tx = 1\n {5}2\ty = 2\n$/ },
  { name: "view: a range to the end (-1)", files: { "a.py": "1\n2\n3\n4\n" }, input: { command: "view", path: "a.py", view_range: [3, -1] }, content: /lines 3-4 of 4\):\n {5}3\t3\n {5}4\t4\n$/ },
  { name: "view: an end past the file reads to its end", files: { "a.py": "1\n2\n" }, input: { command: "view", path: "a.py", view_range: [2, 99] }, content: /lines 2-2 of 2/ },
  { name: "view: a range that starts past the end", files: { "a.py": "1\n" }, input: { command: "view", path: "a.py", view_range: [5, 6] }, error: true, content: /INVALID_INPUT: view_range \[5,6\] starts outside a\.py/ },
  { name: "view: a directory is listed two levels deep, hidden entries left out", files: { "d/x.ts": "", "d/e/y.ts": "", "d/e/f/z.ts": "", "d/.git/c": "" }, input: { command: "view", path: "d" }, content: /d\/e\/\nd\/e\/f\/\nd\/e\/y\.ts\nd\/x\.ts\n$/ },
  { name: "view: the root itself", files: { "a.txt": "" }, input: { command: "view", path: "." }, content: /^\. \(files[^\n]*\n(.*\n)*a\.txt\n$/ },
  { name: "view: cut at max_characters, with the marker", files: { "a.txt": "0123456789\n".repeat(20) }, input: { command: "view", path: "a.txt" }, maxCharacters: 80, content: new RegExp(`^a\\.txt \\(20 lines\\):\\n( +\\d\\t0123456789\\n){3}${TRUNCATED_MARKER.replace(/[<>]/g, "\\$&")}\\n`) },
  { name: "view: a missing file", files: {}, input: { command: "view", path: "no.py" }, error: true, content: /NOT_FOUND: no\.py does not exist/ },
  { name: "create", files: {}, input: { command: "create", path: "src/n.py", file_text: "a\n" }, content: /created/, after: { "src/n.py": "a\n" } },
  { name: "create over other content", files: { "n.py": "x\n" }, input: { command: "create", path: "n.py", file_text: "a\n" }, error: true, content: /CONFLICT/, after: { "n.py": "x\n" } },
  {
    name: "str_replace in a CRLF file keeps CRLF, and shows the lines around",
    files: { "a.py": "def f():\r\n    return 1\r\n" },
    input: { command: "str_replace", path: "a.py", old_str: "return 1", new_str: "return 2" },
    content: /edit 1: exact, lines 2-2\nLines 1-2 of a\.py now:\n {5}1\tdef f\(\):\n {5}2\t {4}return 2\n$/,
    after: { "a.py": "def f():\r\n    return 2\r\n" },
  },
  { name: "str_replace without new_str deletes", files: { "a.txt": "keep\ndrop\n" }, input: { command: "str_replace", path: "a.txt", old_str: "drop\n" }, content: /Applied/, after: { "a.txt": "keep\n" } },
  {
    name: "str_replace: no match is answered with the closest lines",
    files: { "a.py": "def f():\n    return 1\n" },
    input: { command: "str_replace", path: "a.py", old_str: "def g():\n    return 9", new_str: "x" },
    error: true,
    content: /NOT_FOUND[\s\S]*1 \| def f\(\):/,
  },
  {
    name: "str_replace: several matches are answered with their count and lines",
    files: { "a.py": PY },
    input: { command: "str_replace", path: "a.py", old_str: "        return 1", new_str: "        return 2" },
    error: true,
    content: /AMBIGUOUS:\nThe text to replace matches 2 places[\s\S]*lines 3-3[\s\S]*lines 7-7[\s\S]*send one str_replace per place/,
    after: { "a.py": PY },
  },
  { name: "insert: insert_text after a line", files: { "a.txt": "a\r\nc\r\n" }, input: { command: "insert", path: "a.txt", insert_line: 1, insert_text: "b\n" }, content: /insert, lines 2-2/, after: { "a.txt": "a\r\nb\r\nc\r\n" } },
  { name: "insert: new_str at the top (0)", files: { "a.txt": "b\n" }, input: { command: "insert", path: "a.txt", insert_line: 0, new_str: "a" }, content: /Applied/, after: { "a.txt": "a\nb\n" } },
  { name: "insert: past the end", files: { "a.txt": "a\n" }, input: { command: "insert", path: "a.txt", insert_line: 5, insert_text: "z" }, error: true, content: /insert_line" 5 is past the end/ },
  { name: "an unknown command", files: {}, input: { command: "delete", path: "a.txt" }, error: true, content: /Unknown command "delete"\. The commands are: view, create, str_replace, insert, undo_edit/ },
  { name: "no path", files: {}, input: { command: "view" }, error: true, content: /view needs "path"/ },
  { name: "a path out of the root", files: {}, input: { command: "view", path: "../x" }, error: true, content: /UNSAFE_PATH/ },
];

describe("Anthropic text editor: textEditorCall", () => {
  for (const c of editorCases) {
    test(c.name, async () => {
      const t = await makeTree(c.files);
      const r = await textEditorCall(c.input, { root: t.root, ...(c.maxCharacters !== undefined && { maxCharacters: c.maxCharacters }) });
      assert.equal(r.is_error, c.error === true, r.content);
      assert.match(r.content, c.content);
      for (const [rel, want] of Object.entries(c.after ?? {})) assert.equal(await read(t.root, rel), want);
    });
  }

  test("an absolute path inside the root is that file", async () => {
    const t = await makeTree({ "a.txt": "a\n" });
    const r = await textEditorCall({ command: "view", path: path.join(t.root, "a.txt") }, { root: t.root });
    assert.equal(r.is_error, false, r.content);
  });

  test("undo_edit takes back the edits one by one, a created file included, and refuses a file changed since", async () => {
    const t = await makeTree({ "a.txt": "one\r\n" });
    const undo = createMemoryUndo();
    const call = (input: Record<string, unknown>) => textEditorCall(input, { root: t.root, undo });
    await call({ command: "str_replace", path: "a.txt", old_str: "one", new_str: "two" });
    await call({ command: "insert", path: "a.txt", insert_line: 1, insert_text: "three" });
    await call({ command: "create", path: "b.txt", file_text: "new\n" });
    assert.equal(await read(t.root, "a.txt"), "two\r\nthree\r\n");
    assert.match((await call({ command: "undo_edit", path: "a.txt" })).content, /Undid the last edit of a\.txt/);
    assert.equal(await read(t.root, "a.txt"), "two\r\n");
    await call({ command: "undo_edit", path: "a.txt" });
    assert.equal(await read(t.root, "a.txt"), "one\r\n");
    const none = await call({ command: "undo_edit", path: "a.txt" });
    assert.equal(none.is_error, true);
    assert.match(none.content, /no edit of a\.txt to undo/);
    assert.match((await call({ command: "undo_edit", path: "b.txt" })).content, /creation of b\.txt/);
    await assert.rejects(read(t.root, "b.txt"));
    await call({ command: "str_replace", path: "a.txt", old_str: "one", new_str: "uno" });
    await applyEdits(t.root, [{ path: "a.txt", oldString: "uno", newString: "eins" }]);
    const stale = await call({ command: "undo_edit", path: "a.txt" });
    assert.equal(stale.is_error, true);
    assert.match(stale.content, /STALE/);
    assert.equal(await read(t.root, "a.txt"), "eins\r\n");
  });

  test("a Messages loop through @anthropic-ai/sdk: tool_use blocks answered with tool_result, is_error on failure", async () => {
    const t = await makeTree({ "m.py": PY });
    const toolUse = (id: string, input: unknown) => ({ type: "tool_use", id, name: "str_replace_based_edit_tool", input });
    const message = (content: unknown[], stop: string) => ({ id: "msg", type: "message", role: "assistant", model: "claude", content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
    const { fetch, sent } = fakeFetch([
      message(
        [
          toolUse("t1", { command: "str_replace", path: "m.py", old_str: "        return 1", new_str: "        return 2" }),
          toolUse("t2", { command: "str_replace", path: "m.py", old_str: "class B:\n    def run(self):\n        return 1", new_str: "class B:\n    def run(self):\n        return 2" }),
        ],
        "tool_use",
      ),
      message([{ type: "text", text: "done" }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    const tools: Anthropic.ToolUnion[] = [textEditorTool({ maxCharacters: 10000 })];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "edit" }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools });
      messages.push({ role: "assistant", content: reply.content });
      if (reply.stop_reason !== "tool_use") break;
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const block of reply.content) {
        if (block.type === "tool_use") results.push({ type: "tool_result", tool_use_id: block.id, ...(await textEditorCall(block.input, { root: t.root })) });
      }
      messages.push({ role: "user", content: results });
    }
    assert.equal(await read(t.root, "m.py"), PY.replace(/return 1\r\n$/, "return 2\r\n"));
    const second = sent[1] as { messages: { content: { type: string; tool_use_id?: string; is_error?: boolean }[] }[]; tools: { type: string; name: string }[] };
    const results = second.messages[2]?.content ?? [];
    assert.deepEqual(
      results.map((r) => [r.tool_use_id, r.is_error]),
      [
        ["t1", true],
        ["t2", false],
      ],
    );
    assert.deepEqual(second.tools[0], { type: "text_editor_20250728", name: "str_replace_based_edit_tool", max_characters: 10000 });
  });
});

// --- Claude Code's Edit, Write and MultiEdit ----------------------------------------

describe("Claude Code's tools as input of applyEdits and runTool", () => {
  const shapes: { name: string; files: Record<string, string>; input: Record<string, unknown>; ok: boolean; after: Record<string, string> }[] = [
    { name: "Edit", files: { "a.ts": "let a = 1;\r\n" }, input: { file_path: "a.ts", old_string: "a = 1", new_string: "a = 2" }, ok: true, after: { "a.ts": "let a = 2;\r\n" } },
    { name: "Edit with replace_all", files: { "a.ts": "x x x\n" }, input: { file_path: "a.ts", old_string: "x", new_string: "y", replace_all: true }, ok: true, after: { "a.ts": "y y y\n" } },
    { name: "Write over a file", files: { "a.ts": "old\r\n" }, input: { file_path: "a.ts", content: "new\n" }, ok: true, after: { "a.ts": "new\r\n" } },
    {
      name: "MultiEdit: in order, each on the result of the one before",
      files: { "a.ts": "a\r\nb\r\n" },
      input: {
        file_path: "a.ts",
        edits: [
          { old_string: "a", new_string: "A" },
          { old_string: "A\nb", new_string: "A\nB" },
        ],
      },
      ok: true,
      after: { "a.ts": "A\r\nB\r\n" },
    },
    {
      name: "MultiEdit: one edit fails, none is written",
      files: { "a.ts": "a\nb\n" },
      input: {
        file_path: "a.ts",
        edits: [
          { old_string: "a", new_string: "A" },
          { old_string: "zzz", new_string: "Z" },
        ],
      },
      ok: false,
      after: { "a.ts": "a\nb\n" },
    },
  ];
  for (const c of shapes) {
    test(`apply (JSON): ${c.name}`, async () => {
      const t = await makeTree(c.files);
      const r = await applyEdits(t.root, JSON.stringify(c.input));
      assert.equal(r.ok, c.ok, JSON.stringify(r.files));
      for (const [rel, want] of Object.entries(c.after)) assert.equal(await read(t.root, rel), want);
    });
    test(`runTool("${c.name.split(/[: ]/)[0]}"): ${c.name}`, async () => {
      const t = await makeTree(c.files);
      const r = await runTool(c.name.split(/[: ]/)[0] as string, c.input, { root: t.root });
      assert.equal(r.isError, !c.ok, r.text);
      for (const [rel, want] of Object.entries(c.after)) assert.equal(await readFile(path.join(t.root, rel), "utf8"), want);
    });
  }
});
