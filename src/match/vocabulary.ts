/**
 * The words a format hands the shared applier so that its messages speak
 * the format's language ("the SEARCH text", "hunk 2"), instead of one
 * format rewriting another's sentences.
 */

/** What is known when several places match, for the format's advice. */
export interface AmbiguitySituation {
  /** The line hint the op carried, when it had one (and it did not decide). */
  hint?: number;
  hintWindow: number;
  /** Every two places are at least two hint windows apart: a hint would decide. */
  farApart: boolean;
  /** All places hold the same text: replacing every one is a meaningful choice. */
  sameText: boolean;
}

export interface Vocabulary {
  /** The find text as a noun phrase: "the text to replace", "the SEARCH text". */
  find: string;
  /** The replacement as a noun phrase: "newString", "the REPLACE text". */
  replacement: string;
  /** How to add context in this format: "Include more surrounding lines in the SEARCH text". */
  moreContext: string;
  /** What else tells this format which place is meant: a clause starting with ", or", or "." and a sentence. */
  disambiguate(s: AmbiguitySituation): string;
  /** An op with nothing to find, in a non-empty file and without a line hint (a diff hunk that only adds lines). */
  emptyFind: string;
  /** The start of the message for such an op whose line hint (insert after line `after`) is past the end. */
  emptyFindAt(after: number): string;
}

/** The two names a splice's refusals need. */
export type SpliceWords = Pick<Vocabulary, "find" | "replacement">;

/** For callers without a format (the splice used on its own). */
export const GENERIC_WORDS: SpliceWords = { find: "the text to find", replacement: "the replacement" };

export const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
