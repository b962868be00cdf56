/**
 * PunctuationNormalized (fuzzpatch): smart quotes, typographic dashes,
 * non-breaking spaces and `…` compared as the ASCII a programmer types, with
 * whitespace runs collapsed. Models "typeset" code they quote (`“hello”`,
 * `a – b`), and sometimes the file is the typeset side (docs, comments).
 */
import { hasUnicodePunctuation, normalizePunctuation, punctuationKey } from "../text/normalize.ts";
import { lineCandidate, noLineWiseWindow, windowsByWord } from "./anchors.ts";
import { queryFromLines } from "./query.ts";
import type { Strategy } from "./types.ts";

// A run of hyphens is one dash: typesetting turns `--fix` into `—fix`, which reads as `-fix` (normalize.ts `punctuationKey`).
const key = punctuationKey;

export const punctuationNormalized: Strategy = {
  name: "punctuation-normalized",
  exact: true,
  find(ctx, q) {
    if (noLineWiseWindow(ctx, q)) return [];
    // No scan of the whole file for typeset characters (17 ms on 9 MB): the
    // identifier anchor is shared with the whitespace strategies, so the
    // windows come almost for free.
    const modelTypeset = hasUnicodePunctuation(q.text);
    const keys = q.lines.map(key);
    // Anchor on an identifier of the ASCII form: identifiers survive typesetting.
    const ascii = queryFromLines(q.lines.map(normalizePunctuation), q.endsWithNewline);
    return windowsByWord(ctx, ascii, { of: key, keys }).map((s) => {
      const region = ctx.doc.lines(s, s + q.lines.length).join("\n");
      // Typeset replacement text is turned into ASCII only where the file had none.
      const rewrite = modelTypeset && !hasUnicodePunctuation(region) ? ("punctuation" as const) : undefined;
      return lineCandidate(ctx, q, s, q.lines.length, "punctuation-normalized", 1, rewrite ? { rewrite } : {});
    });
  },
};
