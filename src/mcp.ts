/**
 * The MCP entry: the edit tools as a stdio MCP server. `fuzzpatch mcp` runs
 * `serveMcp`; `createMcpServer` gives one server instance to connect to a
 * transport of your own.
 */

export { createMcpServer, serveMcp } from "./mcp/server.ts";

export type { McpServerOptions } from "./mcp/server.ts";
