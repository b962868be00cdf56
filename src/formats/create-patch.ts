/**
 * Writes a unified diff from two texts: the standard form with correct
 * `@@ -a,b +c,d @@` numbers by default (what `git apply`, GNU patch and
 * jsdiff accept), or on request the fuzzy form (`@@ @@`, every hunk unique in
 * the old text), which only fuzzy appliers read.
 *
 * Decisions:
 * - Line endings: both texts are diffed as LF-normalised lines (`\r\n` ->
 *   `\n`), and the patch itself always uses `\n`. A file whose only change is
 *   CRLF -> LF therefore yields an empty patch; the applier restores the
 *   target file's own line endings. (A lone `\r` inside a line is content,
 *   except in a text with no `\n` at all, whose CRs are its line breaks.)
 * - Line endings also: a run of CRs before `\n` (`\r\r\n`) is one break.
 * - BOM: the applier keeps a file's BOM and reads none in its text, so a BOM
 *   on both sides is not in the diff; one added is written on the first `+`
 *   line; one removed is not expressed (`applyPatch` keeps it).
 * - Final newline: a text that does not end with `\n` gets
 *   `\ No newline at end of file` after its last line, on the side it belongs
 *   to, exactly as diff(1) writes it; adding or removing the final newline is
 *   a change of that last line.
 * - Headers: `--- <oldPath>` / `+++ <newPath>` are written only when a path
 *   is given (one given path is used for both sides), verbatim: pass
 *   `a/x` / `b/x` for git style or `/dev/null` for a created or deleted
 *   file. Without paths the patch is hunks only, which is what `applyPatch`
 *   takes for one file.
 * - Identical texts give the empty string (no hunks).
 * - Fuzzy hunks on repetitive text: a hunk still not unique after 32 more
 *   lines of context on each side is written with its numbers instead of
 *   growing on (a file of 100k equal lines would need all of them as
 *   context); the patch then mixes `@@ @@` and numbered hunks, which the
 *   parser and applier take as they come.
 * - `format: "v4a"` writes a Codex V4A patch (`*** Begin Patch` /
 *   `*** Update File: path` / `@@` chunks / `*** End Patch`) with the fuzzy
 *   form's unique chunks; a chunk that reaches the end of the old text is
 *   closed by `*** End of File`. V4A has no way to say "no newline at end of
 *   file" or to write a BOM, so texts that differ in either are refused.
 * - A change block is written removals first, then additions, except when
 *   its last removed line starts with `--` and its first added line with
 *   `++`: written in that order they would read as a `---`/`+++` file header,
 *   so such a block is written additions first (same meaning in a unified
 *   diff, and the parser keeps it as one hunk).
 */

import { appendAll } from "../arrays.ts";
import { describeValue, EditError } from "../errors.ts";
import { type Budget, budgetOf } from "../limits.ts";
import { applyChanges } from "../text/change-list.ts";
import { breakCounter, changedPart, changedPartOfChange, type TextChange } from "../text/common-ends.ts";
import { hasCrLines } from "../text/cr-lines.ts";
import { diffLinesBounded } from "../text/line-diff.ts";
import { repeatLengths } from "../text/repeats.ts";

