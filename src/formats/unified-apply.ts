/**
 * `applyPatch()`: a unified diff or fuzzy unified diff (`@@ @@`) for ONE
 * file, applied on the shared engine (see unified-parse.ts for the grammar).
 *
 * How a patch is applied:
 *
 * 1. Parse. A patch for several files is INVALID_INPUT (the file layer,
 *    `applyEdits`, splits those). `--- /dev/null` applies to empty content
 *    only (CONFLICT otherwise); `+++ /dev/null` must remove every line and
 *    yields "".
 * 2. Locate every hunk's old side (context and `-` lines, as lines) in the
 *    ORIGINAL content, through the preset's cascade: every tolerance of
 *    `replace()` applies, and the deleted lines and the trailing context are
 *    checked like the leading context. A candidate must cover whole lines: a
 *    hunk line is a line, never a piece of one (`foo()` does not match inside
 *    `x = foo()`; only blank space may surround it, as re-indentation).
 * 3. Several candidates are narrowed, in this order, and only a single
 *    survivor is taken:
 *    - order: hunks come top to bottom, so the one candidate starting at or
 *      after the line where the previous hunk ended wins (the spec: hunks
 *      "should be processed in order");
 *    - `\ No newline at end of file`: the one candidate ending the file;
 *    - the header's old-start line (a standard diff), shifted by how far the
 *      previous hunk was from its own header line: a candidate starting
 *      exactly there, else `pickByHint` (clearly the nearest);
 *    - file boundary: a hunk with less context before its change than after
 *      it, and fewer than three lines, belongs at the start of the file, and
 *      the reverse at the end (diff(1) writes short context only there);
 *    - `resolveAmbiguity`, when given (the CLI asks the user).
 *    Otherwise AMBIGUOUS with every remaining candidate: never guess. With
 *    the default preset an ambiguous strategy stops the cascade, as in
 *    `locate()`.
 * 4. Splice each hunk's new side with the shared splice: unchanged lines keep the
 *    file's bytes, added lines are re-indented to the file's indentation.
 *    Hunks that overlap (share a line) are merged line by line when they
 *    agree — a line deleted by one and kept as context by the other is
 *    deleted, insertions at one place must be identical — and are a
 *    CONFLICT otherwise. Adjacent hunks are independent.
 * 5. Every hunk is located before anything is applied, and all failures
 *    are reported together: one EditError whose message lists each failed
 *    hunk ("Hunk 2 (patch line 14): ...", with the closest text and how it
 *    differs) and whose `detail.failures` holds each one's code and detail.
 *    The error's code is the first failure's.
 *
 * Special hunks:
 * - Context only: verifies (fails if absent), changes nothing.
 * - Additions only, no context: there is nothing to locate, so it is valid
 *   only in an empty (new) file, or with a numbered header
 *   (`@@ -12,0 +13,2 @@` inserts after line 12); otherwise PARSE.
 * - Deletions only: located like any other hunk (the removed lines are the
 *   text to find). The fuzzy-diff spec calls this an invalid hunk, but
 *   `createPatch` with `context: 0` writes it and it is unambiguous when
 *   found once, so it is accepted.
 *
 * Final newline: a hunk whose old and new sides differ in
 * `\ No newline at end of file` sets the file's final newline exactly, and
 * must then end at the end of the file. Otherwise the file keeps its own
 * final newline (or lack of one) whatever lines are added or removed at its
 * end: models rarely write the marker, and deleting the first or last line
 * must not change it. Line endings and BOM are the file's (CRLF stays CRLF).
 */
import { readsTheSame } from "../engine/already-applied.ts";
import { applyOps } from "../engine/apply-ops.ts";
import { withOrigin } from "../engine/op-messages.ts";
import { alreadyAppliedNote } from "./already-applied.ts";
import { hunkText } from "./rejects.ts";
import type { AppliedOp, EditOp, FailedOp, Reading } from "../engine/ops.ts";
import { checkLine, type EngineOptions, optionsObject, resolveOptions } from "../engine/options.ts";
import type { Vocabulary } from "../match/vocabulary.ts";
import { EditError, type EditErrorCode } from "../errors.ts";
import { checkLimit } from "../limits.ts";
import type { StrategyName } from "../match/types.ts";
import { Document } from "../text/document.ts";
import { isBlank } from "../text/normalize.ts";
import type { TextChange } from "../text/common-ends.ts";
import { unescapeWholeText } from "../text/unescape-whole.ts";
import { type FilePatch, type Hunk, type HunkLine, readPatch } from "./unified-parse.ts";
import { count } from "../text/plural.ts";

