import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: "npx", args: ["fuzzpatch", "mcp", "--root", process.cwd()] }));
const edit = { path: "src/greet.js", edits: [{ oldString: "var greeting", newString: "const greeting" }] };
const result = await client.callTool({ name: "edit_file", arguments: edit });
console.log(result.isError, result.structuredContent);
await client.close();
