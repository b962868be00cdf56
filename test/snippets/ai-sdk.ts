import { generateText, stepCountIs } from "ai";
import { fuzzpatchTools } from "fuzzpatch/ai";

const { text } = await generateText({
  model: "anthropic/claude-sonnet-4.5",
  tools: fuzzpatchTools({ root: process.cwd() }),
  stopWhen: stepCountIs(20),
  prompt: "Make greet() in src/greet.js use a template string.",
});
console.log(text);
