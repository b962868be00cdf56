/**
 * Codex's `apply_patch` as a tool of your own agent: the freeform (custom)
 * tool whose input is constrained by a Lark grammar, and the JSON function
 * variant for providers without custom tools. Both carry a whole V4A patch
 * (`*** Begin Patch` ... `*** End Patch`, grammar in formats/v4a-parse.ts),
 * applied by `applyCodexPatch` through the file layer.
 */
import { EditError } from "../errors.ts";
import { applyEdits } from "../node.ts";
import type { ApplyPatchOptions } from "./openai.ts";
import { describeResult } from "../tools/result-text.ts";

/**
 * The patch grammar in Lark, as OpenAI's grammar-constrained custom tools
 * take it: the grammar of v4a-parse.ts without its leniencies (the model is
 * held to the strict form; the reader still accepts the slips). No
 * `*** Environment ID:` line: this tool edits one root.
 */
export const APPLY_PATCH_LARK = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

const DESCRIPTION = [
  "Edit files with a patch. The input is the whole patch: `*** Begin Patch`, then one section per file, then `*** End Patch`.",
  "`*** Add File: PATH` is followed by the new file's lines, each after `+`. `*** Delete File: PATH` deletes. `*** Update File: PATH` (optionally followed by `*** Move to: NEW_PATH`) is followed by chunks:",
  "an `@@` line (or `@@ ` and a line of the file the change comes after, such as a class or function header), then the chunk's lines: ` ` unchanged context, `-` removed, `+` added. Give about 3 lines of context above and below each change.",
  "Paths are relative to the project root. A chunk that cannot be placed with certainty is refused with the closest lines of the file; nothing is written unless every chunk applies.",
].join(" ");

/** The freeform tool (Responses API `type: "custom"`), its input held to the patch grammar. */
export interface CodexCustomTool {
  type: "custom";
  name: "apply_patch";
  description: string;
  format: { type: "grammar"; syntax: "lark"; definition: string };
}

/** The same tool as a JSON function (Responses API `type: "function"`), the patch in `input`. */
export interface CodexFunctionTool {
  type: "function";
  name: "apply_patch";
  description: string;
  strict: true;
  parameters: {
    type: "object";
    properties: { input: { type: "string"; description: string } };
    required: ["input"];
    additionalProperties: false;
  };
}

export const codexApplyPatchTool: CodexCustomTool = Object.freeze({
  type: "custom",
  name: "apply_patch",
  description: DESCRIPTION,
  format: Object.freeze({ type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK }),
}) as CodexCustomTool;

export const codexApplyPatchFunction: CodexFunctionTool = Object.freeze({
  type: "function",
  name: "apply_patch",
  description: DESCRIPTION,
  strict: true,
  parameters: {
    type: "object",
    properties: { input: { type: "string", description: "The whole patch, from `*** Begin Patch` to `*** End Patch`." } },
    required: ["input"],
    additionalProperties: false,
  },
}) as CodexFunctionTool;

/** What `applyCodexPatch` answers: the text for the model (a `custom_tool_call_output` / `function_call_output`), and whether every chunk applied. */
export interface CodexPatchResult {
  ok: boolean;
  output: string;
}

/**
 * Applies the input of an `apply_patch` call: the patch text (custom
 * tool), or the function's arguments (`{"input": "..."}`, as an object or
 * its JSON text). Never throws: a refusal is `ok: false` with its reason.
 */
export async function applyCodexPatch(input: string | { input: string }, options: ApplyPatchOptions): Promise<CodexPatchResult> {
  try {
    const patch = patchOf(input);
    const result = await applyEdits(options.root, patch, {
      format: "v4a",
      ...(options.preset !== undefined && { preset: options.preset }),
      ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
      ...(options.dryRun !== undefined && { dryRun: options.dryRun }),
    });
    const fuzzy = result.files.some((f) => f.edits.some((e) => e.fuzzy === true));
    return { ok: result.ok, output: describeResult(fuzzy ? result : { ...result, diff: "" }).text };
  } catch (error) {
    const e = error instanceof EditError ? error : new EditError("IO", `internal error: ${(error as Error)?.message ?? String(error)}`);
    return { ok: false, output: `${e.code}: ${e.message}\n` };
  }
}

function patchOf(input: unknown): string {
  let value = input;
  // The function variant's arguments arrive as JSON text: `{"input": "*** Begin Patch..."}`.
  if (typeof value === "string" && value.trimStart().startsWith("{")) {
    try {
      value = JSON.parse(value);
    } catch {
      // Not JSON: the patch itself.
    }
  }
  if (typeof value === "string") return value;
  const inner = (value as { input?: unknown } | null)?.input;
  if (typeof inner === "string") return inner;
  throw new EditError("INVALID_INPUT", 'apply_patch needs the patch text, or arguments {"input": "*** Begin Patch ... *** End Patch"}.');
}
