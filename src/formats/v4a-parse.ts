/**
 * Parser for Codex "V4A" patches (the `apply_patch` tool of OpenAI's Codex).
 * It only reads the text into file operations and chunks; locating and
 * applying them is the shared engine's job (v4a-format.ts).
 *
 * Grammar (one line per item):
 *
 *   patch     := "*** Begin Patch" NL [ "*** Environment ID: " id NL ] { file-op } "*** End Patch" NL?
 *   file-op   := add | delete | update
 *   add       := "*** Add File: " path NL { "+" text NL }
 *   delete    := "*** Delete File: " path NL
 *   update    := "*** Update File: " path NL [ "*** Move to: " path NL ] { chunk }
 *   chunk     := { "@@" [ " " anchor ] NL } { change-line } [ "*** End of File" NL ]
 *   change    := " " text      unchanged line (context)
 *              | "-" text      line removed
 *              | "+" text      line added
 *
 * An `@@ anchor` line names a line of the file (a `class Foo`, a `def bar():`)
 * that the chunk comes after; several stacked `@@` lines narrow down in turn
 * (`@@ class Foo` then `@@ def bar():`). The first chunk of a file may omit
 * its `@@` line. `*** End of File` says the chunk ends at the file's end.
 *
 * Leniencies, each for a habit seen in model output:
 *
 * 1. Missing `*** End Patch`: the model stops after its last chunk, or the
 *    response is cut off. The patch then ends at the next `*** Begin Patch`,
 *    at the end of its code fence, or at a line of prose after a blank line
 *    ("\nThat fixes it.\n- also ..."), and after its last line that starts
 *    with a V4A marker (`***`, `@@`, ` `, `-`, `+`): prose after it is not
 *    read as context.
 * 2. A context line without its leading space (`def bar():` for ` def bar():`):
 *    models drop it, like in unified diffs. Inside an Update it is read as
 *    context with its text as written, and the chunk says so when it is not
 *    found.
 * 3. A blank line inside a chunk is a blank context line (editors strip the
 *    lone space). Blank lines at the end of a chunk, before the next header
 *    or the end, are the gap between sections and are dropped.
 * 4. `@@` anchors are matched leniently by the applier: as written, then with
 *    surrounding whitespace ignored, then as the start of a line
 *    (`@@ def bar(` for `def bar(self, x):`), Unicode dashes and quotes read
 *    as ASCII.
 * 5. A blank line inside an Add File's content is an empty line of the file
 *    (the model dropped its `+`).
 * 6. A patch whose `*** Begin Patch` is padded with whitespace (the model
 *    indented the patch: ` *** Begin Patch`, `  *** Update File: x`,
 *    ` *** End Patch`) has its file-level markers read as markers, as Codex
 *    reads them. In a patch that starts at column 0, a padded line inside an
 *    Update section is a context line holding that text (` *** End Patch`
 *    followed by more chunk lines), with two exceptions Codex's own
 *    scenarios make (017, 020): a padded file header where a header is
 *    expected (after `*** Begin Patch`, an Add File's lines or a Delete
 *    File line) is that header, and a padded `*** End Patch` with nothing
 *    but blank lines or prose after it ends the patch.
 * 7. `*** Environment ID: ID` before the first file operation (Codex's
 *    envelope names the machine the patch is for): skipped; this applier
 *    edits the files under its own root.
 *
 * Strict elsewhere: an unknown `*** ` line, a line in a Delete File section,
 * a non-`+` line in an Add File, a `*** Move to:` anywhere but right after
 * its Update line, an Update with nothing to do, an empty path or chunk:
 * each a `PARSE` error naming the response line.
 */
import { EditError } from "../errors.ts";

export const BEGIN_PATCH = "*** Begin Patch";
export const END_PATCH = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";
const ENVIRONMENT = "*** Environment ID:";

export interface V4AChunk {
  /** The `@@` anchors, in order (empty: none). */
  anchors: string[];
  /** The old side (context and removed lines). */
  old: string[];
  /** The new side (context and added lines). */
  new: string[];
  /** `*** End of File` closed the chunk. */
  endOfFile: boolean;
  /** 1-based response line where the chunk starts. */
  line: number;
  /** Response lines read as context although they had no prefix (leniency 2). */
  unprefixed: number[];
}

export type V4AFileOp =
  | { kind: "add"; path: string; line: number; lines: string[] }
  | { kind: "delete"; path: string; line: number }
  | { kind: "update"; path: string; line: number; moveTo?: string; chunks: V4AChunk[] };

