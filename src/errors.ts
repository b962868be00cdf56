/**
 * The one error type of fuzzpatch. Every failure, from a parser, the matcher
 * or the file layer, is an `EditError` with a stable `code` that programs can
 * branch on, structured `detail` for tools, and a `message` written for the
 * model that produced the edit: what was searched, what is closest, what to
 * send next.
 */

export type EditErrorCode =
  /** The text to find is not in the document (not even approximately). */
  | "NOT_FOUND"
  /** The text to find matches several places equally well. */
  | "AMBIGUOUS"
  /** The edit would not change anything (old text equals new text). */
  | "NO_CHANGE"
  /** The edit text cannot be parsed (bad markers, malformed hunk, ...). */
  | "PARSE"
  /** Two edits touch the same lines and disagree. */
  | "CONFLICT"
  /** A path is absolute, escapes the root, crosses a symlink out of it, or points into `.git/`. */
  | "UNSAFE_PATH"
  /** The file changed since the model read it. */
  | "STALE"
  /** The file holds NUL bytes or is not valid UTF-8. */
  | "BINARY"
  /** The file, the response, the number of edits or a find text is larger than the configured limit. */
  | "TOO_LARGE"
  /** The call ran past its time budget (`timeoutMs`) or was aborted (`signal`); nothing was written. */
  | "TIMEOUT"
  /** An argument is invalid (empty old text on a non-empty file, bad option, ...). */
  | "INVALID_INPUT"
  /** Reading or writing a file failed. */
  | "IO"
  /** The edit would introduce a syntax error (`verify: "syntax"`): the message names the line, the error and the lines around it. */
  | "SYNTAX"
  /** The file may not be written by the user running fuzzpatch (permissions, owner, read-only file system); it is not replaced. */
  | "READ_ONLY"
  /**
   * Not a failure: what the edit writes is already in the file and what it
   * replaces is not (the response was applied before). The file layer
   * reports such an edit as `status: "already-applied"` with this code in
   * its `note`, writes nothing for it, and counts it as neither applied nor
   * failed, so re-running a response is harmless.
   */
  | "ALREADY_APPLIED";

/** A place in the document, 1-based inclusive line numbers. */
export interface LineRange {
  startLine: number;
  endLine: number;
}

/** Structured detail; every field is optional, codes fill what they know. */
export interface EditErrorDetail {
  /** Candidate ranges, for AMBIGUOUS and CONFLICT. */
  candidates?: (LineRange & { strategy?: string; score?: number })[];
  /** The closest region, for NOT_FOUND. */
  closest?: LineRange & { similarity: number; text: string };
  /** Strategies that were tried, in order. */
  strategies?: string[];
  /** 1-based line in the edit text, for PARSE. */
  line?: number;
  /** File path, for file-layer errors. */
  path?: string;
  /** Which edit (block, hunk) of a multi-edit input failed, 0-based. */
  index?: number;
  [key: string]: unknown;
}

export class EditError extends Error {
  override readonly name = "EditError";
  readonly code: EditErrorCode;
  readonly detail: EditErrorDetail;

  constructor(code: EditErrorCode, message: string, detail: EditErrorDetail = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
  }

  /** `CODE: message`, the form the CLI prints. */
  override toString(): string {
    return `${this.code}: ${this.message}`;
  }
}

/**
 * `run`'s answer, every error made meanwhile without a stack: for errors
 * made by the thousand and read as answers, never traced (a spent search
 * allowance's refusals; a diff's headers read ahead and their errors
 * dropped). Capturing a stack costs ~7-15 µs an error.
 */
export function withoutStacks<T>(run: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export function isEditError(value: unknown): value is EditError {
  return value instanceof EditError;
}

/**
 * A value as a message may show it. Not `String(value)` alone: an object
 * without a prototype (`Object.create(null)`) throws a TypeError there, and
 * a Symbol in a template literal does too (issue 22, item 5).
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
    case "undefined":
    case "symbol":
      return String(value);
    case "bigint":
      return `${String(value)}n`;
    case "function":
      return "a function";
    default:
      return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
  }
}