/** Options for {@link createPatch}. */
export interface CreatePatchOptions {
  /**
   * Unchanged lines written before and after each change. Hunks whose
   * context would overlap or touch are merged. In fuzzy mode this is the
   * minimum: context grows until the hunk is unique.
   * @default 3
   */
  context?: number;
  /**
   * Write the fuzzy unified diff: `@@ @@` headers without numbers, and each
   * hunk's context grown until its old side (context and removed lines)
   * occurs exactly once in the old text, comparing lines with surrounding
   * whitespace trimmed, so even a whitespace-tolerant applier finds one
   * place. A hunk that is not unique within 32 more lines of context on each
   * side (repetitive text) keeps its context and is written with its numbers,
   * `@@ -a,b +c,d @@`, which the applier takes as its exact place.
   * `false` writes a standard diff with `@@ -a,b +c,d @@` numbers, which
   * other tools (`git apply`, `patch`) accept: a patch is for them too.
   * @default false
   */
  fuzzy?: boolean;
  /**
   * Path written on the `---` line. When neither path is given, no file
   * headers are written.
   * @default undefined
   */
  oldPath?: string;
  /**
   * Path written on the `+++` line; defaults to `oldPath` when only that is given.
   * @default undefined
   */
  newPath?: string;
  /**
   * `"udiff"`: a unified diff. `"v4a"`: a Codex V4A patch for `path`
   * (`*** Update File: path`); `fuzzy` does not apply (chunks have no numbers).
   * @default "udiff"
   */
  format?: "udiff" | "v4a";
  /**
   * The file a V4A patch updates (required with `format: "v4a"`; defaults to `newPath ?? oldPath`).
   * @default undefined
   */
  path?: string;
  /** A time budget in ms; past it, `TIMEOUT`. @default undefined (none) */
  timeoutMs?: number;
  /** Aborts the call with `TIMEOUT`. @default undefined */
  signal?: AbortSignal;
}

interface ResolvedOptions {
  context: number;
  fuzzy: boolean;
  oldPath: string | undefined;
  newPath: string | undefined;
  format: "udiff" | "v4a";
  path: string | undefined;
  budget: Budget;
}

const DEFAULTS: Readonly<Omit<ResolvedOptions, "budget">> = Object.freeze({
  context: 3,
  fuzzy: false,
  oldPath: undefined,
  newPath: undefined,
  format: "udiff",
  path: undefined,
});

const SIGNATURE = "createPatch(oldText, newText, options?) where options is { context?, fuzzy?, oldPath?, newPath?, format?, path? }";

function resolveOptions(options: unknown): ResolvedOptions {
  // Called the jsdiff way, createPatch("x.js", before, after), the third
  // argument is a string: spread, it became options {0: …} and the diff was
  // of "x.js" against `before`, silently.
  if (options !== undefined && options !== null && (typeof options !== "object" || Array.isArray(options))) {
    const got = Array.isArray(options) ? "an array" : `a ${typeof options}`;
    throw new EditError(
      "INVALID_INPUT",
      `createPatch: the third argument must be an options object, got ${got}. The signature is ${SIGNATURE}; to name the file, pass { oldPath: "a/x.js", newPath: "b/x.js" }.`,
    );
  }
  const o = { ...DEFAULTS, ...(options as CreatePatchOptions | null | undefined) };
  if (!Number.isInteger(o.context) || o.context < 0) {
    throw new EditError("INVALID_INPUT", `createPatch: option 'context' must be a whole number of lines (0 or more), got ${describeValue(o.context)}.`);
  }
  if (o.format !== "udiff" && o.format !== "v4a") {
    throw new EditError("INVALID_INPUT", `createPatch: option 'format' must be "udiff" or "v4a", got ${describeValue(o.format)}.`);
  }
  if (typeof o.fuzzy !== "boolean") {
    throw new EditError("INVALID_INPUT", `createPatch: option 'fuzzy' must be true or false, got ${describeValue(o.fuzzy)}. The signature is ${SIGNATURE}.`);
  }
  for (const key of ["oldPath", "newPath", "path"] as const) {
    // On a header line: one line of text, or the patch would not read back (issue 22, item 5).
    const p = o[key];
    if (p !== undefined && (typeof p !== "string" || /[\r\n]/.test(p))) {
      throw new EditError("INVALID_INPUT", `createPatch: option '${key}' must be a string on one line (a path), got ${describeValue(p)}. The signature is ${SIGNATURE}.`);
    }
  }
  const path = o.path ?? o.newPath ?? o.oldPath;
  if (o.format === "v4a" && (typeof path !== "string" || path.trim() === "" || /[\r\n]/.test(path))) {
    throw new EditError("INVALID_INPUT", "createPatch: a V4A patch needs the file's path on one line: pass { format: \"v4a\", path }.");
  }
  return {
    context: o.context,
    fuzzy: o.format === "v4a" || o.fuzzy,
    oldPath: o.oldPath ?? o.newPath,
    newPath: o.newPath ?? o.oldPath,
    format: o.format,
    path,
    budget: budgetOf(o, "createPatch"),
  };
}