// Leniency 6: a padded `*** Begin Patch` starts a patch (as Codex reads it).
export function isBeginPatch(line: string): boolean {
  return line.trim() === BEGIN_PATCH;
}

/** Markers sit at column 0, so ` *** End Patch` is a context line holding that text, unless the whole patch is padded (leniency 6). */
const padded = (begin: string) => begin[0] === " " || begin[0] === "\t";

function isEndPatch(line: string, pad = false): boolean {
  return (pad ? line.trim() : line.trimEnd()) === END_PATCH;
}

const FILE_MARKERS = [ADD, DELETE, UPDATE, MOVE, END_OF_FILE, BEGIN_PATCH, END_PATCH];

/** Leniency 6: a file-level marker line with leading whitespace, read as the marker. */
function unpadMarker(line: string): string {
  if (line === "" || (line[0] !== " " && line[0] !== "\t")) return line;
  const t = line.trimStart();
  return t.startsWith("*** ") && FILE_MARKERS.some((m) => t.startsWith(m.trimEnd())) ? t : line;
}

const isMarkerLine = (l: string) => l.startsWith("***") || l.startsWith("@@") || l.startsWith(" ") || l.startsWith("-") || l.startsWith("+");

/**
 * 0-based end (exclusive) of the patch whose `*** Begin Patch` is at `begin`,
 * within lines [begin, limit), and whether `*** End Patch` closed it.
 */
export function patchExtent(lines: readonly string[], begin: number, limit: number): { end: number; closed: boolean } {
  let prose: number | undefined;
  const pad = padded(lines[begin] ?? "");
  for (let i = begin + 1; i < limit; i++) {
    const l = lines[i] as string;
    if (isEndPatch(l, pad) || (isEndPatch(l, true) && endsHere(lines, i + 1, limit))) return { end: i + 1, closed: true };
    if (pad ? isBeginPatch(l) : l.trimEnd() === BEGIN_PATCH) return { end: trimTail(lines, begin, prose ?? i), closed: false };
    if (prose === undefined && l.trim() !== "" && !isMarkerLine(l) && (lines[i - 1] as string).trim() === "") prose = i;
  }
  return { end: trimTail(lines, begin, prose ?? limit), closed: false };
}

/** Leniency 6: nothing after line `from` (to `limit`) but blank lines, prose or another patch: a padded `*** End Patch` before it closes the patch. */
function endsHere(lines: readonly string[], from: number, limit: number): boolean {
  for (let k = from; k < limit; k++) {
    const l = lines[k] as string;
    if (l.trim() === "") continue;
    // A patch after it starts at column 0 as this one does; ` *** Begin Patch` is a context line.
    return l.trimEnd() === BEGIN_PATCH || !isMarkerLine(l);
  }
  return true;
}

/** Leniency 1: an unclosed patch ends after its last marker line. */
function trimTail(lines: readonly string[], begin: number, end: number): number {
  let j = end;
  while (j > begin + 1 && !isMarkerLine(lines[j - 1] as string)) j--;
  return j;
}

function parseError(line: number, message: string): EditError {
  return new EditError("PARSE", `V4A patch line ${line}: ${message}`, { line });
}

function headerPath(l: string, prefix: string, line: number): string {
  const path = l.slice(prefix.length).trim();
  if (path === "") throw parseError(line, `"${prefix.trim()}" names no file. Write the path after it: "${prefix}src/app.py".`);
  return path;
}

function isFileHeader(l: string): boolean {
  return l.startsWith(ADD) || l.startsWith(DELETE) || l.startsWith(UPDATE) || isEndPatch(l);
}

/**
 * Reads the patch in lines [begin, end) (`begin` is its `*** Begin Patch`
 * line); `offset` is the 0-based response line of `lines[0]`. Throws a
 * `PARSE` EditError for the first line that breaks the grammar.
 */
