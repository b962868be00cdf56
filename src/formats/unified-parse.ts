/**
 * Parser for unified diffs, with or without line numbers (the fuzzy unified
 * diff writes `@@ @@`). It only reads the text into hunks; locating and
 * applying them is the matcher's job.
 *
 * Grammar (one line per item; `\n` separates lines; for CRs see leniency 5):
 *
 *   patch       := { prose | file }
 *   file        := [ git-header ] [ file-header ] { hunk }
 *   git-header  := "diff --git " old " " new  { git-extra }
 *   git-extra   := "new file mode …" | "deleted file mode …" | "rename from P"
 *                | "rename to P" | "index …" | other prose
 *   file-header := "---" SP path   followed directly by   "+++" SP path
 *   path        := [ "filename:" ] ( "/dev/null" | [ "a/" | "b/" ] name ) [ TAB timestamp ]
 *   hunk        := hunk-header { body-line }
 *   hunk-header := "@@" [ SP "-" a [ "," b ] SP "+" c [ "," d ] ] SP "@@" [ anything ]
 *   body-line   := " " text      context (unchanged) line
 *                | "-" text      line removed from the old file
 *                | "+" text      line added in the new file
 *                | "\ No newline at end of file"   (any text after "\"):
 *                                the line above is the last of its side and
 *                                has no final newline
 *
 * A hunk ends at the next hunk header, file header, `diff --git` line, code
 * fence, end of text, or at a line that fits none of the body forms (prose).
 * Everything outside hunks and headers is prose and is ignored.
 *
 * The hunk header numbers are hints only: they are kept on the `Hunk` for the
 * applier to use as a tie-breaker, but the body alone says what the hunk is.
 *
 * Leniencies, each for a habit seen in model output:
 *
 * 1. Blank line inside a hunk = blank context line. Models (and editors that
 *    strip trailing whitespace) drop the single space of an empty unchanged
 *    line: `" foo()\n\n-bar()"` reads as context `foo()`, context ``, delete
 *    `bar()`. Blank lines at the *end* of a hunk are taken as context only as
 *    far as the header counts ask for them (`@@ -1,3 +1,3 @@` with two body
 *    lines and a blank line after); otherwise they are the gap before prose.
 * 2. Header counts that disagree with the body are ignored: a model writes
 *    `@@ -10,4 +10,5 @@` over a body of 6 old lines. The body wins.
 * 3. Missing hunk header after the file headers: `--- a/x\n+++ b/x\n-old\n+new`
 *    is read as if `@@ @@` stood after `+++ b/x`. The hunk's `line` is then
 *    the line of its first body line.
 * 4. Anything after the second `@@` is ignored (`@@ -3,7 +3,7 @@ fn main() {`,
 *    trailing spaces), and a header without numbers or without a closing
 *    `@@` (`@@`, `@@ fn main`) is a hunk header without hints.
 * 5. CRLF line endings in the patch text (a patch pasted from Windows,
 *    every break CRLF): every line loses one trailing `\r`. Other trailing
 *    CRs stay on body lines: a diff made by a tool that keeps a CRLF file's
 *    CRs (`+b\r`) or a `\r\r\n` file's (`+b\r\r`) shows them, and so does a
 *    line whose text ends with a CR (`+b\r` before `\ No newline at end of
 *    file`, in an LF file). The applier reads them against the file: they
 *    are its break where its breaks carry CRs, else text. Other lines
 *    (headers, blank lines, markers) lose every trailing CR.
 * 6. Prose and code fences around the patch: "Here is the fix:\n```diff\n…\n```"
 *    parse as the patch inside. A `---` line not followed by `+++` outside a
 *    hunk (a markdown rule) is prose.
 * 7. `--- filename: x` / `+++ filename: x` (the fuzzy-diff spec's header) and
 *    git's `a/` `b/` prefixes and tab-separated timestamps are reduced to the
 *    path; `/dev/null` marks a created or deleted file.
 * 8. A hunk line without its prefix, followed by a `-` or `+` line before the
 *    next header or fence, is a context line with its text as written: the
 *    model dropped the leading space of unchanged lines, as the fuzzy-diff
 *    specification's own end-of-file example does (`@@ @@\nfn process() {\n
 *    …\n}\n-// End\n+// End`). Such lines are marked `unprefixed` and
 *    their patch line numbers kept in `Hunk.unprefixedLines`, so the applier
 *    can say so when the hunk is not found, and can read the hunk's other
 *    context lines whole too (in that example `    // … processing code`
 *    is most likely the file's line with its 4 spaces, not ` ` + 3 spaces). Safe because the applier verifies context against the file: a
 *    prose line misread as context makes the hunk not found, never applied
 *    elsewhere. Not after a `-` line, see below.
 *
 * Strictness, because a wrong edit is worse than a refusal:
 *
 * - Inside a hunk, `---` followed directly by `+++` is a file header; any
 *   other `---x` / `+++x` line is the removed line `--x` / added line `++x`,
 *   never dropped. One exception follows the hints: while a hunk with header
 *   counts still lacks both old and new lines, the pair is a removal and an
 *   addition (a git diff of a SQL file removing `-- a` and adding `++ b`).
 * - A line that fits no body form ends the hunk only if no `-` or `+` line
 *   follows it before the next header, fence or end of text; otherwise it is
 *   context (leniency 8) — except directly after a `-` line (blank lines
 *   between do not count), where it is a PARSE error: there it may be a line
 *   the model meant to delete and forgot the `-` of (`-a\nb\n-c`), and
 *   reading it as context would keep a line that the file check cannot
 *   tell apart from a deleted one.
 * - `\ No newline at end of file` must follow a hunk line, and the side it
 *   marks must not continue after it.
 * - A file header with no hunk after it, an empty hunk, and a text with no
 *   hunk at all are PARSE errors.
 */

