import { runTool } from "fuzzpatch/tools";

// A Claude Code tool call (Edit, MultiEdit or Write) from a transcript or a hook, applied as a tool would.
const result = await runTool("Edit", { file_path: "src/greet.js", old_string: "var greeting", new_string: "const greeting" }, { root: process.cwd() });
console.log(result.isError ? "refused:" : "applied:", result.text);
