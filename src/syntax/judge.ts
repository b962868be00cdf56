/**
 * The syntax judge the engine weighs tied readings with (engine/syntax-decide.ts):
 * synchronous, over a parser loaded beforehand. The engine asks it only for
 * the few places of a tie; each costs an incremental re-parse (check.ts).
 */
import type { SyntaxJudge } from "../engine/syntax-decide.ts";
import { checkAfter, type ParsedBefore, parseBefore } from "./check.ts";
import { languageOf } from "./languages.ts";
import { loadParser } from "./runtime.ts";

/**
 * A judge for the file at `path` (its text `text` gives the shebang), or
 * undefined for a path of no known language. The text before is parsed once
 * for all the readings weighed against it (each reading: a copy of that
 * tree, edited, and an incremental re-parse), and freed when another text
 * before comes. The text before is parsed through the kept trees
 * (tree-cache.ts): from another version of the file checked just before,
 * when there is one, instead of from the top.
 */
export async function loadSyntaxJudge(path: string, text: string): Promise<SyntaxJudge | undefined> {
  const language = languageOf(path, text);
  if (language === undefined) return undefined;
  const parser = await loadParser(language);
  let last: ParsedBefore | undefined;
  return (before, after) => {
    try {
      if (last?.text !== before) {
        last?.tree.delete();
        last = undefined;
        last = parseBefore(parser, before, language);
      }
      const copy = last.tree.copy();
      try {
        return checkAfter(parser, language, last, after, copy).introduced.length;
      } finally {
        copy.delete();
      }
    } catch {
      // A parser failure (out of memory on a huge text) tells nothing: the tie stays.
      return undefined;
    }
  };
}
