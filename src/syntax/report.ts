/**
 * The syntax check's report, as the file layer and the public types carry
 * it: plain data, with no tree-sitter type in it, so that a consumer's
 * type check never reads web-tree-sitter's declarations (they need
 * Emscripten's types, which a consumer does not have).
 */
import type { LineRange } from "../errors.ts";
import type { SyntaxLanguage } from "./languages.ts";

/** One syntax error in a text. Lines and columns are 1-based. */
export interface SyntaxIssue {
  /** "error": text the grammar could not read; "missing": a token the grammar expected and did not find. */
  kind: "error" | "missing";
  line: number;
  column: number;
  /** Last line the unreadable text spans (= line for a missing token). */
  endLine: number;
  /** Offsets of the node in the text, half-open. */
  start: number;
  end: number;
  /** What is wrong, for a model: `missing ")"`, `unexpected "else:"`. */
  message: string;
  /** The text of the issue's line, trimmed, at most 80 characters. */
  excerpt: string;
}

/** What an edit did to a file's syntax. */
export interface SyntaxReport {
  /** The grammar that read the file. */
  language: SyntaxLanguage;
  /** The text before the edit parses without an error. */
  parsesBefore: boolean;
  /** The text after the edit parses without an error. */
  parsesAfter: boolean;
  /** Errors of the text after that the text before did not have, in document order (lines of the text after). */
  introduced: SyntaxIssue[];
  /** The lines of the text after that the edit changed (one range over all of a file's changes). */
  changed: LineRange;
}