import { appendAll } from "../arrays.ts";
import { optionsObject } from "../engine/options.ts";
import { describeValue, EditError } from "../errors.ts";
import { Budget, type BudgetOptions, budgetOf, checkLimit, DEFAULT_LIMITS } from "../limits.ts";
import { stripTimestamp } from "../text/timestamp.ts";

/** One line of a hunk body, without its prefix character. */
export interface HunkLine {
  kind: "context" | "delete" | "add";
  text: string;
  /** Set on a context line that had no prefix in the patch (leniency 8): `text` is the whole patch line. */
  unprefixed?: true;
}

export interface Hunk {
  /** 0-based position of the hunk in its file. */
  index: number;
  /** 1-based line of the `@@` header in the patch text (of the first body line when the header was missing). */
  line: number;
  /** Header hints, present only when the header had numbers. Not checked against the body. */
  oldStart?: number;
  oldLines?: number;
  newStart?: number;
  newLines?: number;
  lines: HunkLine[];
  /** The last old-side line has no final newline (`\ No newline at end of file`). */
  oldEofNoNewline: boolean;
  /** The last new-side line has no final newline. */
  newEofNoNewline: boolean;
  /** 1-based patch lines read as context lines although they had no prefix (leniency 8). */
  unprefixedLines?: number[];
}

export interface FilePatch {
  /** Path of the file before the change; absent for created files and headerless patches. */
  oldPath?: string;
  /** Path of the file after the change; absent for deleted files and headerless patches. */
  newPath?: string;
  isNew: boolean;
  isDeleted: boolean;
  hunks: Hunk[];
}

/** Old side of a hunk (context and removed lines), joined with "\n". */
export function hunkOldText(h: Hunk): string {
  return h.lines
    .filter((l) => l.kind !== "add")
    .map((l) => l.text)
    .join("\n");
}

/** New side of a hunk (context and added lines), joined with "\n". */
export function hunkNewText(h: Hunk): string {
  return h.lines
    .filter((l) => l.kind !== "delete")
    .map((l) => l.text)
    .join("\n");
}

const NUMBERED_HEADER = /^@@ *-(\d+)(?:,(\d+))? +\+(\d+)(?:,(\d+))? *@@/;
const BODY_HINT = "every hunk line must start with ' ' (unchanged context line), '-' (removed line) or '+' (added line), or be '\\ No newline at end of file'";

function splitPatchLines(text: string): string[] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = body.split("\n");
  // "a\n" splits into ["a", ""]: the empty string is not a line.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const broken = body.endsWith("\n") ? lines.length : lines.length - 1;
  let crlf = broken > 0;
  for (let i = 0; i < broken && crlf; i++) if (!(lines[i] as string).endsWith("\r")) crlf = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.endsWith("\r")) continue;
    // Leniency 5: every break CRLF, so one CR per line is the patch's break.
    const own = crlf && i < broken ? line.slice(0, -1) : line;
    // Other CRs of a body line are the file's (its CRLF or `\r\r\n` breaks, which
    // the applier reads against the file) or text (`+b\r` in an LF file).
    lines[i] = isBodyStart(own) ? own : trimCrs(own);
  }
  return lines;
}

