/**
 * The syntax tools a format's merge reads a file with (FormatEntry
 * `syntaxTrees`: the lazy format): the file's definitions reader and its
 * syntax checker (src/syntax/definitions-reader.ts, merge-checker.ts),
 * loaded before the synchronous merge, the way the syntax judge is
 * (syntax-check.ts judgeFor). Loaded only for a file of a known language,
 * and not for a text over the syntax report's size limit (unless verify:
 * "syntax" asks for any size): a 9 MB file's first parse costs seconds.
 * A grammar that cannot load leaves the merge to the text alone.
 */
import type { SyntaxTrees } from "../formats/types.ts";
import { languageOf } from "../syntax/languages.ts";
import { SYNTAX_REPORT_MAX_CHARS } from "./syntax-check.ts";

let modules: Promise<[typeof import("../syntax/definitions-reader.ts"), typeof import("../syntax/merge-checker.ts")]> | undefined;

/** The definitions reader and syntax checker for the file at `path` (its text `text`), or undefined. */
export async function syntaxTreesFor(path: string, text: string, anySize = false): Promise<SyntaxTrees | undefined> {
  if (languageOf(path, text) === undefined || (!anySize && text.length > SYNTAX_REPORT_MAX_CHARS)) return undefined;
  try {
    // Imported once, on the first such edit: other edits never load tree-sitter for this.
    modules ??= Promise.all([import("../syntax/definitions-reader.ts"), import("../syntax/merge-checker.ts")]);
    const [{ loadDefinitionsReader }, { loadSyntaxChecker }] = await modules;
    const definitions = await loadDefinitionsReader(path, undefined, text);
    const syntax = await loadSyntaxChecker(path, undefined, text);
    return definitions || syntax ? { ...(definitions && { definitions }), ...(syntax && { syntax }) } : undefined;
  } catch {
    return undefined;
  }
}
