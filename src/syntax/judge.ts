/**
 * The syntax judge the engine weighs tied readings with (engine/syntax-decide.ts):
 * synchronous, over a parser loaded beforehand. The engine asks it only for
 * the few places of a tie; each costs an incremental re-parse (check.ts).
 */
import type { Parser, Tree } from "web-tree-sitter";
import type { SyntaxJudge } from "../engine/syntax-decide.ts";
import { changedRegion, checkAfter, editTree, type ParsedBefore, parseBefore, pythonIssues } from "./check.ts";
import { languageOf, type SyntaxLanguage } from "./languages.ts";
import { parseWithin } from "./parse-within.ts";
import { loadedParser, loadParser } from "./runtime.ts";
import { keepTree } from "./tree-cache.ts";

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
  return syntaxJudgeWith(await loadParser(language), language);
}

/** As `loadSyntaxJudge`, when the language's parser is loaded already (runtime.ts `loadedParser`); undefined when it is not. */
export function readySyntaxJudge(path: string, text: string): SyntaxJudge | undefined {
  const language = languageOf(path, text);
  const parser = language === undefined ? undefined : loadedParser(language);
  return parser && language && syntaxJudgeWith(parser, language);
}

/** The last reading parsed clean against a text before: the next reading is parsed from its tree. */
interface CleanReading {
  before: string;
  text: string;
  tree: Tree;
}

/**
 * A judge over a loaded parser. A reading whose whole text parses clean
 * (no ERROR or MISSING node, and for Python none of the indentation and
 * block errors over its change) introduces no error whatever the text
 * before had, so it is answered 0 without parsing the text before: a tie's
 * readings are parsed one from the other (the first from the kept trees or
 * the top, each next one from the last, told both changes), and the text
 * before only when a reading does not parse clean, then weighed as before
 * (`checkAfter`: the errors the text before already had do not count).
 * Measured on the real edits' 7 Python ties (every reading parsed clean):
 * one parse of three saved, ~8 ms of CPU on a 177 kB file. A well-formed text
 * has one reading whichever tree it is parsed from (check.ts `parseNear`
 * relies on the same), so the answer is the one the full check gives.
 */
export function syntaxJudgeWith(parser: Parser, language: SyntaxLanguage): SyntaxJudge {
  let last: ParsedBefore | undefined;
  let clean: CleanReading | undefined;
  const parsesClean = (before: string, after: string): boolean => {
    let tree: Tree;
    if (clean?.before === before) {
      const old = clean.tree.copy();
      try {
        // From the last reading's tree: its change undone, this reading's made (two edits, the text between reused).
        editTree(old, clean.text, before);
        editTree(old, before, after);
        tree = parseWithin(parser, after, old);
      } finally {
        old.delete();
      }
      keepTree(language, after, tree);
    } else tree = parseBefore(parser, after, language).tree;
    const region = changedRegion(before, after);
    const ok = !tree.rootNode.hasError && (language !== "python" || pythonIssues(tree, after, region.start, region.newEnd).length === 0);
    if (!ok) {
      tree.delete();
      return false;
    }
    clean?.tree.delete();
    clean = { before, text: after, tree };
    return true;
  };
  const judge = (before: string, after: string): number | undefined => {
    try {
      if (parsesClean(before, after)) return 0;
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
  // Nothing to record of a tie no verdict decides: its readings are not parsed (syntax-decide.ts).
  return Object.assign(judge, { noteTie: () => {} });
}
