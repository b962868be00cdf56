/**
 * A syntax checker for the lazy merge (src/lazy/): which syntax errors a
 * merged text has where the file had none, read synchronously over a parser
 * loaded beforehand (the merge is synchronous; the grammar loads
 * asynchronously, like the definitions reader and the syntax judge). The
 * caller loads it for the file's language before the merge and passes it in
 * as the `syntax` option of `applyLazyEdit`; without it the merge checks
 * bracket balance alone.
 *
 * The check is the file layer's (check.ts): the text before parsed once
 * (through the kept trees, tree-cache.ts, so the file layer's own check of
 * the same edit afterwards re-parses nothing), the text after re-parsed
 * incrementally, the errors the text before did not have (introduced.ts),
 * Python's indentation errors included. A text over the size limit, a
 * parse past its time limit or a parser failure is not checked (undefined):
 * the check is an addition, never a reason to refuse.
 */
import { checkAfter, parseBefore } from "./check.ts";
import { readerLanguage } from "./definitions-reader.ts";
import { loadParser } from "./runtime.ts";
import type { SyntaxIssue } from "./report.ts";

/** The errors `after` has that `before` had not, in document order (lines of `after`); undefined when not checked. */
export type SyntaxChecker = (before: string, after: string) => readonly SyntaxIssue[] | undefined;

/**
 * Texts longer than this (UTF-16 code units) are not checked: the file
 * layer's report limit (fs/syntax-check.ts SYNTAX_REPORT_MAX_CHARS, 1 Mi),
 * where a first parse costs ~0.2 s of CPU per MB.
 */
export const MERGE_CHECK_MAX_CHARS = 1024 * 1024;

/**
 * The checker for a file at `path` (or of `language`), its grammar loaded;
 * undefined for a file of no known language, or when the grammar cannot load.
 */
export async function loadSyntaxChecker(path: string | undefined, language?: string, text = ""): Promise<SyntaxChecker | undefined> {
  const lang = readerLanguage(path, language, text);
  if (lang === undefined) return undefined;
  let parser: Awaited<ReturnType<typeof loadParser>>;
  try {
    parser = await loadParser(lang);
  } catch {
    return undefined;
  }
  return (before, after) => {
    if (Math.max(before.length, after.length) > MERGE_CHECK_MAX_CHARS) return undefined;
    try {
      const old = parseBefore(parser, before, lang);
      try {
        return checkAfter(parser, lang, old, after, old.tree).introduced;
      } finally {
        old.tree.delete();
      }
    } catch {
      // A parse past its time limit (ParseTimeout), or a parser failure: not checked.
      return undefined;
    }
  };
}
