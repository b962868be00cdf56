/**
 * Writes a unified diff from two texts: the fuzzy form (`@@ @@`, every hunk
 * unique in the old text) by default, or the standard form with correct
 * `@@ -a,b +c,d @@` numbers.
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
import { EditError } from "../errors.ts";
import { hasCrLines } from "../text/cr-lines.ts";
import { diffLinesBounded } from "../text/line-diff.ts";

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
   * place. `false` writes a standard diff with `@@ -a,b +c,d @@` numbers.
   * @default true
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
}

interface ResolvedOptions {
  context: number;
  fuzzy: boolean;
  oldPath: string | undefined;
  newPath: string | undefined;
  format: "udiff" | "v4a";
  path: string | undefined;
}

const DEFAULTS: Readonly<ResolvedOptions> = Object.freeze({
  context: 3,
  fuzzy: true,
  oldPath: undefined,
  newPath: undefined,
  format: "udiff",
  path: undefined,
});

function resolveOptions(options: CreatePatchOptions | undefined): ResolvedOptions {
  const o = { ...DEFAULTS, ...options };
  if (!Number.isInteger(o.context) || o.context < 0) {
    throw new EditError("INVALID_INPUT", `createPatch: option 'context' must be a whole number of lines (0 or more), got ${String(o.context)}.`);
  }
  if (o.format !== "udiff" && o.format !== "v4a") {
    throw new EditError("INVALID_INPUT", `createPatch: option 'format' must be "udiff" or "v4a", got ${String(o.format)}.`);
  }
  const path = o.path ?? o.newPath ?? o.oldPath;
  if (o.format === "v4a" && (typeof path !== "string" || path.trim() === "" || /[\r\n]/.test(path))) {
    throw new EditError("INVALID_INPUT", "createPatch: a V4A patch needs the file's path on one line: pass { format: \"v4a\", path }.");
  }
  return {
    context: o.context,
    fuzzy: o.format === "v4a" || o.fuzzy !== false,
    oldPath: o.oldPath ?? o.newPath,
    newPath: o.newPath ?? o.oldPath,
    format: o.format,
    path,
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
  const normalised = hasCrLines(text) ? text.replaceAll("\r", "\n") : text.replace(/\r+\n/g, "\n");
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
  const changes = diffLinesBounded(oldLines, newLines, (l) => (l.noEol ? `1${l.text}` : `0${l.text}`));
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
 * Finds every place the old-side line sequence [start, end) occurs, by ids of
 * trimmed lines, starting from the rarest line of the window so repetitive
 * files do not make the first search quadratic.
 */
class UniquenessIndex {
  private readonly ids: number[];
  private readonly positions = new Map<number, number[]>();

  constructor(lines: Line[]) {
    const idOf = new Map<string, number>();
    this.ids = lines.map((l) => {
      const key = l.text.trim();
      let id = idOf.get(key);
      if (id === undefined) {
        id = idOf.size;
        idOf.set(key, id);
      }
      return id;
    });
    this.ids.forEach((id, i) => {
      const list = this.positions.get(id);
      if (list) list.push(i);
      else this.positions.set(id, [i]);
    });
  }

  /** Start positions where the window's lines occur (the window's own start included). */
  occurrences(start: number, end: number): number[] {
    let anchor = start;
    let best = Number.POSITIVE_INFINITY;
    for (let i = start; i < end; i++) {
      const n = this.positions.get(this.ids[i] ?? -1)?.length ?? 0;
      if (n < best) {
        best = n;
        anchor = i;
      }
      if (best === 1) break;
    }
    const offset = anchor - start;
    const len = end - start;
    const found: number[] = [];
    for (const p of this.positions.get(this.ids[anchor] ?? -1) ?? []) {
      const s = p - offset;
      if (s < 0 || s + len > this.ids.length) continue;
      if (this.matchesAt(s, start, len)) found.push(s);
    }
    return found;
  }

  matchesAt(s: number, start: number, len: number): boolean {
    for (let k = 0; k < len; k++) if (this.ids[s + k] !== this.ids[start + k]) return false;
    return true;
  }

