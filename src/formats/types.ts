/**
 * What a format module gives the registry (formats/index.ts), and what the
 * response detection and the file layer get back. A format knows how to
 * find its edits in a model's response (`detect`, `split`) and how to apply
 * one file's edit to that file's text (`apply`, through the shared engine).
 */
import type { EngineOptions } from "../engine/options.ts";
import type { TextChange } from "../engine/ops.ts";
import type { EditError } from "../errors.ts";
import type { RejectedOp } from "./rejects.ts";
import type { DefinitionsReader } from "../syntax/definitions-reader.ts";
import type { SyntaxChecker } from "../syntax/merge-checker.ts";

/** A file's syntax tools, loaded before a synchronous merge that reads them (FormatEntry `syntaxTrees`). */
export interface SyntaxTrees {
  /** The file's definitions, read from its syntax tree. */
  definitions?: DefinitionsReader;
  /** The syntax errors a new text of the file has that the old one had not. */
  syntax?: SyntaxChecker;
}

/** One edit of a response for one file, in the format that found it. */
export interface FileEdit<P = unknown> {
  format: string;
  path: string;
  /** 1-based line of the response where the edit starts, when known. */
  line?: number;
  /** sha256 (hex) of the file's bytes the model saw. */
  expectedHash?: string;
  /** The file's content as the model saw it. */
  expectedContent?: string;
  /** The path as the input writes it, when `path` was read from it (a diff header before git's a/ b/ go): what `-p N` strips. */
  writtenPath?: string;
  /** The edit creates `path` from this file's text (a git `copy from`): it is read from here, and `path` must not exist. */
  sourcePath?: string;
  /** What the format needs to apply it (its own shape). */
  payload: P;
}

/** The response as every format's `split` sees it. */
export interface ResponseText {
  /** LF line breaks. */
  readonly lines: readonly string[];
  readonly fences: readonly Fence[];
  /** Lines already taken by a format that ran before (JSON fences, diffs). */
  readonly consumed: Set<number>;
  /** The path of edits that name none (the CLI's --target); without it they are PARSE errors. */
  readonly defaultPath?: string | undefined;
  /** The format the user asked for ("auto" when none): a format read only on request (whole) checks it. */
  readonly format?: string;
  /** Indices of `lines` that ended in CRLF in the input (none when the input was read un-escaped). */
  readonly crlfLines?: ReadonlySet<number>;
}

export interface Fence {
  /** The info string, lower-cased: "diff", "json", "ts:src/a.ts". */
  info: string;
  /** 0-based line of the opening fence. */
  open: number;
  /** 0-based line of the closing fence (lines.length when unclosed). */
  close: number;
  body: string;
}

export interface SplitResult<P = unknown> {
  edits: FileEdit<P>[];
  /** Parts of the response that look like this format but cannot be read. */
  errors: EditError[];
}

/** How one op of a file's edit went, for the file layer's report. */
export interface OpOutcome {
  /** "already-applied": the op's result already stands in the file; nothing was changed for it, and `note` (ALREADY_APPLIED) says where. */
  status: "applied" | "failed" | "already-applied";
  strategy?: string;
  startLine?: number;
  endLine?: number;
  score?: number;
  fuzzy?: boolean;
  error?: EditError;
  note?: EditError;
  /** Applied to this version of the history (0-based, oldest first) and carried onto the current file. */
  version?: number;
  /** A failed op under `keepApplied`: its text for the file's `.rej` (absent: the op has no such form, and fails as without it). */
  rejected?: RejectedOp;
  /** Places an edit replacing every occurrence (str_replace `replaceAll`) replaced; absent for other edits. */
  places?: number;
  /** How a SEARCH/REPLACE block's place was chosen among several (its line hint, ...); absent when it fit one. */
  resolvedBy?: string;
}

export interface FileApplyContext {
  /** The path as reported (relative to the root). */
  path: string;
  /** The file exists (and was not deleted by an earlier edit). */
  exists: boolean;
  options: EngineOptions;
  /** Places the user chose for ambiguous ops: op index -> 1-based start line. */
  choices?: ReadonlyMap<number, number>;
  /** Said when the file does not exist: "did you mean src/a.ts? use -p1". */
  pathHint?: string;
  /** How the caller says "replace every occurrence" ("set replaceAll", "use --all"). */
  replaceAllAdvice?: string;
  /** How the caller says "an empty text to find" (`an empty "oldString"`, `--old ''`). */
  emptyOldAdvice?: string;
  /** The file starts with a BOM, which `content` leaves out (the file layer restores it on write). */
  bom?: boolean;
  /** The file's permission bits as read (a git mode change already made is not made again). */
  mode?: number;
  /** Earlier texts of the file the model may have read, oldest first (the history): a format that places edits by itself reads them (anchored tags). */
  versions?: readonly string[];
  /**
   * `apply --reject`: return the text with the ops that applied even when
   * others failed (`content` set), each failed op carrying `rejected`; an op
   * whose result already stands is `already-applied` on its own. Failures of
   * the whole edit (a missing file, a parse error) still throw.
   */
  keepApplied?: boolean;
  /** The file's syntax tools, for a format that reads them (`syntaxTrees`); absent for a file of no known language. */
  trees?: SyntaxTrees;
}

export interface FileApplyResult {
  /** The new text; undefined when an op failed (nothing of this edit is kept), unless `keepApplied`. */
  content?: string;
  /**
   * `content` as changes of the text the edit was applied to (ranges of it,
   * sorted and apart), when the format knows them: the file layer then
   * diffs and writes only those parts.
   */
  changes?: readonly TextChange[];
  /** With `changes`: each was written as sent by an exact match, reading no line but its place's (engine/ops.ts `EditReport.literal`). */
  literal?: true;
  /** The edit deletes the file. */
  deleted?: boolean;
  /** The edit renames the file (V4A `*** Move to:`): the new text goes to this path (relative to the root) and the old path is deleted. */
  moveTo?: string;
  /** The git mode the file gets (a git diff's `new mode` / `new file mode`): 0o100755 makes it executable, 0o100644 not. */
  gitMode?: number;
  ops: OpOutcome[];
}

export interface FormatEntry<P = unknown> {
  /** The name users give `--format` and reports show. */
  readonly name: string;
  /** What the format looks like, for the list of accepted formats in a PARSE error: "a unified diff with --- / +++ headers". */
  readonly summary?: string;
  /** What one op of this format is called in reports: "edit", "block", "hunk". */
  readonly unit: string;
  /** Whether `text` (a response or one tool argument) holds edits of this format. */
  detect(text: string): boolean;
  /** This format's edits in a response (a JSON edit may carry another format's); marks the lines it took in `consumed`. */
  split(response: ResponseText): SplitResult;
  /** One file's edit applied to the file's current text. Throws EditError for a failure of the whole edit. */
  apply(content: string, edit: FileEdit<P>, ctx: FileApplyContext): FileApplyResult;
  /** The edit that undoes this one (`-R`), for formats that can say; absent: the format cannot be reversed. */
  reverse?(edit: FileEdit<P>): FileEdit<P>;
  /** Auto-detected only in a response where no format before it found an edit or an error (a format that would otherwise read what others read). @default false */
  readonly lastResort?: boolean;
  /** Its apply reads the file's syntax tree (`FileApplyContext.trees`): the file layer loads it first. @default false */
  readonly syntaxTrees?: boolean;
}
