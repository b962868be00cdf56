/**
 * The Anthropic entry (`fuzzpatch/anthropic`): the Messages API's text
 * editor tool answered by fuzzpatch. `@anthropic-ai/sdk` is not imported:
 * the shapes are declared in src/adapters/anthropic.ts, and tests check
 * them against the SDK's own.
 */

export { TRUNCATED_MARKER, textEditorCall, textEditorTool } from "./adapters/anthropic.ts";
export { createMemoryUndo } from "./adapters/edit-undo.ts";

export type { TextEditorOptions, TextEditorResult, TextEditorTool } from "./adapters/anthropic.ts";
export type { EditUndo, WriteRecord } from "./adapters/edit-undo.ts";