  lineId(i: number): number {
    return this.ids[i] ?? -1;
  }

  // Prefix hashes of the id sequence (two moduli below 2^26, so every product
  // stays exact in a double), built on first use: only needed for long runs
  // of repeated lines.
  private h1: Float64Array | undefined;
  private h2: Float64Array | undefined;
  private p1: Float64Array | undefined;
  private p2: Float64Array | undefined;

  private buildHashes(): void {
    const n = this.ids.length;
    this.h1 = new Float64Array(n + 1);
    this.h2 = new Float64Array(n + 1);
    this.p1 = new Float64Array(n + 1);
    this.p2 = new Float64Array(n + 1);
    this.p1[0] = 1;
    this.p2[0] = 1;
    for (let i = 0; i < n; i++) {
      const v = (this.ids[i] ?? 0) + 1;
      this.h1[i + 1] = ((this.h1[i] ?? 0) * BASE + v) % MOD1;
      this.h2[i + 1] = ((this.h2[i] ?? 0) * BASE + v) % MOD2;
      this.p1[i + 1] = ((this.p1[i] ?? 0) * BASE) % MOD1;
      this.p2[i + 1] = ((this.p2[i] ?? 0) * BASE) % MOD2;
    }
  }

  private hashAt(h: Float64Array, pw: Float64Array, mod: number, s: number, len: number): number {
    const v = ((h[s + len] ?? 0) - (((h[s] ?? 0) * (pw[len] ?? 0)) % mod)) % mod;
    return v < 0 ? v + mod : v;
  }

  /**
   * Whether the window [start, end) occurs only once, in O(n). A hash
   * collision can only report a second occurrence that is not there, which
   * makes a hunk larger, never ambiguous.
   */
  isUnique(start: number, end: number): boolean {
    if (!this.h1) this.buildHashes();
    const h1 = this.h1 as Float64Array;
    const h2 = this.h2 as Float64Array;
    const p1 = this.p1 as Float64Array;
    const p2 = this.p2 as Float64Array;
    const len = end - start;
    const want1 = this.hashAt(h1, p1, MOD1, start, len);
    const want2 = this.hashAt(h2, p2, MOD2, start, len);
    let seen = 0;
    for (let s = 0; s + len <= this.ids.length; s++) {
      if (this.hashAt(h1, p1, MOD1, s, len) === want1 && this.hashAt(h2, p2, MOD2, s, len) === want2) {
        seen++;
        if (seen > 1) return false;
      }
    }
    return true;
  }
}

const MOD1 = 50331653;
const MOD2 = 25165843;
const BASE = 1000003;
/** Growth steps done by filtering candidates before switching to a binary search. */
const LINEAR_GROWTH_STEPS = 32;
/** Candidates above which the binary search is used at once. */
const MAX_FILTERED_CANDIDATES = 1024;

/**
 * Grows the window one line on each side at a time until its lines occur
 * once. Candidates only shrink as the window grows, so after the first search
 * each step filters the surviving candidates instead of searching again.
 */
function growUntilUnique(w: Window, index: UniquenessIndex, oldCount: number): void {
  if (oldCount === 0) return;
  // An empty old side (pure insertion with no context) occurs everywhere: take a line first.
  if (w.start === w.end) {
    if (w.start > 0) w.start--;
    else w.end++;
  }
  let candidates = index.occurrences(w.start, w.end);
  let steps = 0;
  while (candidates.length > 1 && (w.start > 0 || w.end < oldCount)) {
    // Each step filters every candidate: with thousands of them (100k equal
    // lines) the steps cost more than the binary search's O(n log n).
    if (++steps > LINEAR_GROWTH_STEPS || candidates.length > MAX_FILTERED_CANDIDATES) {
      growByBinarySearch(w, index, oldCount);
      return;
    }
    if (w.start > 0) {
      w.start--;
      const id = index.lineId(w.start);
      candidates = candidates.filter((s) => s > 0 && index.lineId(s - 1) === id).map((s) => s - 1);
    }
    if (candidates.length > 1 && w.end < oldCount) {
      const id = index.lineId(w.end);
      const len = w.end - w.start;
      w.end++;
      candidates = candidates.filter((s) => s + len < oldCount && index.lineId(s + len) === id);
    }
  }
}

