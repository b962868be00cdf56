// The pure core: string in, string out, no file system. The file layer is src/node.ts.
export { EditError, isEditError } from "./errors.ts";
export { createPatch } from "./formats/create-patch.ts";
export { formatDiffForDisplay } from "./formats/display-diff.ts";
export { applyLineEdits } from "./formats/line-edits.ts";
export { applyLazyEdit } from "./lazy/apply-lazy-edit.ts";
// replace, applySearchReplace and applyPatch take a text or an editor (createEditor) of one.
export { applyPatch, applySearchReplace, createEditor, replace } from "./formats/editor.ts";
export { type ParsePatchOptions, parsePatch } from "./formats/unified-parse.ts";
export { lineTag } from "./text/line-tags.ts";
export { applyV4A } from "./formats/v4a-section.ts";

export type { EditErrorCode, EditErrorDetail, LineRange } from "./errors.ts";
export type { LineEdit } from "./formats/anchored-parse.ts";
export type { Editor } from "./formats/editor.ts";
export type { CreatePatchOptions } from "./formats/create-patch.ts";
export type { LineEditReport, LineEditsOptions, LineEditsResult } from "./formats/line-edits.ts";
export type { LazyEditOptions, LazyEditResult } from "./lazy/apply-lazy-edit.ts";
export type { MergeStats } from "./lazy/merge.ts";
export type {
  BlockReport,
  SearchReplaceInput,
  SearchReplaceOptions,
  SearchReplaceResult,
} from "./formats/search-replace.ts";
export type { MatchReport, ReplaceOptions, ReplaceResult } from "./formats/str-replace.ts";
export type { AmbiguousHunk, ApplyPatchOptions, HunkCandidate, HunkReport, PatchResult } from "./formats/unified-apply.ts";
export type { FilePatch, Hunk, HunkLine } from "./formats/unified-parse.ts";
export type { PresetName } from "./match/cascade.ts";
export type { SyntaxJudge } from "./engine/syntax-decide.ts";
export type { ApplyV4AOptions, ChunkReport, V4AResult } from "./formats/v4a-section.ts";
export type { StrategyName } from "./match/types.ts";