function trimCrs(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  return line.slice(0, end);
}

function isHunkHeader(line: string): boolean {
  return line.startsWith("@@");
}

// Only a fence at the margin: " ```" inside a hunk is the context line "```" of a markdown file.
function isFence(line: string): boolean {
  return line.startsWith("```") || line.startsWith("~~~");
}

function isGitHeader(line: string): boolean {
  return line.startsWith("diff --git ");
}

function isHeaderPairAt(lines: readonly string[], i: number): boolean {
  return (lines[i] ?? "").startsWith("---") && (lines[i + 1] ?? "").startsWith("+++");
}

/** A line that ends any hunk regardless of content: the things that start something new. */
function isTerminator(lines: readonly string[], i: number): boolean {
  const line = lines[i] ?? "";
  return isHunkHeader(line) || isGitHeader(line) || isFence(line) || isHeaderPairAt(lines, i);
}

function isBodyStart(line: string): boolean {
  const c = line[0];
  return c === " " || c === "-" || c === "+";
}

function quote(line: string): string {
  const shown = line.length > 80 ? `${line.slice(0, 77)}...` : line;
  return JSON.stringify(shown);
}

interface PathInfo {
  path?: string;
  devNull: boolean;
}

/** `--- a/x\t2024-01-01` -> raw path text; `/dev/null` recognised. Prefix stripping happens per pair. */
function readHeaderPath(rest: string): PathInfo {
  let p = rest.trim();
  if (/^filename:/i.test(p)) p = p.slice("filename:".length).trim();
  const tab = p.indexOf("\t");
  if (tab >= 0) p = p.slice(0, tab).trim();
  // diff -u without a tab writes the timestamp after spaces (scanned, never a backtracking pattern).
  else p = stripTimestamp(p);
  if (p.length >= 2 && p.startsWith('"') && p.endsWith('"')) p = unquoteC(p.slice(1, -1));
  if (p === "/dev/null") return { devNull: true };
  return p === "" ? { devNull: false } : { path: p, devNull: false };
}

/** git quotes paths with special characters C-style: `"a/sp\303\244ce"`. */
export function unquoteC(s: string): string {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] ?? "";
    if (ch !== "\\" || i + 1 >= s.length) {
      appendAll(bytes, enc.encode(ch));
      continue;
    }
    const next = s[i + 1] ?? "";
    const oct = /^[0-7]{3}/.exec(s.slice(i + 1, i + 4));
    if (oct) {
      bytes.push(Number.parseInt(oct[0], 8) & 0xff);
      i += 3;
      continue;
    }
    const simple: Record<string, string> = { n: "\n", t: "\t", '"': '"', "\\": "\\", r: "\r" };
    appendAll(bytes, enc.encode(simple[next] ?? next));
    i += 1;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Strips git's `a/` and `b/` when both sides (or the one that is not /dev/null) carry them. */
function stripGitPrefixes(oldP: PathInfo, newP: PathInfo): { oldPath?: string; newPath?: string } {
  const oldOk = oldP.devNull || oldP.path === undefined || oldP.path.startsWith("a/");
  const newOk = newP.devNull || newP.path === undefined || newP.path.startsWith("b/");
  const any = oldP.path !== undefined || newP.path !== undefined;
  const strip = oldOk && newOk && any;
  const out: { oldPath?: string; newPath?: string } = {};
  if (oldP.path !== undefined) out.oldPath = strip ? oldP.path.slice(2) : oldP.path;
  if (newP.path !== undefined) out.newPath = strip ? newP.path.slice(2) : newP.path;
  return out;
}

interface FileBuilder {
  patch: FilePatch;
  fromGit: boolean;
  /** 1-based line of the `---` header, when there was one. */
  headerLine?: number;
}

interface HunkBuilder {
  hunk: Hunk;
  /** Blank lines seen but not yet known to be context (they may be the gap before prose). */
  pendingBlanks: number;
  /** Line of the `\` marker per side, for the error when a side continues after it. */
  oldMarkLine?: number;
  newMarkLine?: number;
  oldCount: number;
  newCount: number;
  /** The previous line was a non-blank body line. */
  lastWasBody: boolean;
}

