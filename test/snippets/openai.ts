import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { runTool, strictToolDefinitions } from "fuzzpatch/tools";

const openai = new OpenAI();
const tools: ChatCompletionTool[] = strictToolDefinitions.map((t) => ({
  type: "function",
  function: { name: t.name, description: t.description, parameters: t.inputSchema, strict: true },
}));
const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Make greet() in src/greet.js use a template string." }];
for (let turn = 0; turn < 20; turn++) {
  const message = (await openai.chat.completions.create({ model: "gpt-5", messages, tools })).choices[0]?.message;
  if (!message?.tool_calls?.length) break;
  messages.push(message);
  for (const call of message.tool_calls) {
    if (call.type !== "function") continue;
    const result = await runTool(call.function.name, call.function.arguments, { root: process.cwd() });
    messages.push({ role: "tool", tool_call_id: call.id, content: result.text });
  }
}