/**
 * For long runs of repeated lines (a data file of zeros), where stepping one
 * line at a time over thousands of surviving candidates is quadratic: the
 * smallest symmetric growth k that makes the window unique, found by binary
 * search (a superset of a unique window is unique, so the test is monotone).
 */
function growByBinarySearch(w: Window, index: UniquenessIndex, oldCount: number): void {
  const s0 = w.start;
  const e0 = w.end;
  const at = (k: number): [number, number] => [Math.max(0, s0 - k), Math.min(oldCount, e0 + k)];
  let lo = 1;
  let hi = Math.max(s0, oldCount - e0); // the whole file: unique by definition
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const [s, e] = at(mid);
    if (index.isUnique(s, e)) hi = mid;
    else lo = mid + 1;
  }
  [w.start, w.end] = at(lo);
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
    } else {
      merged.push({ start: w.start, end: w.end, regions: [...w.regions] });
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

function writeHunk(w: Window, oldLines: Line[], newLines: Line[], fuzzy: boolean): string[] {
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
  const oldFrom = oldCount === 0 ? w.start : w.start + 1;
  const newFrom = newCount === 0 ? newStart : newStart + 1;
  return [`@@ -${oldFrom},${oldCount} +${newFrom},${newCount} @@`, ...body];
}

/**
 * Creates a unified diff turning `oldText` into `newText`: by default the
 * fuzzy form (`@@ @@`, hunks unique in the old text), with `fuzzy: false` the
 * standard form with line numbers. Returns "" when the texts are equal (after
 * CRLF normalisation). The patch uses "\n" and ends with a newline.
 */
export function createPatch(oldText: string, newText: string, options?: CreatePatchOptions): string {
  if (typeof oldText !== "string" || typeof newText !== "string") {
    throw new EditError("INVALID_INPUT", "createPatch: both texts must be strings.");
  }
  const opts = resolveOptions(options);
  // The applier reads a BOM as the file's, not as text of its first line, and
  // keeps it: so a BOM on both sides is left out of the diff (written into a
  // context line it made that line differ, and the hunk was placed fuzzily).
  // A BOM added is written as text of the first new line, which the applier
  // writes as it is; a BOM removed as text of the first old line, which the
  // applier reads as "this hunk removes the file's BOM".
  const bothBom = oldText.startsWith(BOM) && newText.startsWith(BOM);
  const oldLines = splitText(bothBom ? oldText.slice(1) : oldText);
  const newLines = splitText(bothBom ? newText.slice(1) : newText);
  const regions = findRegions(oldLines, newLines);
  if (regions.length === 0) return "";
  let windows = groupRegions(regions, opts.context, oldLines.length);
  if (opts.fuzzy) {
    const index = new UniquenessIndex(oldLines);
    // A window that overlaps or touches one already grown merges with it, and a
    // window holding a unique one is unique: it needs no growth of its own.
    // Without this, 100k repeated lines with 100 changes grew 100 windows to
    // the whole file, one O(n log n) search each (34 s).
    let grown: Window | undefined;
    for (const w of windows) {
      if (grown && w.start <= grown.end && grown.start <= w.end) continue;
      growUntilUnique(w, index, oldLines.length);
      grown = w;
    }
    windows = mergeWindows(windows);
  }
  if (opts.format === "v4a") return writeV4A(windows, oldLines, newLines, opts.path as string, [oldText, newText]);
  const out: string[] = [];
  if (opts.oldPath !== undefined && opts.newPath !== undefined) {
    out.push(`--- ${opts.oldPath}`, `+++ ${opts.newPath}`);
  }
  for (const w of windows) appendAll(out, writeHunk(w, oldLines, newLines, opts.fuzzy));
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
    out.push("@@", ...body.filter((l) => l !== NO_NEWLINE));
    if (w.end === oldLines.length && w.end > w.start) out.push("*** End of File");
  }
  out.push("*** End Patch");
  return `${out.join("\n")}\n`;
}
