/**
 * Anchored edits in the registry: JSON only (the `edit_lines` tool's
 * arguments, a `{ path, edits }` value whose edits cite line tags, or a
 * peer hashline tool's shape), found by json-edits.ts wherever JSON edits
 * are read. Grammar and leniencies: anchored-parse.ts; placement:
 * anchored-resolve.ts; applying: anchored-apply.ts.
 */
import { applyAnchored } from "./anchored-apply.ts";
import type { AnchoredPayload } from "./anchored-parse.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, SplitResult } from "./types.ts";

function apply(content: string, edit: FileEdit<AnchoredPayload>, ctx: FileApplyContext): FileApplyResult {
  return applyAnchored(content, edit.payload, { path: ctx.path, ...(ctx.versions !== undefined && { versions: ctx.versions }) });
}

export const anchoredFormat: FormatEntry<AnchoredPayload> = Object.freeze({
  name: "anchored",
  summary: 'JSON {"path", "edits": [{"op": "replace", "from": "12#abc", "lines": [...]}]} citing the line tags of read_file with anchors',
  unit: "edit",
  // Only as JSON, which json-edits.ts reads for every format: nothing of its own in prose.
  detect: () => false,
  split: (): SplitResult<AnchoredPayload> => ({ edits: [], errors: [] }),
  apply,
});
