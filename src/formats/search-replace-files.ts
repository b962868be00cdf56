/**
 * Multi-file SEARCH/REPLACE input, split into per-file edits for the files
 * layer. Block content is not parsed here beyond finding where it ends; the
 * applier parses each diff with `parseSearchReplace` so that a bad diff fails
 * alone.
 *
 * Grammar of the three accepted forms:
 *
 *   structured := [ { path, diff: string | [ { content, startLine? } ] } ]
 *
 *   path-lines := ( prose | path-line fence-open? block )*
 *     path-line := a file path alone on its line (blank lines may follow it)
 *     fence-open := "```" info? | "~~~" info?
 *     A fence whose info string names a file (```ts:src/a.ts, ```src/a.ts;
 *     see fence-path.ts) is the block's path line.
 *     A block with no path line uses the path of the block before it, or
 *     for the first block the caller's `defaultPath` (the CLI's --target).
 *
 *   tool-call  := "<apply_diff>" ( args | path diff+ ) "</apply_diff>"
 *     args     := "<args>" file+ "</args>"
 *     file     := "<file>" path diff+ "</file>"
 *     path     := "<path>" text "</path>"
 *     diff     := "<diff>" ( content start_line? | start_line content | raw ) "</diff>"
 *     content  := "<content>" ( CDATA | raw ) "</content>"
 *     start_line := "<start_line>" digits "</start_line>"
 *     CDATA    := "<![CDATA[" text "]]>"
 *
 * Leniencies, each for a model habit:
 * - Path lines dressed as markdown: `src/a.ts:`, `` `src/a.ts` ``,
 *   `**src/a.ts**`, `### src/a.ts`, `File: src/a.ts` (chat models label
 *   each block this way), and a lead-in sentence ending in ":" that names
 *   exactly one path in backticks ("Update `src/a.ts`:").
 * - Raw (non-CDATA) content is not XML-unescaped, because models write code
 *   verbatim inside tags ("if (a < b && c)"); a closing tag inside a
 *   SEARCH/REPLACE block (editing an XML file) does not end the content.
 *   Only when the markers themselves are entity-escaped (`&lt;&lt;&lt;&lt;&lt;
 *   SEARCH`) is the whole content decoded: then the model clearly escaped it.
 * - Missing `</file>`, `</args>` or `</apply_diff>` at the end of the text
 *   (the model stopped after the last diff).
 * - Tags in any order inside `<diff>`; unknown tags are skipped.
 * - Several `<apply_diff>` calls in one text; items for the same path are
 *   merged in order.
 * - `<start_line>0</start_line>` means no hint.
 */

import { EditError } from "../errors.ts";
import { fencePath } from "./fence-path.ts";
import { classifyMarkerLine, scanSearchReplaceBlocks, splitDiffLines } from "./search-replace-parse.ts";

/** One diff for a file: SEARCH/REPLACE text, with an optional line hint. */
export interface FileDiff {
  content: string;
  startLine?: number;
  /** 1-based line of the text where the diff starts, when the parser knows it. */
  line?: number;
}

/** All diffs for one file, in the order given. */
export interface FileEdits {
  path: string;
  diffs: FileDiff[];
}

/** The structured form accepted by `parseSearchReplaceFiles`. */
export type FileDiffInput = { path: string; diff: string | FileDiff[] }[];

