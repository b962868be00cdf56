/**
 * The syntax judge the engine weighs tied readings with (engine/syntax-decide.ts):
 * synchronous, over a parser loaded beforehand. Each call is one check
 * (check.ts: a parse of the text before and an incremental re-parse of the
 * text after), so the engine asks it only for the few places of a tie.
 */
import type { SyntaxJudge } from "../engine/syntax-decide.ts";
import { checkSyntaxWith } from "./check.ts";
import { languageOf } from "./languages.ts";
import { loadParser } from "./runtime.ts";

/** A judge for the file at `path` (its text `text` gives the shebang), or undefined for a path of no known language. */
export async function loadSyntaxJudge(path: string, text: string): Promise<SyntaxJudge | undefined> {
  const language = languageOf(path, text);
  if (language === undefined) return undefined;
  const parser = await loadParser(language);
  return (before, after) => {
    try {
      return checkSyntaxWith(parser, language, before, after).introduced.length;
    } catch {
      // A parser failure (out of memory on a huge text) tells nothing: the tie stays.
      return undefined;
    }
  };
}
