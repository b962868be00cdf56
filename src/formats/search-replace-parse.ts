/**
 * Parser for SEARCH/REPLACE blocks.
 *
 * Grammar (line oriented; the diff text's CRLF line breaks are read as LF):
 *
 *   diff      := ( prose-line | block )*
 *   block     := open hint* rule? hint* search-line* sep replace-line* close
 *   open      := "<<<<<<< SEARCH"            (column 0)
 *   hint      := ":start_line:" digits | ":end_line:" digits
 *   rule      := "-------"                   (only right after `open` and hints)
 *   sep       := "======="
 *   close     := ">>>>>>> REPLACE"
 *   *-line    := any line that is not a marker of its section (see below);
 *                a content line may start with a backslash to escape a marker
 *
 *   Content rule: SEARCH content is its lines joined with "\n", likewise
 *   REPLACE. The line break right before `=======` and before
 *   `>>>>>>> REPLACE` belongs to that marker, not to the content, so content
 *   has no trailing "\n" unless the model wrote a trailing blank line
 *   ("a\n" is the lines "a" and ""). Leading and trailing blank lines are
 *   kept exactly. A section of zero lines and a section of one blank line
 *   both give "" (for REPLACE: delete the matched lines).
 *
 *   Escaping: a content line that starts with one or more backslashes followed
 *   by marker text (`<<<<<`, `=====`, `>>>>>`, `-----`, `+++++`,
 *   `:start_line:`, `:end_line:`) loses exactly one backslash. So
 *   `\=======` is the content line `=======`, and `\\=======` is `\=======`:
 *   escaping (add one backslash to such lines) is exactly reversible.
 *
 * Marker validation is a state machine (start -> header -> search -> replace
 * -> start) run over the whole text before anything is applied; each mistake
 * is a PARSE EditError with `detail.line` (1-based line in the diff text) and
 * a message that says what was found and what was expected.
 *
 * Leniencies, each for a habit seen in model output:
 * - 5 to 9 marker characters (`<<<<< SEARCH`, `>>>>>>>>> REPLACE`): models
 *   miscount repeated characters.
 * - `<<<<<<< SEARCH>`: a stray `>` copied from the tool-call XML around it.
 * - Trailing spaces or tabs after any marker: invisible, often emitted.
 * - Keywords in any case (`<<<<<<< search`).
 * - `------- SEARCH` / `=======` / `+++++++ REPLACE`: the marker set of
 *   Cline-style prompts, e.g. "------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE".
 * - The `-------` line and the `:start_line:`/`:end_line:` hints are all
 *   optional, hints may sit either side of the rule, and `:start_line: 42`
 *   may have a space. `:start_line:0` is read as "no hint" (models use 0 for
 *   "unknown").
 * - Prose, headings and code fences between blocks are skipped: models
 *   explain their edits and wrap blocks in ``` fences.
 * - CRLF line breaks in the diff text (Windows clients, pasted transcripts).
 *
 * Not accepted (refused with an explanation, since guessing could corrupt a
 * file): indented markers, unescaped merge-conflict markers inside content, a
 * block cut off before `>>>>>>> REPLACE`.
 *
 * An empty SEARCH and a SEARCH equal to its REPLACE are well-formed syntax:
 * `parseSearchReplace` returns such blocks, and the applier appends the one
 * and reports the other as changing nothing (search-replace.ts).
 */

import { EditError } from "../errors.ts";

/** One SEARCH/REPLACE block, content unescaped and LF-normalised. */
export interface SearchReplaceBlock {
  /** The text to find (the lines between the header and `=======`). */
  search: string;
  /** The replacement (the lines between `=======` and `>>>>>>> REPLACE`). */
  replace: string;
  /** `:start_line:` hint, 1-based. */
  startLine?: number;
  /** `:end_line:` hint, 1-based. */
  endLine?: number;
  /** 0-based block order in the text. */
  index: number;
  /** 1-based line of the SEARCH marker in the diff text. */
  line: number;
}

/** A block together with the line of its closing marker, for the files layer. */
export interface ScannedBlock extends SearchReplaceBlock {
  /** 1-based line of the `>>>>>>> REPLACE` marker in the diff text. */
  closeLine: number;
}

/** What `validateMarkerSequence` found in a well-formed text. */
export interface MarkerSummary {
  /** Number of complete blocks. */
  blocks: number;
}

