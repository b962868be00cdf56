/**
 * fuzzpatch/ai end to end with the AI SDK's own mock model (ai/test): the
 * model calls a tool, the SDK runs it, and the next model call receives the
 * result. An edit lands on disk; a refused edit comes back to the model as a
 * tool error carrying fuzzpatch's message, and writes nothing.
 */

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { generateText, simulateReadableStream, stepCountIs, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { fuzzpatchTools } from "../src/ai.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

// The model-side types, as the mock model declares them.
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type Prompt = MockLanguageModelV3["doGenerateCalls"][number]["prompt"];
type StreamPart = Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;

const GREET = 'function greet(name) {\n    return "hello " + name;\n}\n';
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls `toolName` with `input` first, then answers in text. */
function modelCalling(toolName: string, input: unknown): MockLanguageModelV3 {
  const first: GenerateResult = {
    content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: undefined },
    usage,
    warnings: [],
  };
  const second: GenerateResult = { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
  return new MockLanguageModelV3({ doGenerate: [first, second] });
}

/** What the second model call was told about the tool call: the tool message's output. */
function toolOutputSent(prompt: Prompt | undefined): { type: string; value?: unknown } | undefined {
  for (const message of prompt ?? []) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") return part.output as { type: string; value?: unknown };
  }
  return undefined;
}

test("ai: generateText runs edit_file; the edit lands on disk and the result text goes back to the model", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const model = modelCalling("edit_file", { path: "greet.js", edits: [{ oldString: 'return "hello " + name;', newString: "return 'hello, ' + name;" }] });
  const result = await generateText({ model, tools: fuzzpatchTools({ root: t.root }), prompt: "greet with a comma", stopWhen: stepCountIs(2) });
  assert.equal(result.text, "done");
  assert.equal(await readFile(path.join(t.root, "greet.js"), "utf8"), GREET.replace('"hello " + name', "'hello, ' + name"));
  const toolResult = result.steps[0]?.content.find((p) => p.type === "tool-result");
  assert.match(String(toolResult?.output), /^Applied 1 edit to greet\.js\./);
  const sent = toolOutputSent(model.doGenerateCalls[1]?.prompt);
  assert.equal(sent?.type, "text");
  assert.match(String(sent?.value), /now sha256 [0-9a-f]{64}/);
  // The model saw the four tools with their JSON Schemas.
  const offered = model.doGenerateCalls[0]?.tools ?? [];
  assert.deepEqual(
    offered.map((x) => x.name),
    ["read_file", "edit_file", "edit_lines", "apply_diff", "create_file", "undo_edit", "apply_snippet"],
  );
  const edit = offered.find((x) => x.name === "edit_file");
  assert.ok(edit?.type === "function" && (edit.inputSchema as { required?: string[] }).required?.includes("edits"));
});

test("ai: a refused edit is a tool error the model reads, and nothing is written", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const before = await snapshot(t.base);
  const model = modelCalling("edit_file", { path: "greet.js", edits: [{ oldString: "return goodbye;", newString: "return 1;" }] });
  const result = await generateText({ model, tools: fuzzpatchTools({ root: t.root }), prompt: "edit", stopWhen: stepCountIs(2) });
  const error = result.steps[0]?.content.find((p) => p.type === "tool-error");
  assert.ok(error, "a tool-error part");
  assert.match(String((error.error as Error).message), /NOT_FOUND/);
  const sent = toolOutputSent(model.doGenerateCalls[1]?.prompt);
  assert.equal(sent?.type, "error-text");
  assert.match(String(sent?.value), /Nothing was written[\s\S]*NOT_FOUND/);
  assert.deepEqual(await snapshot(t.base), before);
});

test("ai: streamText, read-only and strict variants", async () => {
  const t = await makeTree({ "greet.js": GREET });
  const chunks: StreamPart[] = [
    { type: "tool-call", toolCallId: "call-1", toolName: "read_file", input: JSON.stringify({ path: "greet.js", offset: null, limit: null, anchors: null }) },
    { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
  ];
  const model = new MockLanguageModelV3({ doStream: { stream: simulateReadableStream({ chunks }) } });
  const tools = fuzzpatchTools({ root: t.root, readOnly: true, strict: true });
  assert.deepEqual(Object.keys(tools), ["read_file"]);
  const result = streamText({ model, tools, prompt: "read" });
  const parts = [];
  for await (const part of result.fullStream) parts.push(part);
  const toolResult = parts.find((p) => p.type === "tool-result");
  assert.match(String(toolResult?.output), /1→function greet\(name\) \{/);
  const offered = model.doStreamCalls[0]?.tools?.[0];
  assert.ok(offered?.type === "function");
  assert.deepEqual((offered.inputSchema as { required?: string[] }).required, ["path", "offset", "limit", "anchors"]);
});
