import OpenAI from "openai";
import { type ApplyPatchCallOutput, applyPatchCall } from "fuzzpatch/openai";

const openai = new OpenAI();
const tools: OpenAI.Responses.Tool[] = [{ type: "apply_patch" }];
let response = await openai.responses.create({ model: "gpt-5.1", input: "Make greet() in src/greet.js use a template string.", tools });
for (let turn = 0; turn < 20; turn++) {
  const outputs: ApplyPatchCallOutput[] = [];
  for (const item of response.output) if (item.type === "apply_patch_call") outputs.push(await applyPatchCall(item, { root: process.cwd() }));
  if (outputs.length === 0) break;
  response = await openai.responses.create({ model: "gpt-5.1", previous_response_id: response.id, input: outputs, tools });
}