export function parseV4A(raw: readonly string[], begin: number, until: number, offset = 0): V4AFileOp[] {
  const lines = padded(raw[begin] ?? "") ? raw.map(unpadMarker) : raw;
  // The patch's last line closes it however it is padded (patchExtent decided so): not a context line of the last chunk.
  const end = until > begin + 1 && isEndPatch(lines[until - 1] as string, true) ? until - 1 : until;
  const ops: V4AFileOp[] = [];
  const at = (i: number) => offset + i + 1;
  let i = begin + 1;
  // Leniency 6: where a header is expected, a padded one is read as the header (Codex trims a hunk's first line).
  const header = (k: number) => unpadMarker(lines[k] as string);
  while (i < end) {
    const l = header(i);
    if (isEndPatch(l, true)) break;
    if (l.trim() === "") {
      i++;
      continue;
    }
    // Leniency 7: the environment line of Codex's envelope, before the first file operation.
    if (ops.length === 0 && l.startsWith(ENVIRONMENT)) {
      i++;
      continue;
    }
    if (l.startsWith(ADD)) {
      const path = headerPath(l, ADD, at(i));
      const start = i++;
      const content: string[] = [];
      let blankTail = 0;
      while (i < end && !isFileHeader(header(i))) {
        const x = lines[i] as string;
        if (x.startsWith("+")) {
          content.push(x.slice(1));
          blankTail = 0;
        } else if (x === "") {
          content.push("");
          blankTail++;
        } else {
          throw parseError(at(i), `every line of an Add File section starts with "+" (the new file's lines); this one does not: ${JSON.stringify(x.slice(0, 80))}.`);
        }
        i++;
      }
      content.splice(content.length - blankTail, blankTail);
      ops.push({ kind: "add", path, line: at(start), lines: content });
      continue;
    }
    if (l.startsWith(DELETE)) {
      ops.push({ kind: "delete", path: headerPath(l, DELETE, at(i)), line: at(i) });
      i++;
      while (i < end && (lines[i] as string).trim() === "") i++;
      if (i < end && !isFileHeader(header(i))) {
        throw parseError(at(i), `a Delete File section has no lines after its header; found ${JSON.stringify((lines[i] as string).slice(0, 80))}. To change the file instead, use "*** Update File:".`);
      }
      continue;
    }
    if (l.startsWith(UPDATE)) {
      const start = i;
      const path = headerPath(l, UPDATE, at(i));
      i++;
      let moveTo: string | undefined;
      if (i < end && (lines[i] as string).startsWith(MOVE)) {
        moveTo = headerPath(lines[i] as string, MOVE, at(i));
        i++;
      }
      let stop = i;
      while (stop < end && !isFileHeader(lines[stop] as string)) stop++;
      const chunks = parseChunks(lines, i, stop, at);
      if (chunks.length === 0 && moveTo === undefined) {
        throw parseError(at(start), `the Update File section for ${path} has no chunks. Follow it with "@@" and the changed lines (" " context, "-" removed, "+" added).`);
      }
      ops.push({ kind: "update", path, line: at(start), ...(moveTo !== undefined && { moveTo }), chunks });
      i = stop;
      continue;
    }
    if (l.startsWith(MOVE)) throw parseError(at(i), `"*** Move to:" must come right after its "*** Update File:" line.`);
    throw parseError(
      at(i),
      `expected "*** Add File: PATH", "*** Update File: PATH", "*** Delete File: PATH" or "*** End Patch", found ${JSON.stringify(l.slice(0, 80))}.`,
    );
  }
  if (ops.length === 0) throw parseError(at(begin), `the patch holds no file operations. Follow "*** Begin Patch" with "*** Update File: PATH" and its chunks.`);
  return ops;
}

interface OpenChunk extends V4AChunk {
  /** Blank lines at the chunk's end so far (leniency 3). */
  blankTail: number;
}

function closeChunk(o: OpenChunk, chunks: V4AChunk[]): void {
  // Leniency 3: blank lines at the end of a chunk are the gap after it.
  const n = o.blankTail;
  o.old.splice(o.old.length - n, n);
  o.new.splice(o.new.length - n, n);
  if (o.old.length === 0 && o.new.length === 0) {
    throw parseError(o.line, `the chunk has no lines. Write the changed lines after "@@": " " context, "-" removed, "+" added.`);
  }
  const { blankTail: _, ...chunk } = o;
  chunks.push(chunk);
}