/** A place where an ambiguous hunk may go; 1-based inclusive lines of the original content. */
export interface HunkCandidate {
  startLine: number;
  endLine: number;
  strategy: StrategyName;
  score: number;
}

/** The hunk a `resolveAmbiguity` callback is asked about. */
export interface AmbiguousHunk {
  /** 0-based position of the hunk in the patch. */
  index: number;
  /** 1-based line of its header in the patch text. */
  line: number;
  /** Its old side (context and removed lines), joined with "\n". */
  oldText: string;
  /** Its new side (context and added lines), joined with "\n". */
  newText: string;
}

export interface ApplyPatchOptions extends EngineOptions {
  /**
   * Called when a hunk still matches several places after order, line
   * hints and file boundaries were considered. Return the index of the
   * candidate to use, or undefined to refuse (the hunk then fails as
   * AMBIGUOUS). Synchronous; an index out of range counts as a refusal.
   * @default undefined (an ambiguous hunk fails)
   */
  resolveAmbiguity?: ((candidates: readonly HunkCandidate[], hunk: AmbiguousHunk) => number | undefined) | undefined;
  /**
   * Apply the hunks that can be placed even when others cannot (`apply
   * --reject`): those are returned in `rejected` instead of thrown, and a
   * hunk whose new side already stands is in `skipped`, not a failure. A
   * patch that deletes the file still fails whole.
   * @default false
   */
  keepApplied?: boolean;
}

/** How one hunk was applied. Lines are 1-based inclusive lines of the original content. */
export interface HunkReport {
  /** 0-based position of the hunk in the patch. */
  index: number;
  /** 1-based line of the hunk header in the patch text (plus `lineOffset`). */
  line: number;
  /** The cascade strategy that found it; "create" in an empty file, "line-hint" for an insertion placed by its header. */
  strategy: StrategyName | "create" | "line-hint";
  /** First line of the old side; for a hunk without old lines, the line before which it inserts. */
  startLine: number;
  /** Last line of the old side; `startLine - 1` for a hunk without old lines. */
  endLine: number;
  /** 1 for exact (after normalisation), lower for similarity matches. */
  score: number;
  /** Found by a strategy other than exact text: worth a look. */
  fuzzy: boolean;
  /** The hunk adds or removes lines (false: a context-only check). */
  changed: boolean;
  /** What chose among several candidates, when there were several. */
  resolvedBy?: "order" | "end-of-file" | "line-hint" | "boundary" | "syntax" | "callback";
  /** Merged with an overlapping hunk before applying. */
  merged: boolean;
  /** Things to look at although the hunk applied (lines it wrote twice). */
  warnings?: string[];
}

export interface PatchResult {
  content: string;
  hunks: HunkReport[];
  /**
   * Every hunk's result already stands in the content (the patch was
   * applied before): `content` is unchanged, `hunks` is empty, and this note
   * (code ALREADY_APPLIED) says where. A patch with some hunks applied
   * before and others not is an error: the model must see the mismatch.
   */
  alreadyApplied?: EditError;
  /** The patch text had no real line breaks and was un-escaped (`\n` written literally). */
  unescaped?: boolean;
  /** With `keepApplied`: the hunks not applied, each with its error and its text for a `.rej` file. */
  rejected?: { index: number; error: EditError; text: string }[];
  /** With `keepApplied`: hunks applied before (their new side stands), each with its ALREADY_APPLIED note. */
  skipped?: { index: number; note: EditError }[];
}

const VOCABULARY: Vocabulary = Object.freeze({
  find: "the hunk's old side (its ' ' and '-' lines)",
  replacement: "the hunk's new side (its ' ' and '+' lines)",
  moreContext: "Add unchanged lines above or below the change as ' ' context lines",
  disambiguate: () => ", or give the hunk a numbered header (@@ -12,3 +12,4 @@) with the right line.",
  emptyFind:
    "the hunk only adds lines and has no context lines, so there is nothing to find its place by (that is only valid in an empty or new file). Add one or more unchanged lines from above or below the insertion point as context lines, each prefixed with one space.",
  emptyFindAt: (after: number) => `the hunk only adds lines, after line ${after} according to its header`,
});

const oldSide = (h: Hunk) => h.lines.filter((l) => l.kind !== "add").map((l) => l.text);
const newSide = (h: Hunk) => h.lines.filter((l) => l.kind !== "delete").map((l) => l.text);
const hasChanges = (h: Hunk) => h.lines.some((l) => l.kind !== "context");

