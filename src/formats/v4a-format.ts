/**
 * Codex V4A patches in a model's response (grammar in v4a-parse.ts): every
 * `*** Begin Patch` block, fenced or bare, one edit per file operation.
 * Update chunks are located by the shared engine like diff hunks (whole
 * lines, in file order), each after the line its `@@` anchors name; Add File
 * creates, Delete File deletes, Move to renames through the file layer.
 */
import { applyOps } from "../engine/apply-ops.ts";
import type { EditOp } from "../engine/ops.ts";
import { resolveOptions } from "../engine/options.ts";
import type { Vocabulary } from "../match/vocabulary.ts";
import { EditError } from "../errors.ts";
import { leadingWhitespace } from "../text/normalize.ts";
import { Document } from "../text/document.ts";
import { collapseWhitespace, normalizePunctuation } from "../text/normalize.ts";
import { alreadyAppliedNote } from "./already-applied.ts";
import { missingFile } from "./file-errors.ts";
import { blockText } from "./rejects.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, OpOutcome, ResponseText, SplitResult } from "./types.ts";
import { isBeginPatch, parseV4A, patchExtent, type V4AChunk, type V4AFileOp } from "./v4a-parse.ts";

export type V4APayload = V4AFileOp;

const VOCABULARY: Vocabulary = Object.freeze({
  find: "the chunk's old side (its ' ' and '-' lines)",
  replacement: "the chunk's new side (its ' ' and '+' lines)",
  moreContext: "Add unchanged lines above or below the change as ' ' context lines",
  disambiguate: () => `, or put an "@@" line before the chunk naming the line that encloses it (@@ class Foo, @@ def bar():).`,
  emptyFind: `the chunk only adds lines and has no context lines, so there is nothing to find its place by. Add unchanged lines from above or below the insertion point as ' ' context lines, or an "@@" line naming the line it follows.`,
  emptyFindAt: (after: number) => `the chunk only adds lines, after line ${after}`,
});

function detect(text: string): boolean {
  return text.split("\n").some(isBeginPatch);
}

function split(response: ResponseText): SplitResult<V4APayload> {
  const out: SplitResult<V4APayload> = { edits: [], errors: [] };
  const { lines, fences, consumed } = response;
  for (let i = 0; i < lines.length; i++) {
    if (consumed.has(i) || !isBeginPatch(lines[i] as string)) continue;
    // A patch in a fence ends with it, and the fence is not another format's.
    const fence = fences.find((f) => f.open < i && i < f.close);
    let limit = fence ? fence.close : lines.length;
    for (let k = i + 1; k < limit; k++) {
      if (consumed.has(k)) {
        limit = k;
        break;
      }
    }
    const { end } = patchExtent(lines, i, limit);
    if (fence) {
      consumed.add(fence.open);
      consumed.add(fence.close);
    }
    for (let k = i; k < end; k++) consumed.add(k);
    try {
      for (const op of parseV4A(lines, i, end)) out.edits.push({ format: "v4a", path: op.path, line: op.line, payload: op });
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      out.errors.push(error);
    }
    i = end - 1;
  }
  return out;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);

/**
 * The anchor's line at or after `from`: the first line equal to it, else
 * equal with surrounding whitespace ignored, else with dashes, quotes and
 * runs of spaces normalised, else the first line that starts with it at a
 * word boundary (`def bar(` names `def bar(self, x):`). Codex takes the
 * first match after the previous chunk; so does this.
 */
export function findAnchor(fileLines: readonly string[], anchor: string, from: number): number | undefined {
  const loose = (s: string) => collapseWhitespace(normalizePunctuation(s)).trim();
  const a = loose(anchor);
  const levels: ((line: string) => boolean)[] = [
    (l) => l === anchor,
    (l) => l.trim() === anchor.trim(),
    (l) => loose(l) === a,
    (l) => {
      const t = loose(l);
      return a !== "" && t.startsWith(a) && !(isWordChar(a.at(-1)) && isWordChar(t[a.length]));
    },
  ];
  for (const matches of levels) {
    for (let i = from; i < fileLines.length; i++) if (matches(fileLines[i] as string)) return i;
  }
  return undefined;
}

function unprefixedNote(c: V4AChunk): string | undefined {
  const u = c.unprefixed;
  if (u.length === 0) return undefined;
  return `Patch line${u.length > 1 ? "s" : ""} ${u.join(", ")} had no ' ', '-' or '+' prefix and ${u.length > 1 ? "were" : "was"} read as unchanged context; if that text is not in the file, give each chunk line its prefix.`;
}