/** The chunks of one Update section, lines [from, to). */
function parseChunks(lines: readonly string[], from: number, to: number, at: (i: number) => number): V4AChunk[] {
  const chunks: V4AChunk[] = [];
  let open: OpenChunk | undefined;
  const get = (i: number): OpenChunk => {
    open ??= { anchors: [], old: [], new: [], endOfFile: false, line: at(i), unprefixed: [], blankTail: 0 };
    return open;
  };
  // A plain boolean, not a type guard: its false branch must not narrow `open` to undefined.
  const hasLines = (o: OpenChunk | undefined): boolean => o !== undefined && o.old.length + o.new.length > o.blankTail * 2;
  for (let i = from; i < to; i++) {
    const l = lines[i] as string;
    if (l.startsWith("@@")) {
      // Stacked `@@` lines belong to one chunk; one after changed lines starts the next.
      if (open && hasLines(open)) {
        closeChunk(open, chunks);
        open = undefined;
      } else if (open) {
        // Blank lines before an `@@` (after the Update line, between stacked anchors) are gaps, not context.
        open.old = [];
        open.new = [];
        open.blankTail = 0;
        if (open.anchors.length === 0) open.line = at(i);
      }
      const anchor = l.slice(2).trim();
      const o = get(i);
      if (anchor !== "") o.anchors.push(anchor);
      continue;
    }
    if (l.trimEnd() === END_OF_FILE) {
      if (!open || !hasLines(open)) throw parseError(at(i), `"*** End of File" must follow a chunk's lines.`);
      open.endOfFile = true;
      closeChunk(open, chunks);
      open = undefined;
      continue;
    }
    if (l.startsWith("***")) throw parseError(at(i), `unexpected ${JSON.stringify(l.slice(0, 80))} inside an Update File section.`);
    const o = get(i);
    if (l === "") {
      o.old.push("");
      o.new.push("");
      o.blankTail++;
      continue;
    }
    o.blankTail = 0;
    const mark = l[0];
    const text = l.slice(1);
    if (mark === " ") {
      o.old.push(text);
      o.new.push(text);
    } else if (mark === "-") o.old.push(text);
    else if (mark === "+") o.new.push(text);
    else {
      // Leniency 2: a context line that lost its leading space.
      o.old.push(l);
      o.new.push(l);
      o.unprefixed.push(at(i));
    }
  }
  if (open) {
    if (!hasLines(open) && open.anchors.length > 0) {
      throw parseError(open.line, `the "@@" line is followed by no chunk lines. Write the changed lines after it: " " context, "-" removed, "+" added.`);
    }
    if (hasLines(open)) closeChunk(open, chunks);
  }
  return chunks;
}

/**
 * One file's V4A section without the patch's envelope, as OpenAI's
 * `apply_patch` tool sends it in an operation's `diff`:
 *
 *   section := { chunk }                       update_file (chunks as in an Update File section)
 *            | { "+" text NL }                 create_file (`create`: the new file's lines)
 *
 * Leniency 8: the envelope copied into the diff anyway (the model wrote
 * the whole patch: `*** Begin Patch`, `*** Update File: a.py`, ...,
 * `*** End Patch`): those lines at its start and end are skipped, and line
 * numbers in messages still count the diff's own lines. Line breaks may
 * be CRLF. Everything else is read as the sections of a patch are, with
 * the same leniencies and refusals.
 */
export function parseV4ASection(diff: string, create: false): V4AChunk[];
export function parseV4ASection(diff: string, create: true): string[];
export function parseV4ASection(diff: string, create: boolean): V4AChunk[] | string[] {
  const lines = diff.replace(/\r\n/g, "\n").split("\n");
  let from = 0;
  let to = lines.length;
  const envelope = (l: string) => isBeginPatch(l) || [UPDATE, ADD, ENVIRONMENT].some((m) => l.trimStart().startsWith(m));
  while (from < to && (envelope(lines[from] as string) || (lines[from] as string).trim() === "")) from++;
  while (to > from && (isEndPatch(lines[to - 1] as string, true) || (lines[to - 1] as string).trim() === "")) to--;
  const at = (i: number) => i + 1;
  if (create) {
    const out: string[] = [];
    for (let i = from; i < to; i++) {
      const l = lines[i] as string;
      // Leniency 5: a blank line is an empty line whose `+` was dropped.
      if (l !== "" && !l.startsWith("+")) {
        throw parseError(at(i), `every line of a create_file diff starts with "+" (the new file's lines); this one does not: ${JSON.stringify(l.slice(0, 80))}.`);
      }
      out.push(l.slice(1));
    }
    return out;
  }
  const chunks = from < to ? parseChunks(lines, from, to, at) : [];
  if (chunks.length === 0) throw parseError(1, `the diff has no chunks. Write "@@" (or "@@ " and a line the change comes after), then the lines: " " context, "-" removed, "+" added.`);
  return chunks;
}
