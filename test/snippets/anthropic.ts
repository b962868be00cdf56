import Anthropic from "@anthropic-ai/sdk";
import { runTool, toolDefinitions } from "fuzzpatch/tools";

const anthropic = new Anthropic();
const tools: Anthropic.Tool[] = toolDefinitions.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Make greet() in src/greet.js use a template string." }];
for (let turn = 0; turn < 20; turn++) {
  const reply = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 4096, messages, tools });
  messages.push({ role: "assistant", content: reply.content });
  if (reply.stop_reason !== "tool_use") break;
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const block of reply.content) {
    if (block.type !== "tool_use") continue;
    const result = await runTool(block.name, block.input, { root: process.cwd() });
    results.push({ type: "tool_result", tool_use_id: block.id, content: result.text, is_error: result.isError });
  }
  messages.push({ role: "user", content: results });
}
