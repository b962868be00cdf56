/**
 * `replace()`: the str_replace edit (oldString / newString), the way agent
 * edit tools call it, on the shared engine.
 *
 * Semantics: identical strings are NO_CHANGE; an empty oldString creates
 * content only when the document is empty (a new file); the cascade locates
 * the old text (see match/cascade.ts); replaceAll replaces every occurrence
 * found by the first exact-after-normalisation strategy that finds any.
 * newString is literal: `$&`, `$1`, `$$` mean nothing here.
 */
import { EditError } from "../errors.ts";
import { type Located, type LocateOptions, locate } from "../match/locate.ts";
import type { StrategyName } from "../match/types.ts";
import { planSplice, renderSplices } from "../splice.ts";
import { Document } from "../text/document.ts";

export interface ReplaceOptions extends LocateOptions {}

/** How an edit was applied; 1-based inclusive lines of the original content. */
export interface MatchReport {
  strategy: StrategyName | "create";
  startLine: number;
  endLine: number;
  /** 1 for exact (after normalisation), lower for similarity matches. */
  score: number;
  /** True when found by a strategy other than exact text: worth a look. */
  fuzzy: boolean;
  /** Number of places replaced (replaceAll), else 1. */
  count: number;
}

export interface ReplaceResult {
  content: string;
  match: MatchReport;
}

function report(located: Located): MatchReport {
  const first = located.candidates[0];
  const last = located.candidates[located.candidates.length - 1];
  return {
    strategy: located.strategy,
    startLine: (first?.startLine ?? 0) + 1,
    endLine: last?.endLine ?? 0,
    // A loop, not Math.min(...scores): 250,000 replaceAll places overflowed the call stack.
    score: located.candidates.reduce((min, c) => Math.min(min, c.score), 1),
    fuzzy: located.strategy !== "exact" && located.strategy !== "multi-occurrence",
    count: located.candidates.length,
  };
}

export function replace(content: string, oldString: string, newString: string, options: ReplaceOptions = {}): ReplaceResult {
  for (const [name, value] of [
    ["content", content],
    ["oldString", oldString],
    ["newString", newString],
  ] as const) {
    if (typeof value !== "string") {
      throw new EditError("INVALID_INPUT", `${name} must be a string, got ${value === null ? "null" : typeof value}.`);
    }
  }
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
    const lines = newString === "" ? 0 : newString.split("\n").length - (newString.endsWith("\n") ? 1 : 0);
    return { content: newString, match: { strategy: "create", startLine: 1, endLine: lines, score: 1, fuzzy: false, count: 1 } };
  }
  const doc = Document.from(content);
  const located = locate(doc, oldString, options);
  const output = renderSplices(
    doc,
    located.candidates.map((c) => planSplice(doc, c, newString)),
  );
  if (output === content) {
    const r = report(located);
    throw new EditError(
      "NO_CHANGE",
      `The text to replace was found at lines ${r.startLine}-${r.endLine} (${r.strategy}), but applying newString there changes nothing: the file already reads that way. Check that newString holds the intended change.`,
      { candidates: [{ startLine: r.startLine, endLine: r.endLine, strategy: r.strategy, score: r.score }] },
    );
  }
  return { content: output, match: report(located) };
}