/** 1-based line where the header says the old side starts (for an empty old side: the line it inserts before). */
function headerStart(h: Hunk): number | undefined {
  if (h.oldStart === undefined || !Number.isSafeInteger(h.oldStart)) return undefined;
  return h.oldLines === 0 ? h.oldStart + 1 : Math.max(1, h.oldStart);
}

function contextRuns(h: Hunk): { leading: number; trailing: number } {
  const first = h.lines.findIndex((l) => l.kind !== "context");
  if (first === -1) return { leading: h.lines.length, trailing: h.lines.length };
  let last = h.lines.length - 1;
  while (last > 0 && h.lines[last]?.kind === "context") last--;
  return { leading: first, trailing: h.lines.length - 1 - last };
}

/**
 * Context lines that lost their prefix make the ` `-prefixed ones suspect
 * too: ` x` may be the file's line ` x` (the spec's example:
 * `    // ... processing code` is the file's 4-space line, not ` ` + 3 spaces).
 * The applier splices with this reading when it equals more file lines.
 */
function wholeReading(h: Hunk): Reading | undefined {
  if (!h.lines.some((l) => l.unprefixed)) return undefined;
  const whole = h.lines.map((l) => (l.kind === "context" && !l.unprefixed ? ` ${l.text}` : l.text));
  const find = whole.filter((_, k) => h.lines[k]?.kind !== "add");
  const replace = whole.filter((_, k) => h.lines[k]?.kind !== "delete");
  return { find: find.join("\n"), replace: replace.join("\n"), lines: { find, replace } };
}

function unprefixedNote(h: Hunk): string | undefined {
  const u = h.unprefixedLines;
  if (!u || u.length === 0) return undefined;
  return `Patch line${u.length > 1 ? "s" : ""} ${u.join(", ")} had no ' ', '-' or '+' prefix and ${u.length > 1 ? "were" : "was"} read as unchanged context; if that text is not in the file, give each hunk line its prefix.`;
}

/** The op of one hunk. */
/**
 * GNU patch's fuzz (and jsdiff's `fuzzFactor`): the hunk read again with its
 * outer context lines dropped, one then two from each end (never the line
 * next to the change), when it is found nowhere as written: a context line
 * two lines from the change gained, lost or changed since the diff was made.
 * Exact places only (after the whitespace normalisations), so a shorter
 * hunk never matches a look-alike; a hunk whose new side already stands is
 * already applied, not applied again (engine/apply-ops.ts).
 */
function fuzzReadings(find: readonly string[], replace: readonly string[], context: { leading: number; trailing: number }): Reading[] {
  const out: Reading[] = [];
  for (const k of [1, 2]) {
    const a = Math.min(k, Math.max(0, context.leading - 1));
    const b = Math.min(k, Math.max(0, context.trailing - 1));
    const f = find.slice(a, find.length - b);
    if ((a === 0 && b === 0) || f.every((l) => l.trim() === "") || out.some((o) => o.find === f.join("\n"))) continue;
    const r = replace.slice(a, replace.length - b);
    out.push({ find: f.join("\n"), replace: r.join("\n"), lines: { find: f, replace: r }, looser: true });
  }
  return out;
}

export function hunkOp(h: Hunk, offset: number): EditOp {
  const find = oldSide(h);
  const replace = newSide(h);
  const context = contextRuns(h);
  const start = headerStart(h);
  const line = h.line + offset;
  const alt = wholeReading(h);
  const note = unprefixedNote(h);
  const eof = h.oldEofNoNewline || h.newEofNoNewline;
  return {
    readings: [{ find: find.join("\n"), replace: replace.join("\n"), lines: { find, replace } }, ...(alt || eof ? [] : fuzzReadings(find, replace, context))],
    ...(alt && { spliceReading: alt }),
    hints: { ...(start !== undefined && { startLine: start }), inOrder: true, ...(eof && { endOfFile: true }), context },
    origin: { index: h.index, line, label: `Hunk ${h.index + 1} (patch line ${line})` },
    overlap: "merge",
    ...(h.oldEofNoNewline !== h.newEofNoNewline && { finalNewline: !h.newEofNoNewline }),
    ...(note && { notFoundNote: note }),
    requireChange: false,
  };
}