/**
 * The first line at or after `from` equal to `anchor`, or with `trimmed`
 * equal to it once both are trimmed (findAnchor's first two levels), found
 * by searching the text: no line array for a file whose anchors are written
 * as its lines are (Codex and models copy the line, often without its
 * indentation).
 */
export function lineEqual(doc: Document, anchor: string, from: number, trimmed: boolean): number | undefined {
  const find = trimmed ? anchor.trim() : anchor;
  if (find === "" || !doc.hasLine(from)) return undefined;
  const text = doc.text;
  const start = doc.lineStart(from);
  for (let at = text.indexOf(find, start); at !== -1; at = text.indexOf(find, at + 1)) {
    const end = at + find.length;
    const lineStart = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = text.indexOf("\n", end);
    if (lineEnd === -1) lineEnd = text.length;
    if (!trimmed && (lineStart !== at || lineEnd !== end)) continue;
    // What trim() drops is what \s matches (white space and line terminators).
    if (trimmed && !(ONLY_SPACE.test(text.slice(lineStart, at)) && ONLY_SPACE.test(text.slice(end, lineEnd)))) continue;
    return doc.lineAt(lineStart);
  }
  return undefined;
}

const ONLY_SPACE = /^\s*$/;

/**
 * 0-based line where the scope of anchor line `at` ends: for a line that
 * opens a block (the next non-blank line is deeper), the next non-blank line
 * indented no deeper; for any other line (`@@         y = 2`), the end of the
 * block it stands in, the next non-blank line shallower than it. Two equal
 * places there are ambiguous (issue 32: a chunk under a plain anchor line took
 * the first of two).
 */
function scopeEndOf(doc: Document, at: number): number {
  const depth = leadingWhitespace(doc.line(at)).length;
  let next = at + 1;
  while (doc.hasLine(next) && doc.line(next).trim() === "") next++;
  const opens = doc.hasLine(next) && leadingWhitespace(doc.line(next)).length > depth;
  let i = at + 1;
  for (; doc.hasLine(i); i++) {
    const l = doc.line(i);
    const d = leadingWhitespace(l).length;
    if (l.trim() !== "" && (opens ? d <= depth : d < depth)) return i;
  }
  return i;
}

/** The op of one chunk; `after` is the 0-based line of its last anchor. */
function chunkOp(c: V4AChunk, index: number, after: number | undefined, lineCount: () => number, scopeEnd?: number): EditOp {
  const label = `Chunk ${index + 1} (patch line ${c.line})`;
  // A chunk of added lines only goes after its anchor, or (as Codex does) at the end of the file.
  const insertAt = c.old.length === 0 ? (after === undefined ? lineCount() + 1 : after + 2) : undefined;
  const notes = [
    unprefixedNote(c),
    after === undefined ? undefined : `The chunk was searched from line ${after + 1}, where its "@@ ${c.anchors.at(-1)}" line was found.`,
  ].filter((n) => n !== undefined);
  return {
    readings: [{ find: c.old.join("\n"), replace: c.new.join("\n"), lines: { find: c.old, replace: c.new } }],
    hints: {
      inOrder: true,
      ...(insertAt !== undefined && { startLine: insertAt }),
      ...(after !== undefined && { after }),
      ...(scopeEnd !== undefined && { scopeEnd }),
      ...(c.endOfFile && { endOfFile: true }),
    },
    origin: { index, line: c.line, label },
    overlap: "merge",
    ...(notes.length > 0 && { notFoundNote: notes.join(" ") }),
    requireChange: false,
  };
}

function anchorMissing(c: V4AChunk, index: number, anchor: string, path: string, from: number): EditError {
  const where = from > 0 ? ` after line ${from}` : "";
  return new EditError(
    "NOT_FOUND",
    `Chunk ${index + 1} (patch line ${c.line}): its anchor "@@ ${anchor}" matches no line of ${path}${where}. Copy after "@@" a line of the file that comes before the change (its class or function header), or send the chunk with more ' ' context lines and a bare "@@".`,
    { index, line: c.line },
  );
}