/** A line with whether it is the text's last line lacking a final newline. */
interface Line {
  text: string;
  noEol: boolean;
}

function splitText(text: string): Line[] {
  if (text === "") return [];
  // The applier's document model reads a run of CRs before "\n" as part of the
  // break ("\r\r\n" included), and every CR of a text without "\n" as a break
  // (CR-terminated lines), so the diff does too.
  // (A regular expression over a text without a CR costs a pass over it: most texts skip it.)
  const normalised = hasCrLines(text) ? text.replaceAll("\r", "\n") : text.includes("\r") ? text.replace(/\r+\n/g, "\n") : text;
  const endsWithNewline = normalised.endsWith("\n");
  const parts = (endsWithNewline ? normalised.slice(0, -1) : normalised).split("\n");
  return parts.map((t, i) => ({ text: t, noEol: !endsWithNewline && i === parts.length - 1 }));
}

/** A maximal run of changed lines: old [oldStart, oldEnd) replaced by new [newStart, newEnd). */
interface Region {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

function findRegions(oldLines: Line[], newLines: Line[]): Region[] {
  // Bounded: past an edit length the regions are coarser (one change between the common ends), never wrong.
  // A line never holds "\n", so one marked with it differs from every line with a newline (no new string per line).
  const changes = diffLinesBounded(oldLines, newLines, (l) => (l.noEol ? `${l.text}\n` : l.text));
  const regions: Region[] = [];
  let o = 0;
  let n = 0;
  let open: Region | undefined;
  for (const c of changes) {
    const count = c.value.length;
    if (!c.added && !c.removed) {
      open = undefined;
      o += count;
      n += count;
      continue;
    }
    if (!open) {
      open = { oldStart: o, oldEnd: o, newStart: n, newEnd: n };
      regions.push(open);
    }
    if (c.removed) {
      o += count;
      open.oldEnd = o;
    } else {
      n += count;
      open.newEnd = n;
    }
  }
  return regions;
}

/** A hunk to write: old window [start, end) holding `regions`. */
interface Window {
  start: number;
  end: number;
  regions: Region[];
  /** Its old side occurs once in the old text (fuzzy mode): written `@@ @@`, else with its numbers. */
  unique?: boolean;
}

function groupRegions(regions: Region[], context: number, oldCount: number): Window[] {
  const windows: Window[] = [];
  for (const r of regions) {
    const start = Math.max(0, r.oldStart - context);
    const end = Math.min(oldCount, r.oldEnd + context);
    const last = windows[windows.length - 1];
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
      last.regions.push(r);
    } else {
      windows.push({ start, end, regions: [r] });
    }
  }
  return windows;
}

/**
 * Whether a run of old lines occurs once, comparing lines with surrounding
 * whitespace trimmed (so even a whitespace-tolerant applier finds one place).
 */
class UniquenessIndex {
  private readonly repeat: Int32Array;
  private readonly longest: number;

  /** `longest`: the longest run that will be asked about (the index is built to that depth). */
  constructor(lines: Line[], longest: number) {
    this.longest = longest;
    const idOf = new Map<string, number>();
    const ids = new Int32Array(lines.length);
    lines.forEach((l, i) => {
      const key = l.text.trim();
      let id = idOf.get(key);
      if (id === undefined) {
        id = idOf.size;
        idOf.set(key, id);
      }
      ids[i] = id;
    });
    this.repeat = repeatLengths(ids, longest);
  }

