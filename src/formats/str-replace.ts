/**
 * `replace()`: the str_replace edit (oldString / newString), the way agent
 * edit tools call it, on the shared applier.
 *
 * Semantics: identical strings are NO_CHANGE; an edit whose result already
 * stands (see engine/already-applied.ts) returns the content unchanged with
 * `alreadyApplied`; an empty oldString creates
 * content only when the document is empty (a new file); the cascade locates
 * the old text (see match/cascade.ts); replaceAll replaces every occurrence
 * found by the first exact-after-normalisation strategy that finds any.
 * newString is literal: `$&`, `$1`, `$$` mean nothing here.
 */
import { applyOps } from "../engine/apply-ops.ts";
import type { AppliedOp, EditOp, TextChange } from "../engine/ops.ts";
import { checkFlag, checkLine, type EngineOptions, optionsObject, resolveOptions } from "../engine/options.ts";
import type { AmbiguitySituation, Vocabulary } from "../match/vocabulary.ts";
import { EditError } from "../errors.ts";
import { alreadyAppliedNote } from "./already-applied.ts";

export interface ReplaceOptions extends EngineOptions {
  /** Replace every occurrence found by the first exact-after-normalisation strategy that finds any. @default false */
  replaceAll?: boolean;
  /** 1-based line where the model believes the text starts: decides between candidates when one starts there or is clearly the nearest. @default undefined */
  startLine?: number;
  /** How the caller's interface says "replace every occurrence", for the AMBIGUOUS advice. @default "set replaceAll" */
  replaceAllAdvice?: string;
}

/** How an edit was applied (the applier's report of it); 1-based inclusive lines of the original content. */
export type MatchReport = Pick<AppliedOp, "strategy" | "startLine" | "endLine" | "score" | "fuzzy" | "count" | "exception" | "warnings">;

export interface ReplaceResult {
  content: string;
  /** Where the edit applied; for an edit already applied, where its new text stands (`count` 0: nothing replaced). */
  match: MatchReport;
  /**
   * The edit's result already stands in the content (it was applied
   * before): `content` is unchanged, and this note (code ALREADY_APPLIED)
   * says where.
   */
  alreadyApplied?: EditError;
}

/** The words of str_replace messages; `replaceAllAdvice` is how the caller's interface says "replace every occurrence". */
export function strReplaceVocabulary(replaceAllAdvice = "set replaceAll"): Vocabulary {
  return {
  find: "the text to replace",
  replacement: "newString",
  moreContext: "Include more surrounding lines in the text to replace",
  disambiguate: (s: AmbiguitySituation) =>
    s.hint !== undefined
      ? `. The line hint ${s.hint} does not decide: a hint picks a place when it starts there, or when it is within ${s.hintWindow} lines of it and every other place is much farther away.`
      : s.sameText
        ? `, or ${replaceAllAdvice} to change every occurrence.`
        : ".",
    emptyFind: "The text to replace is empty.",
    emptyFindAt: (after: number) => `The text to replace is empty (insert after line ${after})`,
  };
}

function checkString(value: unknown, name: string): string {
  if (typeof value !== "string") throw new EditError("INVALID_INPUT", `${name} must be a string, got ${value === null ? "null" : typeof value}.`);
  return value;
}

function createContent(newString: string): ReplaceResult {
  const lines = newString === "" ? 0 : newString.split("\n").length - (newString.endsWith("\n") ? 1 : 0);
  return { content: newString, match: { strategy: "create", startLine: 1, endLine: lines, score: 1, fuzzy: false, count: 1 } };
}

export function replace(content: string, oldString: string, newString: string, options: ReplaceOptions = {}): ReplaceResult {
  return replaceWithChange(content, oldString, newString, options).result;
}

/** The op of a str_replace edit: its one reading, literal (the file layer builds it too, to carry the edit: fs/carried-text.ts). */
export function replaceOp(oldString: string, newString: string, hints: EditOp["hints"] = {}): EditOp {
  return { readings: [{ find: oldString, replace: newString }], hints, origin: { index: 0, line: 1, label: "" }, overlap: "conflict", requireChange: true };
}

/** `replace`, and the change it made as one range of `content` when it spliced (for the file layer; not exported by the package). */
export function replaceWithChange(
  content: string,
  oldString: string,
  newString: string,
  options: ReplaceOptions = {},
): { result: ReplaceResult; change?: TextChange; parts?: TextChange[]; literal?: true } {
  checkString(content, "content");
  checkString(oldString, "oldString");
  checkString(newString, "newString");
  const o = optionsObject<ReplaceOptions>(options);
  const opts = resolveOptions(o);
  const replaceAll = checkFlag(o.replaceAll, "replaceAll") ?? false;
  const startLine = checkLine(o.startLine, "startLine");
  if (oldString === newString) {
    throw new EditError("NO_CHANGE", "oldString and newString are identical: the edit would change nothing. Send the text as it should be after the edit in newString.");
  }
  if (oldString === "") {
    if (content !== "") {
      throw new EditError(
        "INVALID_INPUT",
        "oldString is empty, which only creates a new file, but this file has content. To insert text, put the line before (or after) the insertion point in oldString and repeat it in newString with the new text.",
      );
    }
    return { result: createContent(newString) };
  }
  const op = replaceOp(oldString, newString, { ...(startLine !== undefined && { startLine }), ...(replaceAll && { replaceAll }) });
  const advice = o.replaceAllAdvice;
  if (advice !== undefined && typeof advice !== "string") throw new EditError("INVALID_INPUT", "replaceAllAdvice must be a string.");
  const report = applyOps(content, [op], { opts, vocab: strReplaceVocabulary(advice) });
  const failure = report.failed[0];
  const done = failure && alreadyAppliedNote(failure.error, "edit");
  if (done) {
    const { startLine, endLine } = done.detail as { startLine: number; endLine: number };
    return { result: { content, match: { strategy: "exact", startLine, endLine, score: 1, fuzzy: false, count: 0 }, alreadyApplied: done } };
  }
  if (failure) throw failure.error;
  const a = report.applied[0];
  if (!a) throw new EditError("INVALID_INPUT", "The edit was neither applied nor refused.");
  return {
    result: {
      content: report.content,
      match: {
        strategy: a.strategy,
        startLine: a.startLine,
        endLine: a.endLine,
        score: a.score,
        fuzzy: a.fuzzy,
        count: a.count,
        ...(a.exception && { exception: a.exception }),
        ...(a.warnings && { warnings: a.warnings }),
      },
    },
    ...(report.change && { change: report.change }),
    ...(report.parts && { parts: report.parts }),
    ...(report.literal && { literal: report.literal }),
  };
}