function parseError(message: string, line: number, extra: Record<string, unknown> = {}): EditError {
  return new EditError("PARSE", message, { line, ...extra });
}

/**
 * Parses a unified or fuzzy unified diff (one or more files, possibly wrapped
 * in prose and code fences) into file patches and hunks.
 * Throws `EditError` with code `PARSE` (and `detail.line`) on malformed input.
 */
/**
 * The reader behind `parsePatch`: one pass over the lines, a method per
 * kind of line, the state of the file and hunk being read in fields.
 */
class PatchReader {
  private readonly files: FileBuilder[] = [];
  private file: FileBuilder | undefined;
  private hb: HunkBuilder | undefined;
  /** After a `---`/`+++` pair: a body line may start a hunk without `@@`. */
  private afterFileHeader = false;
  /** For each line, the first `-`/`+` line at or after it before a terminator (-1: none); built on first need. */
  private strayFrom: Int32Array | undefined;

  constructor(
    private readonly lines: readonly string[],
    private readonly budget: Budget = new Budget(),
  ) {}

  read(): FilePatch[] {
    this.readLines();
    return this.finish();
  }

  /** What `read` returns, or undefined where it throws for a header without hunks or no hunk at all (no error built). */
  readComplete(): FilePatch[] | undefined {
    this.readLines();
    return this.complete() ? this.files.map((f) => f.patch) : undefined;
  }

  private readLines(): void {
    const lines = this.lines;
    let nextCheck = 0;
    for (let i = 0; i < lines.length; i++) {
      if (i >= nextCheck) {
        this.budget.check("parsing the patch");
        nextCheck = i + LINES_PER_BUDGET_CHECK;
      }
      const b = this.hb;
      if (b) {
        const step = this.readInHunk(b, i);
        if (step !== undefined) {
          i += step;
          continue;
        }
      }
      i += this.readOutside(i);
    }
    this.closeHunk();
  }

  private newFile(fromGit: boolean): FileBuilder {
    const f: FileBuilder = { patch: { isNew: false, isDeleted: false, hunks: [] }, fromGit };
    this.files.push(f);
    return f;
  }

  private openHunk(lineNo: number, header: string | undefined): HunkBuilder {
    this.file ??= this.newFile(false);
    const file = this.file;
    const hunk: Hunk = {
      index: file.patch.hunks.length,
      line: lineNo,
      lines: [],
      oldEofNoNewline: false,
      newEofNoNewline: false,
    };
    const m = header === undefined ? null : NUMBERED_HEADER.exec(header);
    if (m) {
      hunk.oldStart = Number(m[1]);
      hunk.oldLines = m[2] === undefined ? 1 : Number(m[2]);
      hunk.newStart = Number(m[3]);
      hunk.newLines = m[4] === undefined ? 1 : Number(m[4]);
    }
    file.patch.hunks.push(hunk);
    this.hb = { hunk, pendingBlanks: 0, oldCount: 0, newCount: 0, lastWasBody: false };
    return this.hb;
  }

  private addLine(b: HunkBuilder, kind: HunkLine["kind"], lineText: string, lineNo: number): void {
    if (kind !== "add" && b.oldMarkLine !== undefined) {
      throw parseError(
        `Line ${lineNo} continues the old side of hunk ${b.hunk.index + 1} after '\\ No newline at end of file' at line ${b.oldMarkLine}. That marker may only follow the last old-side line of the file; remove it or move it below the last ' ' or '-' line.`,
        lineNo,
        { index: b.hunk.index },
      );
    }
    if (kind !== "delete" && b.newMarkLine !== undefined) {
      throw parseError(
        `Line ${lineNo} continues the new side of hunk ${b.hunk.index + 1} after '\\ No newline at end of file' at line ${b.newMarkLine}. That marker may only follow the last new-side line of the file; remove it or move it below the last ' ' or '+' line.`,
        lineNo,
        { index: b.hunk.index },
      );
    }
    b.hunk.lines.push({ kind, text: lineText });
    if (kind !== "add") b.oldCount++;
    if (kind !== "delete") b.newCount++;
  }

  private flushBlanks(b: HunkBuilder, lineNo: number): void {
    while (b.pendingBlanks > 0) {
      b.pendingBlanks--;
      this.addLine(b, "context", "", lineNo - b.pendingBlanks - 1);
    }
  }