  /** Whether old lines [start, end) (not empty) occur nowhere else; "no" past `longest`, which the index cannot tell (a numbered hunk is still right). */
  isUnique(start: number, end: number): boolean {
    return end - start <= this.longest && end - start > (this.repeat[start] ?? 0);
  }
}

/**
 * Lines of growth on each side past which a unified-diff hunk is written with
 * its numbers instead: on repetitive text (a data file of zeros) uniqueness
 * may need the whole file as context, and a numbered hunk of a few lines says
 * the same with its exact place.
 */
const MAX_GROWTH = 32;

/**
 * Grows the window one line on each side at a time (at most `maxGrowth`)
 * until its lines occur once: the smallest such growth, by binary search (a
 * superset of a unique window is unique, so the test is monotone). Returns
 * false, the window as it was, when no growth within the bound is unique.
 */
function growUntilUnique(w: Window, index: UniquenessIndex, oldCount: number, maxGrowth: number): boolean {
  if (oldCount === 0) return true;
  const s0 = w.start;
  const e0 = w.end;
  // An empty old side (pure insertion with no context) occurs everywhere: take a line first.
  const at = (k: number): [number, number] => {
    let s = Math.max(0, s0 - k);
    let e = Math.min(oldCount, e0 + k);
    if (s === e) {
      if (s > 0) s--;
      else e++;
    }
    return [s, e];
  };
  // Past this growth the window is the whole file: unique by definition.
  let hi = Math.min(maxGrowth, Math.max(s0, oldCount - e0));
  if (!index.isUnique(...at(hi))) return false;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.isUnique(...at(mid))) hi = mid;
    else lo = mid + 1;
  }
  [w.start, w.end] = at(lo);
  return true;
}

/** Merges windows that overlap or touch after growing; the union of a unique window is unique. */
function mergeWindows(windows: Window[]): Window[] {
  // Growing left can carry a window past earlier ones, so merge as sorted intervals.
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  const merged: Window[] = [];
  for (const w of sorted) {
    const last = merged[merged.length - 1];
    if (last && w.start <= last.end) {
      last.end = Math.max(last.end, w.end);
      appendAll(last.regions, w.regions);
      last.regions.sort((a, b) => a.oldStart - b.oldStart || a.newStart - b.newStart);
      last.unique = last.unique || w.unique;
    } else {
      merged.push({ start: w.start, end: w.end, regions: [...w.regions], unique: w.unique });
    }
  }
  return merged;
}

const NO_NEWLINE = "\\ No newline at end of file";
const BOM = "\uFEFF";

function pushLine(out: string[], prefix: string, line: Line): void {
  out.push(prefix + line.text);
  if (line.noEol) out.push(NO_NEWLINE);
}

/**
 * `offset`: lines before `oldLines[0]` cut from the old text, for the numbers;
 * `newOffset`: before `newLines[0]` from the new text (the same, unless
 * earlier changes of the text added or removed lines).
 */
function writeHunk(w: Window, oldLines: Line[], newLines: Line[], fuzzy: boolean, offset = 0, newOffset = offset): string[] {
  const first = w.regions[0];
  // Lines before the first region are equal on both sides, so the new side starts as far before it.
  const newStart = first ? first.newStart - (first.oldStart - w.start) : w.start;
  const body: string[] = [];
  let o = w.start;
  let n = newStart;
  for (const r of w.regions) {
    for (; o < r.oldStart; o++, n++) pushLine(body, " ", oldLines[o] as Line);
    const removed = oldLines.slice(r.oldStart, r.oldEnd);
    const added = newLines.slice(r.newStart, r.newEnd);
    const lastRemoved = removed[removed.length - 1];
    const firstAdded = added[0];
    const looksLikeHeader = lastRemoved?.text.startsWith("--") && !lastRemoved.noEol && firstAdded?.text.startsWith("++");
    if (looksLikeHeader) {
      for (const l of added) pushLine(body, "+", l);
      for (const l of removed) pushLine(body, "-", l);
    } else {
      for (const l of removed) pushLine(body, "-", l);
      for (const l of added) pushLine(body, "+", l);
    }
    o = r.oldEnd;
    n = r.newEnd;
  }
  for (; o < w.end; o++, n++) pushLine(body, " ", oldLines[o] as Line);
  const oldCount = w.end - w.start;
  const newCount = n - newStart;
  if (fuzzy) return ["@@ @@", ...body];
  // diff(1) convention: an empty side names the line before it (0 at the top of the file).
  const oldFrom = offset + (oldCount === 0 ? w.start : w.start + 1);
  const newFrom = newOffset + (newCount === 0 ? newStart : newStart + 1);
  return [`@@ -${range(oldFrom, oldCount)} +${range(newFrom, newCount)} @@`, ...body];
}