function hunkReport(a: AppliedOp, byIndex: ReadonlyMap<number, Hunk>): HunkReport {
  const h = byIndex.get(a.op.origin.index);
  return {
    index: a.op.origin.index,
    line: a.op.origin.line,
    strategy: a.strategy,
    startLine: a.startLine,
    endLine: a.endLine,
    score: a.score,
    fuzzy: a.fuzzy,
    changed: h ? hasChanges(h) : true,
    ...(a.resolvedBy && { resolvedBy: a.resolvedBy }),
    merged: a.merged,
    ...(a.warnings && { warnings: a.warnings }),
  };
}

function failureSummary(failures: readonly FailedOp[], total: number): EditError {
  const first = failures[0] as FailedOp;
  const list = failures.map((f) => ({ index: f.op.origin.index, code: f.error.code, message: f.error.message, ...f.error.detail }));
  const code: EditErrorCode = first.error.code;
  // `hunks`: the file layer tells "every hunk was applied before" from "some were".
  const where = { index: first.op.origin.index, line: first.op.origin.line, failures: list, hunks: total };
  if (failures.length === 1) {
    const others = total - 1;
    const tail = others > 0 ? `\nNothing was applied (the other ${others} hunk${others > 1 ? "s were" : " was"} found). Send the whole patch again with this hunk fixed.` : "";
    return new EditError(code, first.error.message + tail, { ...first.error.detail, ...where });
  }
  const message = [
    `${failures.length} of ${total} hunks failed; nothing was applied. Send the whole patch again with these hunks fixed.`,
    ...failures.map((f) => f.error.message),
  ].join("\n\n");
  return new EditError(code, message, where);
}

/** `keepApplied`: each failed hunk rejected with its own error, or skipped when its new side already stands. */
function keepApart(failed: readonly FailedOp[], texts: ReadonlyMap<number, string>): Required<Pick<PatchResult, "rejected" | "skipped">> {
  const rejected: { index: number; error: EditError; text: string }[] = [];
  const skipped: { index: number; note: EditError }[] = [];
  for (const f of failed) {
    const index = f.op.origin.index;
    const note = alreadyAppliedNote(f.error, "hunk");
    if (note) skipped.push({ index, note: withOrigin(note, f.op) });
    else rejected.push({ index, error: f.error, text: texts.get(index) ?? "" });
  }
  return { rejected, skipped };
}

/** The one file section of a patch (several are the file layer's job). */
function singleFile(files: readonly FilePatch[]): FilePatch | undefined {
  const withHunks = files.filter((f) => f.hunks.length > 0);
  if (withHunks.length > 1) {
    const names = withHunks.map((f) => f.newPath ?? f.oldPath ?? "(no path)").join(", ");
    throw new EditError(
      "INVALID_INPUT",
      `The patch holds ${withHunks.length} files (${names}); applyPatch applies a patch for one file. Use the files layer (applyEdits) for multi-file patches, or send one file's hunks.`,
      { files: withHunks.length },
    );
  }
  return withHunks[0] ?? files[0];
}

/**
 * A diff adds or removes a file's BOM by writing it as text of the first
 * new or old line (createPatch does, and `-\uFEFFx` / `+x` is what a byte
 * diff shows). The engine reads a BOM as the file's, not as text, so it is
 * taken off the hunk line here and set on the result; such a hunk must
 * start at line 1. Only the first BOM is the file's: a second one is text
 * of its first line (issue 22, item 11), so an old line holds the file's BOM
 * only when it starts with more BOMs than that text does, and a new line's
 * BOM is the file's when the file has none or the old line held it.
 */
function takeBomChange(content: string, hunks: readonly Hunk[]): { index: number; bom: boolean } | undefined {
  const has = content.startsWith(BOM);
  const textBoms = has ? leadingBoms(content) - 1 : 0;
  for (const h of hunks) {
    const firstOld = h.lines.find((l) => l.kind !== "add");
    const firstNew = h.lines.find((l) => l.kind !== "delete");
    const oldBom = has && firstOld !== undefined && leadingBoms(firstOld.text) > textBoms;
    // A kept line's BOM is text the file has already (`\u3000` removed above a line that is a BOM): only an added one is new.
    const newBom = firstNew === firstOld ? oldBom : firstNew?.kind === "add" && firstNew.text.startsWith(BOM) && (!has || oldBom);
    if (!oldBom && !newBom) continue;
    // The old line without the file's BOM, as the engine reads the file.
    let old = firstOld;
    if (oldBom && firstOld?.kind === "context" && firstNew !== firstOld) {
      // Lines are added above the line that held the file's BOM: that line is no longer first, so the
      // new file has its BOMs as text of it. It is matched without the file's BOM and written with all.
      old = { kind: "delete", text: firstOld.text.slice(1) };
      h.lines.splice(h.lines.indexOf(firstOld), 1, old, { kind: "add", text: firstOld.text });
    } else if (oldBom && firstOld) firstOld.text = firstOld.text.slice(1);
    // A file that is only its BOM has no line: the removed "line" was the BOM alone, and its missing final
    // newline was that of the empty file (the hunk now adds to an empty file, as `@@ -0,0` does).
    if (oldBom && old?.kind === "delete" && old.text === "" && content.length === 1) {
      h.lines.splice(h.lines.indexOf(old), 1);
      h.oldEofNoNewline = false;
    }
    if (newBom && firstNew && firstNew !== firstOld) firstNew.text = firstNew.text.slice(1);
    return oldBom === newBom ? undefined : { index: h.index, bom: newBom };
  }
  return undefined;
}

