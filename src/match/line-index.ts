/**
 * An index of the file's lines by their trimmed text, built once per
 * document when the searches of one call have used enough scans to pay for
 * it. One edit anchors on a handful of lines, each found with one `indexOf`
 * scan of the file (0.2–2 ms per 50k–200k lines); the index costs about as
 * much as 10–20 such scans to build. A call with many edits (hundreds of
 * SEARCH/REPLACE blocks or hunks) crosses that line quickly, and from then
 * on every anchor line is a map lookup. A single edit never builds it.
 */
import type { Document } from "../text/document.ts";

/** Anchor-line scans in one context before the index is built (about the index's own cost in scans). */
export const SCANS_BEFORE_INDEX = 16;

/** The blank characters at a line's ends (the Unicode spaces inside code are kept). */
export const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;

/** `line` without the blank space at its ends, the same characters `linesTrimmedEqual` treats as blank. */
export function trimBlank(line: string): string {
  let s = 0;
  let e = line.length;
  while (s < e && isSpace(line.charCodeAt(s))) s++;
  while (e > s && isSpace(line.charCodeAt(e - 1))) e--;
  return s === 0 && e === line.length ? line : line.slice(s, e);
}

export type LineIndex = ReadonlyMap<string, readonly number[]>;

/** Line numbers (ascending) by trimmed text; blank lines are left out. */
export function buildLineIndex(doc: Document): LineIndex {
  const index = new Map<string, number[]>();
  const n = doc.lineCount;
  for (let i = 0; i < n; i++) {
    const key = trimBlank(doc.line(i));
    if (key === "") continue;
    const list = index.get(key);
    if (list) list.push(i);
    else index.set(key, [i]);
  }
  return index;
}