function lineAt(text: string, pos: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < pos; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

class FileCollector {
  private readonly byPath = new Map<string, FileEdits>();

  add(path: string, diff: FileDiff): void {
    let entry = this.byPath.get(path);
    if (!entry) {
      entry = { path, diffs: [] };
      this.byPath.set(path, entry);
    }
    entry.diffs.push(diff);
  }

  result(): FileEdits[] {
    return [...this.byPath.values()];
  }
}

// ---------------------------------------------------------------------------
// Structured form

function invalid(message: string, index: number): EditError {
  return new EditError("INVALID_INPUT", message, { index });
}

function parseStructured(items: unknown[]): FileEdits[] {
  const out = new FileCollector();
  items.forEach((item, index) => {
    const where = `Item ${index + 1}`;
    if (typeof item !== "object" || item === null) throw invalid(`${where}: expected { path, diff }.`, index);
    const { path, diff } = item as { path?: unknown; diff?: unknown };
    if (typeof path !== "string" || path.trim() === "") {
      throw invalid(`${where}: "path" must be a non-empty string naming the file to edit.`, index);
    }
    const p = path.trim();
    if (typeof diff === "string") {
      out.add(p, { content: diff });
      return;
    }
    if (!Array.isArray(diff)) {
      throw invalid(`${where} (${p}): "diff" must be SEARCH/REPLACE text or a list of { content, startLine }.`, index);
    }
    for (const d of diff as unknown[]) {
      const { content, startLine } = (typeof d === "object" && d !== null ? d : {}) as {
        content?: unknown;
        startLine?: unknown;
      };
      if (typeof content !== "string") {
        throw invalid(`${where} (${p}): each diff needs "content", the SEARCH/REPLACE text.`, index);
      }
      if (startLine === undefined || startLine === 0) {
        out.add(p, { content });
      } else if (typeof startLine === "number" && Number.isInteger(startLine) && startLine > 0) {
        out.add(p, { content, startLine });
      } else {
        throw invalid(`${where} (${p}): "startLine" must be a positive whole number, got ${String(startLine)}.`, index);
      }
    }
  });
  return out.result();
}

// ---------------------------------------------------------------------------
// Path-line form

// Dotless names that are files, not prose words.
const DOTLESS_FILES = new Set([
  "Makefile",
  "Dockerfile",
  "Gemfile",
  "Rakefile",
  "Procfile",
  "Jenkinsfile",
  "Vagrantfile",
  "Justfile",
  "Brewfile",
  "Caddyfile",
  "LICENSE",
]);

function stripWrap(s: string, wrap: string): string {
  return s.length > 2 * wrap.length && s.startsWith(wrap) && s.endsWith(wrap)
    ? s.slice(wrap.length, -wrap.length).trim()
    : s;
}

/** The path named by a line that holds only a path, or undefined for prose. */
export function readPathLine(line: string): string | undefined {
  const alone = readBarePath(line);
  if (alone !== undefined) return alone;
  // "In `src/a.ts`:" — a lead-in line naming exactly one path in backticks.
  const t = line.trim();
  const first = t.indexOf("`");
  const second = first === -1 ? -1 : t.indexOf("`", first + 1);
  if (!t.endsWith(":") || second === -1 || t.indexOf("`", second + 1) !== -1) return undefined;
  return readBarePath(t.slice(first + 1, second));
}

function readBarePath(line: string): string | undefined {
  let s = line.trim();
  if (s.startsWith("#")) s = s.replace(/^#{1,6}[ \t]+/, "");
  if (/^(?:file|path):[ \t]/i.test(s)) s = s.slice(s.indexOf(":") + 1).trim();
  if (s.endsWith(":")) s = s.slice(0, -1).trim();
  s = stripWrap(stripWrap(stripWrap(s, "**"), "__"), "`");
  if (s.endsWith(":")) s = s.slice(0, -1).trim();
  if (s === "" || s.length > 400 || s.includes("://")) return undefined;
  if (!/^[^\s`<>|"*?]+$/.test(s)) return undefined;
  // A path ends in a name character; "Done." or "e.g.," is prose.
  if (!/[A-Za-z0-9_]$/.test(s)) return undefined;
  if (!/[A-Za-z]/.test(s)) return undefined; // "3.14", "1/2"
  if (s.includes("/") || s.includes("\\") || s.includes(".")) return s;
  return DOTLESS_FILES.has(s) ? s : undefined;
}

function isFence(line: string): boolean {
  const t = line.trimStart();
  return t.startsWith("```") || t.startsWith("~~~");
}

function findPathBefore(lines: string[], openIndex: number, floor: number): string | undefined {
  let i = openIndex - 1;
  const skipBlank = (): void => {
    while (i >= floor && (lines[i] ?? "").trim() === "") i--;
  };
  skipBlank();
  if (i >= floor && isFence(lines[i] ?? "")) {
    // A fence that names its file (```ts:src/a.ts) says it closest.
    const named = fencePath(lines[i] ?? "");
    if (named) return named.path;
    i--;
    skipBlank();
  }
  if (i < floor) return undefined;
  // A path alone in a fence of its own right before the block's fence (```\nsrc/a.py\n```): a DeepSeek habit.
  if (i - 2 >= floor && isFence(lines[i] ?? "") && isFence(lines[i - 2] ?? "")) {
    const fenced = readBarePath(lines[i - 1] ?? "");
    if (fenced !== undefined) return fenced;
  }
  return readPathLine(lines[i] ?? "");
}

function parsePathLines(text: string, defaultPath: string | undefined): FileEdits[] {
  const blocks = scanSearchReplaceBlocks(text);
  if (blocks.length === 0) {
    throw new EditError(
      "PARSE",
      "No SEARCH/REPLACE block found. Write the file path alone on a line, then the block:\n" +
        "src/app.ts\n<<<<<<< SEARCH\n[exact lines to find]\n=======\n[replacement lines]\n>>>>>>> REPLACE",
      { line: 1 },
    );
  }
  const lines = splitDiffLines(text);
  const out = new FileCollector();
  let current = defaultPath;
  let floor = 0;
  for (const b of blocks) {
    const path = findPathBefore(lines, b.line - 1, floor);
    if (path !== undefined) current = path;
    if (current === undefined) {
      throw new EditError(
        "PARSE",
        `Line ${b.line}: the SEARCH/REPLACE block has no file path. Put the path of the file alone on the line ` +
          "before <<<<<<< SEARCH (or before the ``` fence that opens the block), e.g. src/app.ts",
        { line: b.line, index: b.index },
      );
    }
    out.add(current, { content: lines.slice(b.line - 1, b.closeLine).join("\n"), line: b.line });
    floor = b.closeLine;
  }
  return out.result();
}

// ---------------------------------------------------------------------------
// Tool-call form: a small cursor scanner, no XML library and no regular
// expression over the whole text.

function toolError(text: string, pos: number, message: string): EditError {
  const line = lineAt(text, pos);
  return new EditError("PARSE", `Line ${line}: ${message}`, { line });
}

function skipSpace(text: string, pos: number): number {
  let p = pos;
  while (p < text.length && /\s/.test(text[p] ?? "")) p++;
  return p;
}

interface Tag {
  /** Tag name, "/" prefixed for a closing tag; "" when `<` starts no tag. */
  name: string;
  /** Index just after the closing `>`. */
  end: number;
}

const MAX_TAG_LENGTH = 256;

function readTag(text: string, lt: number): Tag {
  let i = lt + 1;
  if (text[i] === "/") i++;
  while (i < text.length && /[A-Za-z0-9_:-]/.test(text[i] ?? "")) i++;
  const name = text.slice(lt + 1, i);
  if (name === "" || name === "/") return { name: "", end: lt + 1 };
  // Attributes are short; bounding the look-ahead keeps a text full of stray
  // `<` linear. `<path` followed by prose is not a tag: step over the `<` only.
  const limit = Math.min(text.length, i + MAX_TAG_LENGTH);
  for (let j = i; j < limit; j++) {
    const ch = text[j];
    if (ch === ">") return { name, end: j + 1 };
    if (ch === "<") break;
  }
  return { name: "", end: lt + 1 };
}

/**
 * Where the `close` tag ending a content section is. A closing tag on a line
 * inside a SEARCH/REPLACE block is file content (an XML file being edited),
 * unless it directly follows `>>>>>>> REPLACE` on the same line.
 */
function findContentEnd(text: string, from: number, close: string): number {
  let inBlock = false;
  let start = from;
  for (;;) {
    let nl = text.indexOf("\n", start);
    if (nl === -1) nl = text.length;
    const line = text.slice(start, nl);
    const at = line.indexOf(close);
    const kind = classifyMarkerLine(line);
    if (!inBlock) {
      if (at !== -1) return start + at;
      if (kind === "open") inBlock = true;
    } else if (kind === "close") {
      inBlock = false;
    } else if (at !== -1 && classifyMarkerLine(line.slice(0, at)) === "close") {
      return start + at;
    }
    if (nl >= text.length) break;
    start = nl + 1;
  }
  // Malformed blocks: end at the first closing tag and let the block parser
  // report the marker mistake with its line.
  return text.indexOf(close, from);
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'", "#39": "'" };

function decodeIfEscaped(content: string): string {
  const escapedMarkers = content.includes("&lt;&lt;&lt;&lt;&lt;") || content.includes("&gt;&gt;&gt;&gt;&gt;");
  const rawMarkers = splitDiffLines(content).some((l) => classifyMarkerLine(l) === "open");
  if (!escapedMarkers || rawMarkers) return content;
  return content.replace(/&(lt|gt|amp|quot|apos|#39);/g, (_m, name: string) => ENTITIES[name] ?? "");
}

/** Reads element text after its opening tag; returns the text and the index after the closing tag. */
function readElementText(text: string, from: number, tagName: string): { value: string; end: number } {
  const close = `</${tagName}>`;
  const q = skipSpace(text, from);
  if (text.startsWith("<![CDATA[", q)) {
    const cdataEnd = text.indexOf("]]>", q + 9);
    if (cdataEnd === -1) throw toolError(text, q, `the <![CDATA[ section in <${tagName}> is never closed with ]]>.`);
    const after = skipSpace(text, cdataEnd + 3);
    if (!text.startsWith(close, after)) {
      throw toolError(text, after, `expected ${close} right after the ]]> that ends the CDATA section.`);
    }
    return { value: text.slice(q + 9, cdataEnd), end: after + close.length };
  }
  const end = findContentEnd(text, from, close);
  if (end === -1) throw toolError(text, from, `<${tagName}> is never closed; expected ${close}.`);
  return { value: decodeIfEscaped(text.slice(from, end)), end: end + close.length };
}

function readStartLine(text: string, from: number): { value: number | undefined; end: number } {
  const { value, end } = readElementText(text, from, "start_line");
  const v = value.trim();
  if (!/^\d{1,9}$/.test(v)) {
    throw toolError(text, from, `<start_line> must hold a line number, like <start_line>42</start_line>; found "${v.slice(0, 40)}".`);
  }
  const n = Number(v);
  return { value: n === 0 ? undefined : n, end };
}

/** Parses one `<diff>` element whose opening tag ends at `from`. */
function readDiff(text: string, from: number): { diff: FileDiff; end: number } {
  const q = skipSpace(text, from);
  if (!text.startsWith("<content>", q) && !text.startsWith("<start_line>", q)) {
    const { value, end } = readElementText(text, from, "diff");
    return { diff: { content: value }, end };
  }
  let content: string | undefined;
  let startLine: number | undefined;
  let p = q;
  for (;;) {
    p = skipSpace(text, p);
    if (p >= text.length) throw toolError(text, from, "<diff> is never closed; expected </diff>.");
    if (text.startsWith("</diff>", p)) {
      p += 7;
      break;
    }
    if (text[p] !== "<") {
      throw toolError(text, p, "unexpected text inside <diff>; expected <content>, <start_line> or </diff>.");
    }
    const tag = readTag(text, p);
    if (tag.name === "content") {
      const r = readElementText(text, tag.end, "content");
      content = r.value;
      p = r.end;
    } else if (tag.name === "start_line") {
      const r = readStartLine(text, tag.end);
      startLine = r.value;
      p = r.end;
    } else if (tag.name === "") {
      throw toolError(text, p, "unexpected text inside <diff>; expected <content>, <start_line> or </diff>.");
    } else {
      p = tag.end; // unknown tag: skip it
    }
  }
  if (content === undefined) {
    throw toolError(text, from, "this <diff> has no <content>; put the SEARCH/REPLACE text in <content><![CDATA[ ... ]]></content>.");
  }
  return { diff: startLine === undefined ? { content } : { content, startLine }, end: p };
}

interface PendingFile {
  path?: string;
  diffs: FileDiff[];
  /** Where the element started, for messages. */
  pos: number;
}

function flushFile(text: string, file: PendingFile | undefined, out: FileCollector): void {
  if (!file || (file.path === undefined && file.diffs.length === 0)) return;
  if (file.path === undefined) {
    throw toolError(text, file.pos, "this file entry has a <diff> but no <path>; add <path>relative/path/to/file</path>.");
  }
  if (file.diffs.length === 0) {
    throw toolError(text, file.pos, `the entry for ${file.path} has no <diff>; add <diff><content>...</content></diff>.`);
  }
  for (const d of file.diffs) out.add(file.path, d);
}

function parseToolCalls(text: string): FileEdits[] {
  const out = new FileCollector();
  let pos = 0;
  let calls = 0;
  for (;;) {
    const start = text.indexOf("<apply_diff", pos);
    if (start === -1) break;
    const tag = readTag(text, start);
    if (tag.name !== "apply_diff") {
      pos = start + 1;
      continue;
    }
    calls++;
    let file: PendingFile | undefined;
    let p = tag.end;
    for (;;) {
      const lt = text.indexOf("<", p);
      if (lt === -1) {
        p = text.length;
        break;
      }
      const t = readTag(text, lt);
      if (t.name === "/apply_diff") {
        p = t.end;
        break;
      }
      if (t.name === "file") {
        flushFile(text, file, out);
        file = { diffs: [], pos: lt };
        p = t.end;
      } else if (t.name === "/file") {
        flushFile(text, file, out);
        file = undefined;
        p = t.end;
      } else if (t.name === "path") {
        file ??= { diffs: [], pos: lt };
        const r = readElementText(text, t.end, "path");
        const path = r.value.trim();
        if (path === "") throw toolError(text, lt, "<path> is empty; give the file's path relative to the project root.");
        if (file.path !== undefined && file.path !== path) {
          // Simple form with several files and no <file> wrappers.
          flushFile(text, file, out);
          file = { diffs: [], pos: lt };
        }
        file.path = path;
        p = r.end;
      } else if (t.name === "diff") {
        file ??= { diffs: [], pos: lt };
        const r = readDiff(text, t.end);
        file.diffs.push(r.diff);
        p = r.end;
      } else {
        p = t.end; // <args>, </args>, unknown tags, stray `<`
      }
    }
    flushFile(text, file, out);
    pos = p;
  }
  const result = out.result();
  if (calls > 0 && result.length === 0) {
    throw toolError(text, text.indexOf("<apply_diff"), "<apply_diff> holds no file; expected <args><file><path>...</path><diff>...</diff></file></args>.");
  }
  return result;
}

// ---------------------------------------------------------------------------

/**
 * Splits multi-file SEARCH/REPLACE input into per-file edits. Accepts the
 * structured list, the `<apply_diff>` tool call, or text whose blocks are
 * each preceded by a file path line. Throws PARSE (with `detail.line`) or
 * INVALID_INPUT (with `detail.index` of the list item).
 */
export interface ParseFilesOptions {
  /** Path of blocks that come before any path line. @default undefined (such a block is a PARSE error) */
  defaultPath?: string;
}

export function parseSearchReplaceFiles(input: string | FileDiffInput, options: ParseFilesOptions = {}): FileEdits[] {
  if (Array.isArray(input)) return parseStructured(input);
  if (typeof input !== "string") {
    throw new EditError("INVALID_INPUT", "Expected SEARCH/REPLACE text or a list of { path, diff }.");
  }
  if (hasToolCall(input)) return parseToolCalls(input);
  return parsePathLines(input, options.defaultPath);
}

function hasToolCall(text: string): boolean {
  for (let i = text.indexOf("<apply_diff"); i !== -1; i = text.indexOf("<apply_diff", i + 1)) {
    if (readTag(text, i).name === "apply_diff") return true;
  }
  return false;
}

/**
 * True when `text` holds a SEARCH/REPLACE block: a SEARCH marker line
 * followed later by a separator or REPLACE marker line. Cheap, for format
 * detection; it does not validate.
 */
export function looksLikeSearchReplace(text: string): boolean {
  if (typeof text !== "string" || !/search/i.test(text)) return false;
  let opened = false;
  for (const line of splitDiffLines(decodeIfEscaped(text))) {
    // Tool-call content often starts on the tag's line: <content><![CDATA[<<<<<<< SEARCH
    const kind = classifyMarkerLine(opened ? line : stripLeadingTags(line));
    if (kind === "open") opened = true;
    else if (opened && (kind === "separator" || kind === "close")) return true;
  }
  return false;
}

function stripLeadingTags(line: string): string {
  let s = line.trimStart();
  for (;;) {
    if (s.startsWith("<![CDATA[")) s = s.slice(9);
    else if (s.startsWith("<") && !s.startsWith("<<")) {
      const gt = s.indexOf(">");
      if (gt === -1) return s;
      s = s.slice(gt + 1);
    } else return s;
  }
}
