import OpenAI from "openai";
import { applyCodexPatch, codexApplyPatchTool } from "fuzzpatch/openai";

const openai = new OpenAI();
let response = await openai.responses.create({ model: "gpt-5.1-codex", input: "Rename greet() to hello() in src/greet.js.", tools: [codexApplyPatchTool] });
for (let turn = 0; turn < 20; turn++) {
  const outputs: OpenAI.Responses.ResponseInputItem[] = [];
  for (const item of response.output) {
    if (item.type !== "custom_tool_call" || item.name !== "apply_patch") continue;
    const { output } = await applyCodexPatch(item.input, { root: process.cwd() });
    outputs.push({ type: "custom_tool_call_output", call_id: item.call_id, output });
  }
  if (outputs.length === 0) break;
  response = await openai.responses.create({ model: "gpt-5.1-codex", previous_response_id: response.id, input: outputs, tools: [codexApplyPatchTool] });
}
