/**
 * A whole edit text that a model over-escaped into one line: a SEARCH/REPLACE
 * response, a diff or a tool argument with literal `\n` (and `\t`, `\"`)
 * and no real line break, as double-encoded tool arguments produce. Read
 * as written it has no markers or hunks at all; un-escaped it is the edit.
 * One place for every format, so they all undo the mistake the same way.
 */
import { unescapeModelText } from "./normalize.ts";

export interface Unescaped {
  text: string;
  /** The text was un-escaped (reported so the user sees it happened). */
  unescaped: boolean;
}

/** Two escaped breaks at least: one `\n` in a one-line text is more likely a string literal. */
const MIN_ESCAPED_BREAKS = 2;

export function unescapeWholeText(text: string): Unescaped {
  // Any real break (a CR-only text too) means the text was not escaped onto one line.
  if (text.includes("\n") || text.includes("\r")) return { text, unescaped: false };
  let breaks = 0;
  for (let p = text.indexOf("\\n"); p !== -1 && breaks < MIN_ESCAPED_BREAKS; p = text.indexOf("\\n", p + 2)) breaks++;
  if (breaks < MIN_ESCAPED_BREAKS) return { text, unescaped: false };
  return { text: unescapeModelText(text), unescaped: true };
}
