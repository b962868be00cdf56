/** Shapes shared by the accuracy benchmark's modules. */

export const FORMATS = ["str_replace", "search_replace", "udiff", "fudiff", "v4a"] as const;
/**
 * `udiff` is a unified diff with line numbers in its hunk header (what GNU
 * patch and jsdiff read); `fudiff` is the fuzzy `@@ @@` form without them.
 */
export type Format = (typeof FORMATS)[number];

/**
 * Formats a case runs in unless its kind names its own (`onlyFormats`).
 * `v4a` (a Codex V4A chunk, `applyV4A`) is opt-in: only kinds about its
 * `@@` anchors name it, so the other formats' figures stay comparable.
 */
export const DEFAULT_CASE_FORMATS: readonly Format[] = ["str_replace", "search_replace", "udiff", "fudiff"];

/** Whether case `c` runs in `format`. */
export function runsIn(c: { onlyFormats?: readonly Format[] }, format: Format): boolean {
  return (c.onlyFormats ?? DEFAULT_CASE_FORMATS).includes(format);
}

/** What the model meant to do to its target region. */
export type EditKind = "modify" | "insert" | "delete" | "replace";

/**
 * The intended edit, on 0-based file lines. The region `[start, end)` is what
 * a str_replace would quote; `[changeStart, changeEnd)` inside it is replaced
 * by `replacement`; the rest of the region is unchanged anchor text.
 */
export interface IntendedEdit {
  kind: EditKind;
  start: number;
  end: number;
  changeStart: number;
  changeEnd: number;
  replacement: string[];
}

/**
 * One line of the model's view of the edit: up to 3 context lines around the
 * region (`ctx`, used by diffs only), region lines the edit keeps (`keep`),
 * removes (`del`) or adds (`add`). `old` is the line as the model quotes it
 * from the file, `new` as it writes it in the replacement; for `keep` lines
 * they are normally equal (the model's recollection is the same on both
 * sides), which is why a mistake on a kept line shows up in both.
 */
export interface ViewLine {
  role: "ctx" | "keep" | "del" | "add";
  old: string;
  new: string;
  /**
   * Set by a mistake that picked this line (or the gap next to it): a diff's
   * hunk grows past its usual 3 context lines to keep the mistake in view.
   */
  touched?: boolean;
}

export const POSITIVE_KINDS = [
  "none",
  "reindent",
  "trailing-whitespace",
  "inner-spaces",
  "blank-line",
  "over-escaped",
  "smart-punctuation",
  "line-numbers",
  "elided-middle",
  "misremembered-token",
  "file-changed",
  "crlf-file",
  "wrong-line-hint",
  // Asymmetric kinds: the noise is on one side of the edit only (see mistakes.ts).
  // `reindent` and `smart-punctuation` above are the both-sides versions.
  "reindent-find",
  "reindent-replace",
  "inconsistent-indent",
  "blank-forgotten-find",
  "elided-replace",
  "elided-before-change",
  "elided-repeat",
  "smart-find",
  "smart-literal",
  "dup-hinted",
  "escaped-find",
  "escaped-replace",
  "numbers-replace",
  "final-break",
  "replace-whitespace",
  "replace-overlap",
  // History kinds (mistakes-history.ts): the edit is exact against a version that is not the current file.
  "resent",
  "stale-history",
  // Held-out kinds (mistakes-held-out.ts, issue 32), added to see them fail first.
  "blank-forgotten-edge",
  "elided-replace-anchored",
  "compound",
  "reindent-whole",
  // A replacement-side slip with a find-side one (non-exact find text): the rules ledger's kinds.
  "replace-whitespace-slip",
  "final-break-slip",
  "numbers-replace-slip",
  "escaped-replace-slip",
] as const;
export const NEGATIVE_KINDS = ["absent", "two-places", "middle-nowhere", "foreign-minus", "v4a-two-in-scope"] as const;
export const MISTAKE_KINDS = [...POSITIVE_KINDS, ...NEGATIVE_KINDS] as const;
export type MistakeKind = (typeof MISTAKE_KINDS)[number];

export function isNegativeKind(kind: MistakeKind): boolean {
  return (NEGATIVE_KINDS as readonly string[]).includes(kind);
}

/**
 * Positive kinds whose refusal is a correct outcome too: a careful human may
 * apply the edit (the expected content) or ask the model again, but never
 * writes anything else. The elision marker in a replacement only is one: its
 * lines can be recovered from the find text, or the model asked for them.
 */
export const REFUSAL_OK_KINDS: readonly MistakeKind[] = ["elided-replace", "elided-before-change"];

export function isRefusalOk(kind: MistakeKind): boolean {
  return REFUSAL_OK_KINDS.includes(kind);
}

/** Which of the model's texts went through one JSON encoding too many. */
export type EscapedSide = false | "both" | "find" | "replace";

/** A generated case: the file as the applier sees it, the model's edit, the expected result. */
export interface BenchCase {
  index: number;
  seed: number;
  kind: MistakeKind;
  editKind: EditKind;
  /** Corpus path of the source file. */
  file: string;
  /** The file content handed to the applier (after concurrent changes, CRLF, copies). */
  content: string;
  /** The content after the intended edit; `undefined` when the right outcome is a refusal. */
  expected: string | undefined;
  /** The model's view: context, kept, removed and added lines, mistakes included. */
  view: ViewLine[];
  /** A line hint (1-based start line of the region) given to str_replace and SEARCH/REPLACE. */
  hint: number | undefined;
  /** The region start line the model writes in a numbered unified diff header. */
  diffStartLine: number;
  /**
   * The model over-escaped its text (`\n`, `\"` written literally): both
   * sides, or one of the two strings only (str_replace and SEARCH/REPLACE;
   * see `onlyFormats`).
   */
  escaped: EscapedSide;
  /** The formats the case is run in, when not all (a mistake only some formats can carry). */
  onlyFormats?: readonly Format[];
  /** The find text ends with its line break, the replacement not. */
  finalBreak?: "find";
  /**
   * The replacement is shifted as a whole against an exact find text, the
   * literal contract's named exception (`shift-undone`): judged by the
   * intended edit, not by the literal one (render.ts literalExpected).
   */
  wholeShift?: boolean;
  /** The `@@` line of a V4A rendering (a line of the file before the region); bare `@@` when unset. */
  anchor?: string;
  /** File lines next to the region that the replacement repeats (before it, after it). */
  overlap?: { before: string[]; after: string[] };
  /**
   * The version of the file the model read, when it is not `content`
   * (`stale-history`): handed to appliers that take history (fuzzpatch's
   * `applyEdits`); the others see `content` only.
   */
  history?: string;
  /** 1-based inclusive lines of the target region in `content`. */
  startLine: number;
  endLine: number;
  /** One sentence: what the mistake did to this case. */
  note: string;
  /**
   * Only the line hint tells the right place from an equal one (`dup-hinted`):
   * a rendering that carries no hint (a `@@ @@` diff, a call without
   * `startLine`) must be refused. See `expectedFor` in render.ts.
   */
  hintDecides: boolean;
}
