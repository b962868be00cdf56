/**
 * A removal note with nothing of the file between its neighbours, that
 * names a line the merge has already passed since the last marker
 * (`# remove if x > max:` after a run that shows `if x > max:` one level
 * deeper under a new `if`; `# remove # v-spacer` after a run that left that
 * comment line out): it notes a removal the run of code before it already
 * made, or where a re-indented line stood. It removes nothing more, and it
 * is not code either: written as a comment, it put the note into the file
 * (bench:lazy: 2 wrong merges once runs with re-indented lines were merged,
 * segment-shift.ts). A note naming no such line is still a new comment
 * (`# Remove duplicates` over new code).
 */
import { lineKey } from "./align.ts";
import type { SnippetLine } from "./markers.ts";

const OPEN = /^(?:\/\/|#|--|;|%|\/\*|<!--|\{\/\*|')\s*/;
const VERB = /^(?:remove|removed|removing|delete|deleted|deleting)\b[\s:]*/i;
const CLOSE = /\s*(?:\*\/|-->|\*\/\})$/;
// A shorter quote ("it", "x") names no line: it would start many.
const MIN_QUOTE = 8;

/** The start of a line removal note `note` quotes (its text after the verb), or undefined when too short to name one. */
export function noteQuote(note: SnippetLine): string | undefined {
  const quote = lineKey(note.text.trim().replace(OPEN, "").replace(VERB, "").replace(CLOSE, ""));
  return quote.length < MIN_QUOTE ? undefined : quote;
}

/** Whether removal note `note` quotes the start of one of file lines [from, to). */
export function namesPassedLine(note: SnippetLine, fileLines: readonly string[], from: number, to: number): boolean {
  const quote = noteQuote(note);
  if (quote === undefined) return false;
  for (let f = Math.max(0, from); f < to; f++) if (lineKey(fileLines[f] as string).startsWith(quote)) return true;
  return false;
}