  private closeHunk(): void {
    const b = this.hb;
    if (!b) return;
    const h = b.hunk;
    // Leniency 1: trailing blank lines are context only as far as the counts ask.
    if (b.pendingBlanks > 0 && h.oldLines !== undefined && h.newLines !== undefined) {
      const missingOld = h.oldLines - b.oldCount;
      const missingNew = h.newLines - b.newCount;
      const take = missingOld === missingNew ? Math.min(missingOld, b.pendingBlanks) : 0;
      for (let k = 0; k < take; k++) h.lines.push({ kind: "context", text: "" });
    }
    if (h.lines.length === 0) {
      throw parseError(`Hunk ${h.index + 1} at line ${h.line} has no lines. After '@@ @@' write the hunk body: ${BODY_HINT}.`, h.line, { index: h.index });
    }
    this.hb = undefined;
  }

  private startFileHeader(i: number): void {
    const oldP = readHeaderPath((this.lines[i] ?? "").slice(3));
    const newP = readHeaderPath((this.lines[i + 1] ?? "").slice(3));
    let target = this.file;
    if (!(target?.fromGit && target.headerLine === undefined && target.patch.hunks.length === 0)) {
      target = this.newFile(false);
    }
    this.file = target;
    target.headerLine = i + 1;
    const paths = stripGitPrefixes(oldP, newP);
    if (paths.oldPath !== undefined) target.patch.oldPath = paths.oldPath;
    else delete target.patch.oldPath;
    if (paths.newPath !== undefined) target.patch.newPath = paths.newPath;
    else delete target.patch.newPath;
    if (oldP.devNull) target.patch.isNew = true;
    if (newP.devNull) target.patch.isDeleted = true;
    this.afterFileHeader = true;
  }

