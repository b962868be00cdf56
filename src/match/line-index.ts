/**
 * An index of the file's lines by their trimmed text, built once per
 * document when the searches of one call have used enough scans to pay for
 * it. One edit anchors on a handful of lines, each found with one `indexOf`
 * scan of the file (0.2–2 ms per 50k–200k lines); the index costs about as
 * much as 10–20 such scans to build. A call with many edits (hundreds of
 * SEARCH/REPLACE blocks or hunks) crosses that line quickly, and from then
 * on every anchor line is a map lookup. A single edit never builds it.
 * A document kept across calls answers with its per-line hashes instead
 * (Document.trimmedHashes, anchors.ts), built once and carried over edits.
 */
import { trimBlank } from "../text/blank.ts";
import type { Document } from "../text/document.ts";

export { isSpace, trimBlank } from "../text/blank.ts";

/** Anchor-line scans in one context before the index is built (about the index's own cost in scans). */
export const SCANS_BEFORE_INDEX = 16;

/** Line numbers (ascending) by trimmed text (non-empty, no blank ends); undefined or [] when none. */
export interface LineIndex {
  get(trimmed: string): readonly number[] | undefined;
  /** Lines that may be those of `get` (a superset, cheaper to list), for a caller that checks each place itself. */
  maybe?(trimmed: string): readonly number[];
  /** Whether some line may be `trimmed` (false: certainly none), without listing them: `}` is 86,000 lines of a file of them. */
  mayHave?(trimmed: string): boolean;
}

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
