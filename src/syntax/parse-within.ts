/**
 * A tree-sitter parse with a time limit. Some grammars' scanners are not
 * linear: tree-sitter-python's looks past every comment line for the next
 * line's indentation, so a long run of comment lines parses in quadratic
 * time (measured: 48 kB of them 2.4 s of CPU, 96 kB 7.8 s, 192 kB 22 s).
 * Past the limit the parse is cancelled and the text is not checked: the
 * check is an addition, never a reason to hang.
 */
import type { Parser, Tree } from "web-tree-sitter";

/** Wall time one parse may take (a 1 MB source file parses in ~0.25 s here). */
export const PARSE_TIME_LIMIT_MS = 2000;

/** The parse ran past PARSE_TIME_LIMIT_MS and was cancelled. */
export class ParseTimeout extends Error {
  constructor(chars: number, limitMs: number) {
    super(`not checked: parsing ${chars} characters took over ${limitMs} ms`);
    this.name = "ParseTimeout";
  }
}

/** `parser.parse(text, oldTree)`, cancelled (ParseTimeout) past the limit; `limitMs` for tests. */
export function parseWithin(parser: Parser, text: string, oldTree?: Tree | null, limitMs = PARSE_TIME_LIMIT_MS): Tree {
  const until = performance.now() + limitMs;
  // The callback's true cancels the parse (web-tree-sitter's ParseOptions; its type says void).
  const progressCallback = (() => performance.now() > until) as () => void;
  const tree = parser.parse(text, oldTree ?? null, { progressCallback });
  if (tree === null) {
    if (performance.now() > until) throw new ParseTimeout(text.length, limitMs);
    throw new Error("tree-sitter returned no tree");
  }
  return tree;
}