const BOM = "\uFEFF";

function leadingBoms(text: string): number {
  let n = 0;
  while (text.charCodeAt(n) === 0xfeff) n++;
  return n;
}

/** The last line of a hunk that is not of kind `other` (-1: none). */
function lastIndexOf(lines: readonly HunkLine[], other: HunkLine["kind"]): number {
  for (let k = lines.length - 1; k >= 0; k--) if (lines[k]?.kind !== other) return k;
  return -1;
}

function settleLineCrs(content: string, hunks: readonly Hunk[]): void {
  if (!hunks.some((h) => h.lines.some((l) => l.text.endsWith("\r")))) return;
  const crs = Document.from(content).breakCrs;
  if (crs === 0) return;
  for (const h of hunks) {
    const lastOld = h.oldEofNoNewline ? lastIndexOf(h.lines, "add") : -1;
    const lastNew = h.newEofNoNewline ? lastIndexOf(h.lines, "delete") : -1;
    h.lines.forEach((l, k) => {
      if (k === lastOld || k === lastNew || !l.text.endsWith("\r")) return;
      let end = l.text.length;
      while (end > 0 && l.text.length - end < crs && l.text.charCodeAt(end - 1) === 13) end--;
      l.text = l.text.slice(0, end);
    });
  }
}

function checkOptions(options: unknown) {
  const o = optionsObject<ApplyPatchOptions & { lineOffset?: number }>(options);
  if (o.resolveAmbiguity !== undefined && typeof o.resolveAmbiguity !== "function") {
    throw new EditError("INVALID_INPUT", "resolveAmbiguity must be a function.");
  }
  return { o, opts: resolveOptions(o), offset: checkLine(o.lineOffset, "lineOffset") ?? 0 };
}

function checkDeleted(output: string): void {
  if (isBlank(output.replace(/^\uFEFF/, ""))) return;
  const left = Document.from(output).lineCount;
  throw new EditError(
    "CONFLICT",
    `The patch deletes the file (+++ /dev/null), but ${count(left, "line")} of the file ${left === 1 ? "is" : "are"} not among its removed lines; the file holds more than the patch shows. Send every line as a removed line, or a patch that edits the file.`,
  );
}

/**
 * Applies a unified or fuzzy unified diff for one file to `content`.
 * Returns the new content and a report per hunk; throws EditError when the
 * patch cannot be parsed or any hunk cannot be placed (nothing is applied).
 */
export function applyPatch(content: string, patchText: string, options: ApplyPatchOptions = {}): PatchResult {
  return applyPatchWithChange(content, patchText, options).result;
}