  private startGitFile(line: string): void {
    const f = this.newFile(true);
    this.file = f;
    // String search, not a regex: a lazy pattern over a long model-written line backtracks.
    const rest = line.slice("diff --git ".length).replace(/"/g, "");
    const sep = rest.indexOf(" b/");
    if (rest.startsWith("a/") && sep > 2) {
      f.patch.oldPath = rest.slice(2, sep);
      f.patch.newPath = rest.slice(sep + 3).trimEnd();
    }
    this.afterFileHeader = false;
  }

  private readGitExtra(line: string): void {
    const file = this.file;
    if (!file?.fromGit || file.headerLine !== undefined || file.patch.hunks.length > 0) return;
    if (line.startsWith("new file mode")) {
      file.patch.isNew = true;
      delete file.patch.oldPath;
    } else if (line.startsWith("deleted file mode")) {
      file.patch.isDeleted = true;
      delete file.patch.newPath;
    } else if (line.startsWith("rename from ")) {
      file.patch.oldPath = line.slice("rename from ".length).trim();
    } else if (line.startsWith("rename to ")) {
      file.patch.newPath = line.slice("rename to ".length).trim();
    }
  }

  /**
   * Index of the first `-`/`+` line at or after `from`, before the next
   * terminator; -1 if none. Answered from one backward pass over the lines,
   * built on the first unprefixed line: a scan ahead per unprefixed line was
   * quadratic (a 40k-line diff whose lines lost their prefix: 26 s).
   */
  private findStrayChange(from: number): number {
    const lines = this.lines;
    if (!this.strayFrom) {
      const strayFrom = new Int32Array(lines.length + 1).fill(-1);
      for (let j = lines.length - 1; j >= 0; j--) {
        const c = (lines[j] ?? "")[0];
        strayFrom[j] = isTerminator(lines, j) ? -1 : c === "-" || c === "+" ? j : (strayFrom[j + 1] ?? -1);
      }
      this.strayFrom = strayFrom;
    }
    return this.strayFrom[from] ?? -1;
  }

  /** A `\ No newline at end of file` line inside a hunk. */
  private readNoNewlineMarker(b: HunkBuilder, lineNo: number): void {
    this.flushBlanks(b, lineNo);
    const last = b.hunk.lines[b.hunk.lines.length - 1];
    if (!last) {
      throw parseError(
        `Line ${lineNo}: '\\ No newline at end of file' must directly follow the hunk line it refers to, but hunk ${b.hunk.index + 1} has no line before it.`,
        lineNo,
        { index: b.hunk.index },
      );
    }
    if (last.kind !== "add" && b.oldMarkLine === undefined) {
      b.hunk.oldEofNoNewline = true;
      b.oldMarkLine = lineNo;
    }
    if (last.kind !== "delete" && b.newMarkLine === undefined) {
      b.hunk.newEofNoNewline = true;
      b.newMarkLine = lineNo;
    }
  }

  /**
   * A line with no body prefix inside a hunk: a context line whose space was
   * dropped (leniency 8) when a change follows, a PARSE error right after a
   * removed line, else prose that ends the hunk. Returns whether it was read.
   */
  private readUnprefixed(b: HunkBuilder, i: number): boolean {
    const line = this.lines[i] ?? "";
    const lineNo = i + 1;
    const stray = this.findStrayChange(i + 1);
    const previous = b.hunk.lines[b.hunk.lines.length - 1];
    if (stray >= 0 && previous?.kind !== "delete") {
      this.flushBlanks(b, lineNo);
      this.addLine(b, "context", line, lineNo);
      const added = b.hunk.lines[b.hunk.lines.length - 1];
      if (added) added.unprefixed = true;
      // push, not a copy per line (quadratic over a long unprefixed run).
      b.hunk.unprefixedLines ??= [];
      b.hunk.unprefixedLines.push(lineNo);
      b.lastWasBody = true;
      return true;
    }
    if (stray >= 0) {
      throw parseError(
        `Line ${lineNo} is inside hunk ${b.hunk.index + 1} (header at line ${b.hunk.line}) but does not start with a hunk prefix: ${quote(line)}. ${BODY_HINT[0]?.toUpperCase()}${BODY_HINT.slice(1)}. Line ${stray + 1} below it still changes the file, so the line cannot be skipped as prose. If it is an unchanged line, prefix it with one space; if it was meant to be removed, prefix it with '-'; to start a new hunk, write '@@ @@' first; put prose outside a \`\`\`diff fence.`,
        lineNo,
        { index: b.hunk.index, hunkLine: b.hunk.line, strayLine: stray + 1 },
      );
    }
    this.closeHunk();
    return false;
  }

  /** Line `i` inside hunk `b`: the lines it consumed beyond itself, or undefined when it is read outside (the hunk closed). */
  private readInHunk(b: HunkBuilder, i: number): number | undefined {
    const line = this.lines[i] ?? "";
    const lineNo = i + 1;
    if (isHunkHeader(line)) {
      this.closeHunk();
      this.openHunk(lineNo, line);
      return 0;
    }
    if (isHeaderPairAt(this.lines, i)) {
      const h = b.hunk;
      const wantsBoth =
        h.oldLines !== undefined && h.newLines !== undefined && b.oldCount + b.pendingBlanks < h.oldLines && b.newCount + b.pendingBlanks < h.newLines;
      if (!wantsBoth) {
        this.closeHunk();
        this.startFileHeader(i);
        return 1;
      }
    }
    if (isGitHeader(line) || isFence(line)) {
      this.closeHunk();
      return undefined;
    }
    if (line === "") {
      b.pendingBlanks++;
      b.lastWasBody = false;
      return 0;
    }
    if (isBodyStart(line)) {
      this.flushBlanks(b, lineNo);
      this.addLine(b, kindOf(line), line.slice(1), lineNo);
      b.lastWasBody = true;
      return 0;
    }
    if (line.startsWith("\\")) {
      this.readNoNewlineMarker(b, lineNo);
      return 0;
    }
    return this.readUnprefixed(b, i) ? 0 : undefined;
  }

  /** Line `i` outside any hunk: the lines it consumed beyond itself. */
  private readOutside(i: number): number {
    const line = this.lines[i] ?? "";
    const lineNo = i + 1;
    if (isHunkHeader(line)) {
      this.afterFileHeader = false;
      this.openHunk(lineNo, line);
      return 0;
    }
    if (isGitHeader(line)) {
      this.startGitFile(line);
      return 0;
    }
    if (isHeaderPairAt(this.lines, i)) {
      this.startFileHeader(i);
      return 1;
    }
    if (this.afterFileHeader) {
      if (line === "") return 0;
      if (isBodyStart(line)) {
        // Leniency 3: the hunk header is missing after the file headers.
        this.afterFileHeader = false;
        const nb = this.openHunk(lineNo, undefined);
        this.addLine(nb, kindOf(line), line.slice(1), lineNo);
        nb.lastWasBody = true;
        return 0;
      }
      this.afterFileHeader = false;
    }
    this.readGitExtra(line);
    return 0;
  }

  /** Every file header is followed by a hunk, and some file has a hunk or git headers. */
  private complete(): boolean {
    return this.files.every((f) => f.headerLine === undefined || f.patch.hunks.length > 0) && this.files.some((f) => f.patch.hunks.length > 0 || f.fromGit);
  }

  /** A file header without hunks, or no hunk at all, is a PARSE error. */
  private finish(): FilePatch[] {
    if (this.complete()) return this.files.map((f) => f.patch);
    const bare = this.files.find((f) => f.headerLine !== undefined && f.patch.hunks.length === 0);
    if (bare) {
      const name = bare.patch.newPath ?? bare.patch.oldPath ?? "the file";
      throw parseError(
        `The file header at line ${bare.headerLine} (for ${name}) is not followed by any hunk. After the '---' and '+++' lines write '@@ @@' and then the hunk body: ${BODY_HINT}.`,
        bare.headerLine ?? 1,
        name === "the file" ? {} : { path: name },
      );
    }
    throw parseError(
      `No hunk found in the patch (${this.lines.length} lines). A unified diff needs at least one hunk: a line '@@ @@' (or '@@ -a,b +c,d @@') followed by the changed lines, where ${BODY_HINT}.`,
      1,
    );
  }
}

const kindOf = (line: string): HunkLine["kind"] => (line[0] === " " ? "context" : line[0] === "-" ? "delete" : "add");

/** Lines read between two budget checks (parsing 8 MiB of body lines takes ~0.3 s). */
const LINES_PER_BUDGET_CHECK = 4096;

export interface ParsePatchOptions extends BudgetOptions {
  /** Longest patch accepted, in characters (`TOO_LARGE` past it). @default 8_388_608 (8 Mi), as the appliers */
  maxResponseSize?: number;
}

export function parsePatch(text: string, options?: ParsePatchOptions): FilePatch[] {
  if (typeof text !== "string") {
    throw new EditError("INVALID_INPUT", "The patch must be a string holding a unified diff.");
  }
  const { maxResponseSize = DEFAULT_LIMITS.maxResponseSize, timeoutMs, signal } = optionsObject<ParsePatchOptions>(options, "parsePatch: options");
  if (!(Number.isInteger(maxResponseSize) && maxResponseSize > 0)) {
    throw new EditError("INVALID_INPUT", `parsePatch: option 'maxResponseSize' must be a whole number of characters, got ${describeValue(maxResponseSize)}.`);
  }
  const budget = budgetOf({ timeoutMs, signal }, "parsePatch");
  checkLimit("maxResponseSize", text.length, { ...DEFAULT_LIMITS, maxResponseSize });
  return readPatch(text, budget);
}

/** `parsePatch` without its checks, for the appliers: they checked the size against their own limits and pass their budget. */
export function readPatch(text: string, budget?: Budget): FilePatch[] {
  return new PatchReader(splitPatchLines(text), budget).read();
}

/** `readPatch`, or undefined where it throws for a file header without hunks or no hunk at all: for readers of headers only. */
export function readPatchIfComplete(text: string): FilePatch[] | undefined {
  return new PatchReader(splitPatchLines(text)).readComplete();
}

/**
 * True when `text` holds something that reads as a unified diff: a hunk
 * header followed by a body line, or a `---`/`+++` pair followed by a hunk
 * header or body line. Used for format detection; cheap and never throws.
 */
export function looksLikeUnifiedDiff(text: string): boolean {
  if (typeof text !== "string") return false;
  const lines = splitPatchLines(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const next = lines[i + 1];
    if (next === undefined) break;
    if (isHunkHeader(line) && (isBodyStart(next) || next === "")) {
      // "@@ @@" or numbered; a bare "@@" on a line by itself also counts.
      if (/^@@ *(?:-\d+(?:,\d+)? +\+\d+(?:,\d+)? *)?@@/.test(line) || line.trim() === "@@") return true;
    }
    if (isHeaderPairAt(lines, i) && line.startsWith("--- ") && next.startsWith("+++ ")) {
      const after = lines[i + 2];
      if (after !== undefined && (isHunkHeader(after) || isBodyStart(after))) return true;
    }
  }
  return false;
}