/** A hunk side's range as diff(1) and git write it: a count of one is left out (`@@ -0,0 +1 @@`). */
function range(from: number, count: number): string {
  return count === 1 ? String(from) : `${from},${count}`;
}

/**
 * Creates a unified diff turning `oldText` into `newText`: by default the
 * standard form with line numbers (pass `oldPath`/`newPath` for the file
 * headers `git apply` and `patch` need), with `fuzzy: true` the fuzzy form
 * (`@@ @@`, hunks unique in the old text). Returns "" when the texts are
 * equal (after CRLF normalisation). The patch uses "\n" and ends with a
 * newline.
 */
export function createPatch(oldText: string, newText: string, options?: CreatePatchOptions): string {
  return writePatch(oldText, newText, options, true);
}

/**
 * `focus`: a numbered diff looks only at the lines around what differs (the
 * common start and end cut by chunked comparison, text/common-ends.ts): one
 * edit of a 200k-line file cost 115 ms split and diffed whole, 4 ms so. A
 * fuzzy diff needs the whole old text to know that a hunk is unique.
 * `false` is the whole-text path, for the test that both write the same.
 */
export function writePatch(oldText: string, newText: string, options: CreatePatchOptions | undefined, focus: boolean): string {
  if (typeof oldText !== "string" || typeof newText !== "string") {
    throw new EditError("INVALID_INPUT", `createPatch: both texts must be strings. The signature is ${SIGNATURE}.`);
  }
  const opts = resolveOptions(options);
  // The applier reads a BOM as the file's, not as text of its first line, and
  // keeps it: so a BOM on both sides is left out of the diff (written into a
  // context line it made that line differ, and the hunk was placed fuzzily).
  // A BOM added is written as text of the first new line, which the applier
  // writes as it is; a BOM removed as text of the first old line, which the
  // applier reads as "this hunk removes the file's BOM".
  const bothBom = oldText.startsWith(BOM) && newText.startsWith(BOM);
  const a = bothBom ? oldText.slice(1) : oldText;
  const b = bothBom ? newText.slice(1) : newText;
  const part = focus && !opts.fuzzy ? changedPart(a, b, opts.context) : undefined;
  return writeLines(opts, splitText(part ? part.a : a), splitText(part ? part.b : b), part ? part.offset : 0, () => [oldText, newText]);
}

/**
 * The patch of two texts' characters as `git diff` writes them: lines split at
 * "\n" only, so a CR before it and a BOM stay text of their lines (`-two\r`,
 * ` \uFEFFalpha`). Applied by `git apply` or by fuzzpatch it gives back the
 * exact bytes, which the LF-normalised form of createPatch does not for a
 * CRLF or BOM file: the file layer's report (what `apply --dry-run` prints)
 * uses it for those.
 */
export function createExactPatch(oldText: string, newText: string, options?: CreatePatchOptions): string {
  const opts = resolveOptions(options);
  return writeLines(opts, splitExact(oldText), splitExact(newText), 0, () => [oldText, newText]);
}

function splitExact(text: string): Line[] {
  if (text === "") return [];
  const endsWithNewline = text.endsWith("\n");
  const parts = (endsWithNewline ? text.slice(0, -1) : text).split("\n");
  return parts.map((t, i) => ({ text: t, noEol: !endsWithNewline && i === parts.length - 1 }));
}

