import Anthropic from "@anthropic-ai/sdk";
import { textEditorCall, textEditorTool } from "fuzzpatch/anthropic";

const anthropic = new Anthropic();
const tools: Anthropic.ToolUnion[] = [textEditorTool({ maxCharacters: 20000 })];
const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Make greet() in src/greet.js use a template string." }];
for (let turn = 0; turn < 20; turn++) {
  const reply = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 4096, messages, tools });
  messages.push({ role: "assistant", content: reply.content });
  if (reply.stop_reason !== "tool_use") break;
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const block of reply.content) {
    if (block.type === "tool_use") results.push({ type: "tool_result", tool_use_id: block.id, ...(await textEditorCall(block.input, { root: process.cwd() })) });
  }
  messages.push({ role: "user", content: results });
}
