/**
 * The OpenAI entry (`fuzzpatch/openai`): the `apply_patch` tool of the
 * Responses API and the Agents SDK, and Codex's freeform `apply_patch` as a
 * tool of your own. Neither `openai` nor `@openai/agents` is imported: the
 * shapes are declared in src/adapters/, and tests check them against both.
 */

export { applyPatchCall, applyPatchOperation, createApplyPatchEditor } from "./adapters/openai.ts";
export { APPLY_PATCH_LARK, applyCodexPatch, codexApplyPatchFunction, codexApplyPatchTool } from "./adapters/codex.ts";

export type { ApplyPatchCallItem, ApplyPatchCallOutput, ApplyPatchEditor, ApplyPatchOperation, ApplyPatchOptions, ApplyPatchResult } from "./adapters/openai.ts";
export type { CodexCustomTool, CodexFunctionTool, CodexPatchResult } from "./adapters/codex.ts";