/**
 * `createPatch(oldText, newText, options)` where `newText` is `oldText` with
 * `change` made, without reading `newText` whole (the file layer's report of
 * one edit: the engine returns the new text as a rope over the old one, and
 * reading it copies all of it). The same patch, byte for byte.
 */
export function createPatchOfChange(oldText: string, change: TextChange, options?: CreatePatchOptions): string {
  const opts = resolveOptions(options);
  const whole = () => writePatch(oldText, oldText.slice(0, change.start) + change.text + oldText.slice(change.end), options, true);
  // A BOM (kept out of the diff when both texts have one) and the fuzzy form's whole-text index take the long way.
  if (opts.fuzzy || oldText.startsWith(BOM)) return whole();
  const part = changedPartOfChange(oldText, change, opts.context);
  if (!part) return whole();
  return writeLines(opts, splitText(part.a), splitText(part.b), part.offset, () => [oldText, oldText.slice(0, change.start) + change.text + oldText.slice(change.end)]);
}

/** Changes merged with the part before them in `createPatchOfChanges` before the whole texts are diffed instead. */
const MAX_MERGES = 64;

/**
 * `createPatch(oldText, newText, options)` where `newText` is `oldText` with
 * `changes` made (sorted ranges of it, apart: text/change-list.ts), from the
 * changed parts alone: a file edited in two places is not split and diffed
 * from the first place to the last. Parts whose hunks would touch are diffed
 * as one, so the hunks are those of the whole-text diff wherever the lines
 * between the parts pair only with each other (always, unless a line diff
 * could pair a moved line across them; the patch is right either way).
 */
export function createPatchOfChanges(oldText: string, changes: readonly TextChange[], options?: CreatePatchOptions): string {
  if (changes.length === 1) return createPatchOfChange(oldText, changes[0] as TextChange, options);
  const opts = resolveOptions(options);
  if (changes.length === 0 || opts.fuzzy || oldText.startsWith(BOM)) return writePatch(oldText, applyChanges(oldText, changes), options, true);
  const breaksBefore = breakCounter(oldText);
  // Each change's part, in order; one whose context meets the part before it is merged with that change into one
  // change from the first's start to the second's end, and that again with the one before while they meet (as
  // merging the first such pair and starting over would, without parting every change again per merge: 2,000
  // changes of 1 MB took 0.5-0.8 s so).
  const parts: { change: TextChange; oldLines: Line[]; newLines: Line[]; offset: number }[] = [];
  let merges = 0;
  for (let change of changes) {
    for (;;) {
      // A window of 256 characters each side first (it grows where the cut needs more, the same cut): the default
      // 4 kB copied and compared 16 kB a change, ~0.1 ms each, 2,000 changes of 1 MB ~250 ms warm (now ~40).
      const part = changedPartOfChange(oldText, change, opts.context, 256, breaksBefore);
      // A CR next to a change: the whole texts, as createPatchOfChange does.
      if (!part) return writePatch(oldText, applyChanges(oldText, changes), options, true);
      const last = parts[parts.length - 1];
      if (last && part.offset <= last.offset + last.oldLines.length) {
        // Each merge parts the merged change again, which grows: 1,991 edits every other line of 185 kB merged into
        // one part ~2,000 times, ~550 ms. Past MAX_MERGES the whole texts are diffed once, the same patch.
        if (++merges > MAX_MERGES) return writePatch(oldText, applyChanges(oldText, changes), options, true);
        parts.pop();
        const a = last.change;
        change = { start: a.start, end: change.end, text: a.text + oldText.slice(a.end, change.start) + change.text };
        continue;
      }
      parts.push({ change, oldLines: splitText(part.a), newLines: splitText(part.b), offset: part.offset });
      break;
    }
  }
  const out: string[] = [];
  let added = 0;
  for (const { oldLines, newLines, offset } of parts) {
    opts.budget.check("the diff");
    for (const w of groupRegions(findRegions(oldLines, newLines), opts.context, oldLines.length)) {
      appendAll(out, writeHunk(w, oldLines, newLines, false, offset, offset + added));
    }
    added += newLines.length - oldLines.length;
  }
  if (out.length === 0) return "";
  if (opts.oldPath !== undefined && opts.newPath !== undefined) out.unshift(`--- ${opts.oldPath}`, `+++ ${opts.newPath}`);
  return `${out.join("\n")}\n`;
}