/** `applyPatch`, and what it changed as one range of `content` when the engine said so (for the file layer; not exported by the package). */
export function applyPatchWithChange(content: string, patchText: string, options: ApplyPatchOptions = {}): { result: PatchResult; change?: TextChange } {
  for (const [name, value] of [
    ["content", content],
    ["patchText", patchText],
  ] as const) {
    if (typeof value !== "string") {
      throw new EditError("INVALID_INPUT", `${name} must be a string, got ${value === null ? "null" : typeof value}.`);
    }
  }
  const { o, opts, offset } = checkOptions(options);
  checkLimit("maxResponseSize", patchText.length, opts.limits);
  const whole = unescapeWholeText(patchText);
  const file = singleFile(readPatch(whole.text, opts.budget));
  const hunks = file?.hunks ?? [];
  // Before an op is built for each (applyOps checks it too, after that work: 20,000 hunks spent a third of their time there).
  checkLimit("maxEdits", hunks.length, opts.limits);
  if (file?.isNew && content !== "") {
    throw new EditError(
      "CONFLICT",
      "The patch creates the file (--- /dev/null), but the file already has content. Send a patch against its current content instead.",
    );
  }
  // Written before the hunks are adjusted to the file (CRs, BOM): a .rej shows them as the patch had them.
  const patchLines = o.keepApplied === true ? whole.text.split("\n") : undefined;
  const texts = patchLines && new Map(hunks.map((h) => [h.index, hunkText(h, patchLines[h.line - 1], h === hunks.at(-1))]));
  settleLineCrs(content, hunks);
  const bomChange = takeBomChange(content, hunks);
  const ask = o.resolveAmbiguity;
  const report = applyOps(
    content,
    hunks.map((h) => hunkOp(h, offset)),
    {
      opts,
      vocab: VOCABULARY,
      ...(ask && {
        ask: (op: EditOp, pool: readonly { startLine: number; endLine: number; strategy: StrategyName; score: number }[]) => {
          const h = hunks.find((x) => x.index === op.origin.index);
          if (!h) return undefined;
          const cands = pool.map((c) => ({ startLine: c.startLine + 1, endLine: c.endLine, strategy: c.strategy, score: c.score }));
          return ask(cands, { index: h.index, line: h.line, oldText: oldSide(h).join("\n"), newText: newSide(h).join("\n") });
        },
      }),
    },
  );
  let kept: Required<Pick<PatchResult, "rejected" | "skipped">> | undefined;
  if (report.failed.length > 0) {
    const error = failureSummary(report.failed, hunks.length);
    const done = alreadyAppliedNote(error, "hunk");
    if (done) return { result: { content, hunks: [], alreadyApplied: done } };
    if (texts === undefined || file?.isDeleted) throw error;
    kept = keepApart(report.failed, texts);
  }
  // By index: looked up per applied hunk, a search of the list was quadratic (2,000 hunks: ~15 ms).
  const byIndex = new Map(hunks.map((h) => [h.index, h]));
  const reports = report.applied.map((a) => hunkReport(a, byIndex)).sort((a, b) => a.index - b.index);
  if (bomChange && !kept?.rejected.some((r) => r.index === bomChange.index)) {
    const first = reports.find((r) => r.index === bomChange.index);
    if (first?.startLine !== 1) {
      const what = bomChange.bom ? "adds" : "removes";
      throw new EditError("NOT_FOUND", `Hunk ${bomChange.index + 1} ${what} the file's byte order mark, so it must start at line 1, but it was found at line ${first?.startLine}.`);
    }
    // The engine kept the file's own BOM (or its absence); a second BOM is text and stays.
    if (bomChange.bom && !content.startsWith(BOM)) report.content = `${BOM}${report.content}`;
    else if (!bomChange.bom && report.content.startsWith(BOM)) report.content = report.content.slice(1);
  }
  // The engine's change is of its text; a BOM added or removed here is not in it.
  const change = bomChange ? undefined : report.change;
  const extra = whole.unescaped ? { unescaped: true } : {};
  if (file?.isDeleted) {
    checkDeleted(report.content);
    return { result: { content: "", hunks: reports, ...extra } };
  }
  if (kept) return { result: { content: report.content, hunks: reports, ...extra, ...kept }, ...(change && { change }) };
  if (report.content === content && hunks.some(hasChanges)) {
    const where = reports.map((r) => `hunk ${r.index + 1} at lines ${r.startLine}-${r.endLine}`).join(", ");
    // Each place already reads as its hunk's new side (a final newline added twice, quotes aside): applied before.
    const lines = content.split("\n");
    const stands = reports.every((r) => {
      const h = hunks.find((x) => x.index === r.index);
      return h !== undefined && readsTheSame(lines.slice(r.startLine - 1, r.endLine), newSide(h));
    });
    if (stands) {
      const note = new EditError("ALREADY_APPLIED", `already applied (${where} already read as the patch's new side); nothing to do.`, {
        startLine: reports[0]?.startLine ?? 1,
        endLine: reports[reports.length - 1]?.endLine ?? 0,
      });
      return { result: { content, hunks: [], alreadyApplied: note, ...extra } };
    }
    throw new EditError(
      "NO_CHANGE",
      `Every hunk was found (${where}), but applying them changes nothing: the file already reads that way. Check that the '+' lines hold the intended change.`,
      { candidates: reports.map((r) => ({ startLine: r.startLine, endLine: r.endLine, strategy: r.strategy, score: r.score })) },
    );
  }
  return { result: { content: report.content, hunks: reports, ...extra }, ...(change && { change }) };
}
