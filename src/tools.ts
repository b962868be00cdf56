/**
 * The edit tools as plain data and one function, for agents that register
 * tools through their own function calling (OpenAI, Anthropic, ...) instead
 * of MCP. The MCP server (`src/mcp.ts`) serves the same definitions.
 */

export { strictToolDefinitions, toolDefinitions } from "./tools/definitions.ts";
export { runTool } from "./tools/run-tool.ts";
export { VersionStore } from "./tools/version-store.ts";
export { FileCache } from "./fs/file-cache.ts";

export type { ToolAnnotations, ToolDefinition, ToolName } from "./tools/definitions.ts";
export type { JsonSchema, JsonSchemaObject, JsonSchemaType } from "./tools/json-schema.ts";
export type { ToolResult } from "./tools/result-text.ts";
export type { EditData, FileData, ReadToolOutput, ToolErrorData, WriteToolOutput } from "./tools/result-data.ts";
export type { RunToolOptions } from "./tools/run-tool.ts";