/** The patch of two texts' lines (cut to what differs, `offset` lines from their start); `texts`: the whole texts, for a V4A patch's checks. */
function writeLines(opts: ResolvedOptions, oldLines: Line[], newLines: Line[], offset: number, texts: () => [string, string]): string {
  const regions = findRegions(oldLines, newLines);
  if (regions.length === 0) return "";
  opts.budget.check("the diff");
  let windows = groupRegions(regions, opts.context, oldLines.length);
  if (opts.fuzzy) {
    // V4A chunks have no line numbers: they grow as far as uniqueness needs.
    const maxGrowth = opts.format === "v4a" ? Number.POSITIVE_INFINITY : MAX_GROWTH;
    // A window grows by at most maxGrowth on each side, plus a line when empty.
    let widest = 0;
    for (const w of windows) widest = Math.max(widest, w.end - w.start);
    const index = new UniquenessIndex(oldLines, Math.min(oldLines.length, widest + 2 * maxGrowth + 1));
    // A window that overlaps or touches one already grown merges with it, and a
    // window holding a unique one is unique: it needs no growth of its own.
    let grown: Window | undefined;
    opts.budget.check("the uniqueness index");
    for (const [k, w] of windows.entries()) {
      if (k % 256 === 0) opts.budget.check("growing the hunks");
      if (grown && w.start <= grown.end && grown.start <= w.end) continue;
      w.unique = growUntilUnique(w, index, oldLines.length, maxGrowth);
      if (w.unique) grown = w;
    }
    windows = mergeWindows(windows);
  }
  if (opts.format === "v4a") return writeV4A(windows, oldLines, newLines, opts.path as string, texts());
  const out: string[] = [];
  if (opts.oldPath !== undefined && opts.newPath !== undefined) {
    out.push(`--- ${opts.oldPath}`, `+++ ${opts.newPath}`);
  }
  for (const w of windows) appendAll(out, writeHunk(w, oldLines, newLines, opts.fuzzy && w.unique === true, offset));
  return `${out.join("\n")}\n`;
}

/** The windows as a V4A patch: each hunk's body under a bare `@@`, without diff(1)'s newline markers. */
function writeV4A(windows: Window[], oldLines: Line[], newLines: Line[], path: string, texts: [string, string]): string {
  const [oldText, newText] = texts;
  if (oldText.startsWith(BOM) !== newText.startsWith(BOM)) {
    throw new EditError("INVALID_INPUT", "createPatch: a V4A patch cannot add or remove a byte order mark; use the unified diff format.");
  }
  // An empty old text is created with a final newline; an empty new text has none to differ in.
  const eol = (ls: Line[]) => ls.length === 0 || !(ls.at(-1) as Line).noEol;
  if (newLines.length > 0 && eol(oldLines) !== eol(newLines)) {
    throw new EditError("INVALID_INPUT", "createPatch: a V4A patch cannot add or remove the final newline; use the unified diff format.");
  }
  const out = ["*** Begin Patch", `*** Update File: ${path}`];
  for (const w of windows) {
    const [, ...body] = writeHunk(w, oldLines, newLines, true);
    out.push("@@");
    // Not push(...body): a chunk of 100k lines overflowed the stack.
    for (const l of body) if (l !== NO_NEWLINE) out.push(l);
    if (w.end === oldLines.length && w.end > w.start) out.push("*** End of File");
  }
  out.push("*** End Patch");
  return `${out.join("\n")}\n`;
}
