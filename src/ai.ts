/**
 * The AI SDK entry (`fuzzpatch/ai`): the edit tools as a `ToolSet` for the
 * Vercel AI SDK's `generateText` / `streamText`. Each tool runs through
 * `runTool`, so its arguments are read with the same leniencies and its
 * results are the same text; a refused edit throws, which the SDK hands back
 * to the model as a tool error (its message is the text to act on). The
 * `ai` package is an optional peer dependency: only this entry imports it.
 */

import { jsonSchema, type Tool, type ToolSet, tool } from "ai";
import { READ_ONLY_TOOLS, strictToolDefinitions, type ToolName, toolDefinitions } from "./tools/definitions.ts";
import { type RunToolOptions, runTool } from "./tools/run-tool.ts";
import { VersionStore } from "./tools/version-store.ts";

export interface FuzzpatchToolsOptions extends RunToolOptions {
  /**
   * Publish the strict schemas (every property required, optional ones
   * nullable), for providers run with strict tool schemas.
   * @default false
   */
  strict?: boolean;
}

/** A tool's arguments as the model sends them; `runTool` validates them. */
export type FuzzpatchToolInput = Record<string, unknown>;

/** One tool of the set: its input as the model sends it, its result text. */
export type FuzzpatchTool = Tool<FuzzpatchToolInput, string>;

/** Every tool, each present (not optional: `tools.read_file.execute` needs no check under strict). */
export type FuzzpatchTools = Record<ToolName, FuzzpatchTool> & ToolSet;

/** The tools of `readOnly: true`: `read_file` alone. */
export type FuzzpatchReadOnlyTools = Record<"read_file", FuzzpatchTool> & ToolSet;

/**
 * The tools for `generateText({ tools: fuzzpatchTools({ root }) })`. Without
 * `versions`, one store is kept for the tools returned here, so an edit
 * written against a version they served is merged (as the MCP server does).
 * With `readOnly`, only `read_file`.
 */
export function fuzzpatchTools(options: FuzzpatchToolsOptions & { readOnly: true }): FuzzpatchReadOnlyTools;
export function fuzzpatchTools(options: FuzzpatchToolsOptions & { readOnly?: false }): FuzzpatchTools;
/** `readOnly` known only at run time: `read_file` is there, the others may be. */
export function fuzzpatchTools(options: FuzzpatchToolsOptions): FuzzpatchReadOnlyTools & Partial<FuzzpatchTools>;
export function fuzzpatchTools(options: FuzzpatchToolsOptions): FuzzpatchReadOnlyTools & Partial<FuzzpatchTools> {
  const { strict, ...rest } = options;
  const run: RunToolOptions = { ...rest, versions: options.versions ?? new VersionStore() };
  const tools: Partial<FuzzpatchTools> & ToolSet = {};
  for (const def of strict ? strictToolDefinitions : toolDefinitions) {
    if (options.readOnly && !READ_ONLY_TOOLS.has(def.name)) continue;
    tools[def.name] = tool<FuzzpatchToolInput, string>({
      description: def.description,
      inputSchema: jsonSchema<FuzzpatchToolInput>(def.inputSchema),
      execute: async (input) => {
        const result = await runTool(def.name, input, run);
        if (result.isError) throw new Error(result.text);
        return result.text;
      },
    });
  }
  return tools as FuzzpatchReadOnlyTools & Partial<FuzzpatchTools>;
}
