/**
 * SEARCH/REPLACE blocks in a model's response: the file name line before
 * each block (or the `<apply_diff>` tool call) says which file they edit;
 * see search-replace-files.ts for that grammar and search-replace-parse.ts
 * for the blocks. Read from the lines no other format took.
 */
import { EditError } from "../errors.ts";
import { missingFile } from "./file-errors.ts";
import { unescapeWholeText } from "../text/unescape-whole.ts";
import { blockText } from "./rejects.ts";
import { applySearchReplaceWithChanges } from "./search-replace.ts";
import { parseSearchReplace } from "./search-replace-parse.ts";
import { looksLikeSearchReplace, parseSearchReplaceFiles } from "./search-replace-files.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, OpOutcome, ResponseText, SplitResult } from "./types.ts";

export interface SearchReplacePayload {
  /** One or more SEARCH/REPLACE blocks for this file. */
  diff: string;
  startLine?: number;
  /** Lines of the response before the diff text (0 when unknown). */
  offset: number;
}

/**
 * 1-based line of `text` where a diff starts: where its whole text occurs,
 * else where its first content line (after the SEARCH marker) does. Marker
 * lines alone would match every block.
 */
function lineOf(text: string, diff: string): number | undefined {
  let at = text.indexOf(diff);
  if (at === -1) {
    const content = diff.split("\n").find((l) => l.trim() !== "" && !/^\s*(<{5,}|={5,}|>{5,}|:start_line:|-{3,}$)/.test(l));
    if (content === undefined) return undefined;
    at = text.indexOf(content);
    if (at === -1) return undefined;
  }
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function split(response: ResponseText): SplitResult<SearchReplacePayload> {
  const out: SplitResult<SearchReplacePayload> = { edits: [], errors: [] };
  const rest = response.lines.map((l, k) => (response.consumed.has(k) ? "" : l)).join("\n");
  if (!looksLikeSearchReplace(rest)) return out;
  try {
    for (const file of parseSearchReplaceFiles(rest, response.defaultPath === undefined ? {} : { defaultPath: response.defaultPath })) {
      for (const d of file.diffs) {
        // The parser's line when it has one: searching the response from the top for every diff is quadratic in its size.
        const line = d.line ?? lineOf(rest, d.content);
        const payload = { diff: d.content, ...(d.startLine !== undefined && { startLine: d.startLine }), offset: line === undefined ? 0 : line - 1 };
        out.edits.push({ format: "search-replace", path: file.path, ...(line !== undefined && { line }), payload });
      }
    }
  } catch (error) {
    if (!(error instanceof EditError)) throw error;
    out.errors.push(error);
  }
  return out;
}

function apply(content: string, edit: FileEdit<SearchReplacePayload>, ctx: FileApplyContext): FileApplyResult {
  const { startLine, offset } = edit.payload;
  const { result, changes, literal } = applySearchReplaceWithChanges(content, edit.payload.diff, { ...ctx.options, ...(startLine !== undefined && { startLine }), ...(offset > 0 && { lineOffset: offset }) });
  // On a missing file every SEARCH fails against empty text; say what is really wrong.
  if (!ctx.exists && !result.applied.some((a) => a.strategy === "create")) throw missingFile(ctx.path, "an empty SEARCH section", ctx.pathHint);
  const ops: OpOutcome[] = [];
  for (const a of result.applied) {
    ops.push({ status: "applied", strategy: a.strategy, startLine: a.startLine, endLine: a.endLine, score: a.score, fuzzy: a.fuzzy, ...(a.resolvedBy && { resolvedBy: a.resolvedBy }) });
  }
  for (const note of result.alreadyApplied) ops.push({ status: "already-applied", note });
  if (ctx.keepApplied !== true) {
    for (const error of result.failed) ops.push({ status: "failed", error });
    return result.complete ? { content: result.content, ...(changes && { changes, ...(literal && { literal }) }), ops } : { ops };
  }
  // --reject: the blocks that applied are kept, each failed one goes to the .rej as the model wrote it.
  const blocks = result.failed.length > 0 ? parseSearchReplace(unescapeWholeText(edit.payload.diff).text) : [];
  for (const error of result.failed) {
    const block = blocks.find((b) => b.index === error.detail.index);
    ops.push({ status: "failed", error, ...(block && { rejected: { kind: "block", text: blockText(block.search, block.replace) } }) });
  }
  return { content: result.content, ...(changes && { changes, ...(literal && { literal }) }), ops };
}

export const searchReplaceFormat: FormatEntry<SearchReplacePayload> = Object.freeze({
  name: "search-replace",
  summary: "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE blocks after the file's path",
  unit: "block",
  detect: looksLikeSearchReplace,
  split,
  apply,
});