export type MarkerLineKind = "open" | "close" | "separator" | "rule" | "hint" | "conflict" | "text";

// All patterns are anchored with bounded repetitions and no nested
// quantifiers: linear on any input.
const OPEN = /^(?:<{5,9}|-{5,9})[ \t]*SEARCH>?$/i;
const CLOSE = /^(?:>{5,9}|\+{5,9})[ \t]*REPLACE$/i;
const SEPARATOR = /^={5,9}$/;
const RULE = /^-{5,9}$/;
const HINT = /^:(start_line|end_line):(.*)$/;
const INDENTED_HINT = /^[ \t]+:(start_line|end_line):\s*\d+\s*$/;
// Git writes conflict markers with exactly 7 characters and a space or
// nothing after; `<<<<<<<<<<` (a banner line) is left alone.
const CONFLICT = /^(?:<{7}|>{7})(?:[ \t]|$)/;
const INDENTED_MARKER = /^[ \t]+(?:(?:<{5,9}|-{5,9})[ \t]*SEARCH>?|(?:>{5,9}|\+{5,9})[ \t]*REPLACE|={5,9})$/i;
const ESCAPED = /^\\+(?:<{5}|>{5}|={5}|-{5}|\+{5}|:start_line:|:end_line:)/;

/** Splits diff text into lines, CRLF read as LF; a final line break ends the last line. */
export function splitDiffLines(diffText: string): string[] {
  const lines = diffText.replace(/\r\n/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** What a line would be as a marker, ignoring the state it appears in. */
export function classifyMarkerLine(line: string): MarkerLineKind {
  // Trailing whitespace (including a stray \r) after a marker is tolerated;
  // leading whitespace is not, so indented content is never a marker.
  const t = line.trimEnd();
  const c = t.charCodeAt(0);
  // Fast exit: every marker starts with one of < > = - + :
  if (c !== 60 && c !== 62 && c !== 61 && c !== 45 && c !== 43 && c !== 58) return "text";
  if (OPEN.test(t)) return "open";
  if (CLOSE.test(t)) return "close";
  if (SEPARATOR.test(t)) return "separator";
  if (RULE.test(t)) return "rule";
  if (HINT.test(line)) return "hint";
  if (CONFLICT.test(t)) return "conflict";
  return "text";
}

/** Removes one escaping backslash from each line that starts with backslashes and marker text. */
export function unescapeMarkers(text: string): string {
  if (!text.includes("\\")) return text;
  return text
    .split("\n")
    .map((l) => (ESCAPED.test(l) ? l.slice(1) : l))
    .join("\n");
}

const FORMAT_REMINDER =
  "Each block is:\n<<<<<<< SEARCH\n[exact lines to find]\n=======\n[replacement lines]\n>>>>>>> REPLACE";

const ESCAPE_ADVICE =
  "If this line is part of the file's content, escape it with a leading backslash " +
  "(write \\<<<<<<<, \\=======, \\>>>>>>> at the start of the line); the backslash is removed before matching.";

function show(line: string): string {
  const t = line.trimEnd();
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function hintName(line: string): string {
  return line.startsWith(":end_line:") ? ":end_line:" : ":start_line:";
}

function parseError(message: string, line: number, index?: number): EditError {
  return new EditError("PARSE", message, index === undefined ? { line } : { line, index });
}

interface OpenBlock {
  line: number;
  index: number;
  startLine?: number;
  endLine?: number;
  hints: Set<string>;
  ruleSeen: boolean;
  search: string[];
  replace: string[];
}

function readHint(raw: string, n: number, block: OpenBlock): void {
  const m = HINT.exec(raw);
  const name = m?.[1] ?? "start_line";
  const value = (m?.[2] ?? "").trim();
  const where = `Line ${n}`;
  if (!/^\d{1,9}$/.test(value)) {
    throw parseError(
      `${where}: ":${name}:" needs a line number, like ":${name}:42", but found "${show(value)}". ` +
        `If this line is content, escape it as "\\:${name}:".`,
      n,
      block.index,
    );
  }
  if (block.hints.has(name)) {
    throw parseError(
      `${where}: duplicate ":${name}:" in the block that starts at line ${block.line}; give each hint once, right after <<<<<<< SEARCH.`,
      n,
      block.index,
    );
  }
  block.hints.add(name);
  const num = Number(value);
  if (num === 0) return; // "unknown", not a line
  if (name === "start_line") block.startLine = num;
  else block.endLine = num;
  if (block.startLine !== undefined && block.endLine !== undefined && block.endLine < block.startLine) {
    throw parseError(
      `${where}: ":end_line:${block.endLine}" is before ":start_line:${block.startLine}" in the block that starts at line ${block.line}; end_line must be at or after start_line.`,
      n,
      block.index,
    );
  }
}

function closeBlock(b: OpenBlock, closeLine: number): ScannedBlock {
  const out: ScannedBlock = {
    search: unescapeMarkers(b.search.join("\n")),
    replace: unescapeMarkers(b.replace.join("\n")),
    index: b.index,
    line: b.line,
    closeLine,
  };
  if (b.startLine !== undefined) out.startLine = b.startLine;
  if (b.endLine !== undefined) out.endLine = b.endLine;
  return out;
}

/**
 * Runs the marker state machine over the whole text and returns every block
 * with its closing line. Throws PARSE on the first marker mistake. A text
 * with no block at all is valid here (returns []).
 */
/** A line between blocks: the SEARCH marker opens one; a stray separator, REPLACE or indented marker is an error; anything else is prose. */
function readBetweenBlocks(raw: string, n: number, kind: MarkerLineKind, index: number): OpenBlock | undefined {
  if (kind === "open") return { line: n, index, hints: new Set(), ruleSeen: false, search: [], replace: [] };
  if (kind === "separator") {
    throw parseError(
      `Line ${n}: found the separator "${show(raw)}" before any <<<<<<< SEARCH. ${FORMAT_REMINDER}\n` + `Start the block with <<<<<<< SEARCH. ${ESCAPE_ADVICE}`,
      n,
    );
  }
  if (kind === "close") {
    throw parseError(`Line ${n}: found "${show(raw)}" before any <<<<<<< SEARCH; a REPLACE marker must close a block. ${FORMAT_REMINDER}`, n);
  }
  if (INDENTED_MARKER.test(raw.trimEnd())) {
    throw parseError(
      `Line ${n}: the marker "${raw.trim()}" is indented. Markers must start at the beginning of the line, with no spaces before them. ${FORMAT_REMINDER}`,
      n,
    );
  }
  return undefined; // prose, headings, code fences between blocks
}

/** A line of the SEARCH section; returns true at the separator. */
function readSearchLine(cur: OpenBlock, raw: string, n: number, kind: MarkerLineKind): boolean {
  switch (kind) {
    case "separator":
      return true;
    case "open":
      throw parseError(
        `Line ${n}: found "${show(raw)}" inside the SEARCH section of the block that starts at line ${cur.line}; ` +
          `expected the separator ======= first. Finish that block with =======, its replacement lines and >>>>>>> REPLACE before starting another.`,
        n,
        cur.index,
      );
    case "close":
      throw parseError(
        `Line ${n}: found "${show(raw)}" but the block that starts at line ${cur.line} has no separator: ` +
          `put a line ======= between the SEARCH lines and the REPLACE lines. ${FORMAT_REMINDER}`,
        n,
        cur.index,
      );
    case "conflict":
      throw parseError(
        `Line ${n}: "${show(raw)}" looks like an unescaped merge-conflict marker inside the SEARCH section of the block that starts at line ${cur.line}. ${ESCAPE_ADVICE}`,
        n,
        cur.index,
      );
    case "hint":
      throw parseError(
        `Line ${n}: "${show(raw)}" inside the SEARCH content of the block that starts at line ${cur.line}. ` +
          `Line hints go directly after <<<<<<< SEARCH, before -------. If this line is content, escape it as "\\${hintName(raw)}".`,
        n,
        cur.index,
      );
    default:
      cur.search.push(raw);
  }
  return false;
}

/** A line of the REPLACE section; returns the finished block at REPLACE. */
function readReplaceLine(cur: OpenBlock, raw: string, n: number, kind: MarkerLineKind): ScannedBlock | undefined {
  switch (kind) {
    case "close":
      return closeBlock(cur, n);
    case "separator":
      throw parseError(
        `Line ${n}: found a second separator "${show(raw)}" in the REPLACE section of the block that starts at line ${cur.line}; ` +
          `expected >>>>>>> REPLACE. ${ESCAPE_ADVICE}`,
        n,
        cur.index,
      );
    case "open":
      throw parseError(
        `Line ${n}: found "${show(raw)}" but the block that starts at line ${cur.line} is not closed; ` +
          `expected >>>>>>> REPLACE after its replacement lines.`,
        n,
        cur.index,
      );
    case "conflict":
      throw parseError(
        `Line ${n}: "${show(raw)}" looks like an unescaped merge-conflict marker inside the REPLACE section of the block that starts at line ${cur.line}. ${ESCAPE_ADVICE}`,
        n,
        cur.index,
      );
    case "text":
      // An indented `:start_line:12` is the same hint (a model indenting the block): never content, never written.
      if (INDENTED_HINT.test(raw)) return readReplaceLine(cur, raw.trimStart(), n, "hint");
      cur.replace.push(raw);
      return undefined;
    case "hint":
      throw parseError(
        `Line ${n}: "${show(raw)}" inside the REPLACE section of the block that starts at line ${cur.line}. ` +
          `:start_line: and :end_line: hints belong directly after <<<<<<< SEARCH, not in REPLACE. ` +
          `If this line is content, escape it as "\\${hintName(raw)}".`,
        n,
        cur.index,
      );
    default:
      cur.replace.push(raw);
  }
  return undefined;
}

export function scanSearchReplaceBlocks(diffText: string): ScannedBlock[] {
  const lines = splitDiffLines(diffText);
  const blocks: ScannedBlock[] = [];
  let state: "start" | "header" | "search" | "replace" = "start";
  let cur: OpenBlock | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    const n = i + 1;
    const kind = classifyMarkerLine(raw);
    if (state === "start" || cur === undefined) {
      cur = readBetweenBlocks(raw, n, kind, blocks.length);
      if (cur) state = "header";
      continue;
    }
    if (state === "header") {
      if (kind === "hint") {
        readHint(raw, n, cur);
        continue;
      }
      if (kind === "rule" && !cur.ruleSeen) {
        cur.ruleSeen = true;
        continue;
      }
      state = "search"; // first content line (or a marker): fall through
    }
    if (state === "search") {
      if (readSearchLine(cur, raw, n, kind)) state = "replace";
      continue;
    }
    const done = readReplaceLine(cur, raw, n, kind);
    if (done) {
      blocks.push(done);
      cur = undefined;
      state = "start";
    }
  }
  if (cur !== undefined) {
    const last = Math.max(1, lines.length);
    const expected =
      state === "replace"
        ? "expected >>>>>>> REPLACE after the replacement lines"
        : "expected the separator =======, the replacement lines, then >>>>>>> REPLACE";
    throw parseError(
      `Unexpected end of the diff at line ${last}: the block that starts at line ${cur.line} is not finished; ${expected}. ` +
        `Send the complete block.`,
      last,
      cur.index,
    );
  }
  return blocks;
}

/**
 * The marker state machine alone: throws the PARSE error for the first
 * misplaced marker, or returns how many blocks the text holds.
 */
export function validateMarkerSequence(diffText: string): MarkerSummary {
  return { blocks: scanSearchReplaceBlocks(diffText).length };
}

/**
 * Parses every SEARCH/REPLACE block of `diffText`. Throws PARSE on a marker
 * mistake or when there is no block at all. Blocks with an empty SEARCH or
 * with SEARCH equal to REPLACE are returned (see the module comment).
 */
export function parseSearchReplace(diffText: string): SearchReplaceBlock[] {
  if (lastParsed?.text === diffText) return lastParsed.blocks.map((block) => ({ ...block }));
  const scanned = scanSearchReplaceBlocks(diffText);
  if (scanned.length === 0) {
    throw parseError(`No SEARCH/REPLACE block found in the diff. ${FORMAT_REMINDER}`, 1);
  }
  const blocks = scanned.map(({ closeLine: _closeLine, ...block }) => block);
  lastParsed = { text: diffText, blocks: blocks.map((block) => Object.freeze({ ...block })) };
  return blocks;
}

/**
 * The last text parsed and its blocks (copies are handed out): the file
 * layer parses each block of a response to learn whether it may be carried
 * (carried-text.ts), then its apply parses the same text again (2,000
 * blocks: ~50 ms of CPU for the second parse).
 */
let lastParsed: { text: string; blocks: readonly Readonly<SearchReplaceBlock>[] } | undefined;
