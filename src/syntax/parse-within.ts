/**
 * A tree-sitter parse with a time limit. Some grammars' scanners are not
 * linear: tree-sitter-python's looks past every comment line for the next
 * line's indentation, so a long run of comment lines parses in quadratic
 * time (measured: 48 kB of them 2.4 s of CPU, 96 kB 7.8 s, 192 kB 22 s).
 * Past the limit the parse is cancelled and the text is not checked: the
 * check is an addition, never a reason to hang.
 */
import type { Parser, Tree } from "web-tree-sitter";

/**
 * Wall time one parse may take: this, plus PARSE_MS_PER_KB per kB of text. A
 * linear parse runs at ~0.25 ms a kB idle and ~1.3 ms a kB on a loaded
 * machine; the allowance is far above both, so that only a runaway is cut.
 */
export const PARSE_TIME_LIMIT_MS = 2000;
export const PARSE_MS_PER_KB = 8;

/** The parse ran past PARSE_TIME_LIMIT_MS and was cancelled. */
export class ParseTimeout extends Error {
  constructor(chars: number, limitMs: number) {
    super(`not checked: parsing ${chars} characters took over ${limitMs} ms`);
    this.name = "ParseTimeout";
  }
}

/** `parser.parse(text, oldTree)`, cancelled (ParseTimeout) past the limit; `limitMs` for tests. */
export function parseWithin(parser: Parser, text: string, oldTree?: Tree | null, limitMs = PARSE_TIME_LIMIT_MS + PARSE_MS_PER_KB * (text.length >> 10)): Tree {
  const until = performance.now() + limitMs;
  // The callback's true cancels the parse (web-tree-sitter's ParseOptions; its type says void).
  const progressCallback = (() => performance.now() > until) as () => void;
  const tree = parser.parse(text, oldTree ?? null, { progressCallback });
  if (tree === null) {
    // A cancelled parse is resumed by the parser's next call unless reset: the next text would be read as this one's rest.
    parser.reset();
    if (performance.now() > until) throw new ParseTimeout(text.length, limitMs);
    throw new Error("tree-sitter returned no tree");
  }
  return tree;
}
