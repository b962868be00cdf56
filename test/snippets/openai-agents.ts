import { Agent, applyPatchTool, run } from "@openai/agents";
import { createApplyPatchEditor } from "fuzzpatch/openai";

const agent = new Agent({
  name: "Coder",
  model: "gpt-5.1",
  tools: [applyPatchTool({ editor: createApplyPatchEditor({ root: process.cwd() }) })],
});
const result = await run(agent, "Make greet() in src/greet.js use a template string.");
console.log(result.finalOutput);