function applyUpdate(content: string, op: Extract<V4AFileOp, { kind: "update" }>, ctx: FileApplyContext): FileApplyResult {
  const doc = Document.from(content);
  // The file as lines only for an anchor not written as its line is: splitting 200k lines cost
  // more than the rest of a one-chunk patch (and their garbage was collected during the write).
  let fileLines: readonly string[] | undefined;
  const anchorLine = (anchor: string, from: number) => {
    const at = lineEqual(doc, anchor, from, false) ?? lineEqual(doc, anchor, from, true);
    if (at !== undefined) return at;
    fileLines ??= doc.lines(0, doc.lineCount);
    return findAnchor(fileLines, anchor, from);
  };
  const ops: EditOp[] = [];
  const outcomes: { index: number; outcome: OpOutcome }[] = [];
  let cursor = 0;
  for (const [k, c] of op.chunks.entries()) {
    let after: number | undefined;
    let missing: EditError | undefined;
    for (const anchor of c.anchors) {
      const at = anchorLine(anchor, cursor);
      if (at === undefined) {
        missing = anchorMissing(c, k, anchor, ctx.path, cursor);
        break;
      }
      after = at;
      cursor = at + 1;
    }
    if (missing) outcomes.push({ index: k, outcome: { status: "failed", error: missing } });
    else ops.push(chunkOp(c, k, after, () => doc.lineCount, after === undefined ? undefined : scopeEndOf(doc, after)));
  }
  const moved = op.moveTo === undefined ? {} : { moveTo: op.moveTo };
  if (op.chunks.length === 0) return { content, ...moved, ops: [{ status: "applied", strategy: "move", fuzzy: false }] };
  const report = applyOps(content, ops, { opts: resolveOptions(ctx.options), vocab: VOCABULARY });
  for (const a of report.applied) {
    outcomes.push({
      index: a.op.origin.index,
      outcome: { status: "applied", strategy: a.strategy, startLine: a.startLine, endLine: a.endLine, score: a.score, fuzzy: a.fuzzy },
    });
  }
  for (const f of report.failed) outcomes.push({ index: f.op.origin.index, outcome: { status: "failed", error: f.error } });
  const sorted = outcomes.sort((x, y) => x.index - y.index).map((o) => (ctx.keepApplied === true ? keptApart(o.outcome, op.chunks[o.index]) : o.outcome));
  const changed = { content: report.content, ...(report.change && { changes: [report.change] }), ...moved };
  if (ctx.keepApplied === true) return { ...changed, ops: sorted };
  return sorted.some((o) => o.status === "failed") ? { ops: sorted } : { ...changed, ops: sorted };
}

/**
 * `--reject`: a failed chunk that replaces lines goes to the .rej as a
 * SEARCH/REPLACE block of its old and new lines (its anchors were only
 * where to look); one that only adds lines has no such form. A chunk whose
 * new lines already stand is already applied.
 */
function keptApart(outcome: OpOutcome, chunk: V4AChunk | undefined): OpOutcome {
  if (outcome.status !== "failed" || !outcome.error || !chunk) return outcome;
  const note = alreadyAppliedNote(outcome.error, "chunk");
  if (note) return { status: "already-applied", note };
  if (chunk.old.length === 0) return outcome;
  return { ...outcome, rejected: { kind: "block", text: blockText(chunk.old.join("\n"), chunk.new.join("\n")) } };
}

function apply(content: string, edit: FileEdit<V4APayload>, ctx: FileApplyContext): FileApplyResult {
  const op = edit.payload;
  if (op.kind === "add") {
    const created = op.lines.length === 0 ? "" : `${op.lines.join("\n")}\n`;
    if (ctx.exists && content.replace(/\r\n/g, "\n") === created) throw new EditError("ALREADY_APPLIED", `already applied (${ctx.path} exists with exactly the text this patch adds); nothing to do.`);
    if (ctx.exists) {
      throw new EditError("CONFLICT", `"*** Add File: ${op.path}" creates ${ctx.path}, but the file already exists. Send "*** Update File: ${op.path}" with chunks against its current content instead.`);
    }
    return { content: created, ops: [{ status: "applied", strategy: "create", startLine: 1, endLine: op.lines.length, score: 1, fuzzy: false }] };
  }
  if (op.kind === "delete") {
    if (!ctx.exists) {
      const hint = ctx.pathHint === undefined ? "" : ` (${ctx.pathHint})`;
      throw new EditError("NOT_FOUND", `"*** Delete File: ${op.path}": ${ctx.path} does not exist, so there is nothing to delete; check the path${hint}.`, { path: ctx.path });
    }
    return { content: "", deleted: true, ops: [{ status: "applied", strategy: "delete", fuzzy: false }] };
  }
  if (!ctx.exists) throw missingFile(ctx.path, `"*** Add File: ${op.path}" with its lines as "+" lines`, ctx.pathHint);
  return applyUpdate(content, op, ctx);
}

export const v4aFormat: FormatEntry<V4APayload> = Object.freeze({
  name: "v4a",
  unit: "chunk",
  summary: "a Codex patch: *** Begin Patch, *** Update/Add/Delete File, @@ anchors, *** End Patch",
  detect,
  split,
  apply,
});
