/**
 * A definitions reader for the lazy merge (src/lazy/): a file's functions,
 * methods, classes and their kin read from its syntax tree, synchronously,
 * over a parser loaded beforehand (the merge is synchronous; the grammar
 * loads asynchronously, like the syntax judge in judge.ts). The caller loads
 * it for the file's language before the merge and passes it in as the
 * `definitions` option of `applyLazyEdit`; without it the merge reads
 * definitions from the text alone.
 *
 * A parse is cut at its time limit (parse-within.ts): the reader then gives
 * undefined and the merge falls back to the text. So does a text the parser
 * fails on.
 */
import type { Parser } from "web-tree-sitter";
import type { DefinitionKind } from "./definition-kind.ts";
import { listDefinitions } from "./definitions.ts";
import { languageOf, SYNTAX_LANGUAGES, type SyntaxLanguage } from "./languages.ts";
import { parseWithin } from "./parse-within.ts";
import { loadParser } from "./runtime.ts";

/** One definition as the lazy merge reads it; lines are 0-based, `end` exclusive. */
export interface ReadDefinition {
  kind: DefinitionKind;
  name: string;
  /** The definition it is nested in (a method's class, impl or namespace); "" at the top. */
  container: string;
  /** The line of its name: the header line, below decorators and annotations. */
  nameLine: number;
  /** Its first line, decorators, attributes and the doc comment right above it included. */
  start: number;
  end: number;
  depth: number;
}

/** A file's definitions, in document order; undefined when the text could not be parsed in time. */
export type DefinitionsReader = (text: string) => readonly ReadDefinition[] | undefined;

/** A comment line: what may stand right above a definition as its doc comment. */
const COMMENT = /^\s*(?:\/\/|\/\*|\*|#(?!\[)|--)/;

/** The definitions of `text` read with `parser`: the tree's, each widened upward over the comment lines right above it. */
function readWith(parser: Parser, language: SyntaxLanguage, text: string, limitMs: number | undefined): ReadDefinition[] {
  const tree = parseWithin(parser, text, null, limitMs);
  try {
    const lines = text.split("\n");
    return listDefinitions(tree, language).map((d) => {
      let start = d.startLine - 1;
      const indent = (lines[start] ?? "").length - (lines[start] ?? "").trimStart().length;
      while (start > 0 && COMMENT.test(lines[start - 1] as string) && (lines[start - 1] as string).length - (lines[start - 1] as string).trimStart().length === indent) start--;
      return { kind: d.kind, name: d.name, container: d.container, nameLine: d.nameLine - 1, start, end: d.endLine, depth: d.depth };
    });
  } finally {
    tree.delete();
  }
}

/** Short names a caller may give for a language. */
const ALIASES: Readonly<Record<string, SyntaxLanguage>> = { py: "python", ts: "typescript", js: "javascript", jsx: "javascript", rs: "rust", golang: "go", "c++": "cpp", "c#": "csharp", cs: "csharp", rb: "ruby", sh: "bash" };

/** The syntax language of a path or a language name ("python", "typescript"), or undefined. */
export function readerLanguage(path: string | undefined, language?: string, text = ""): SyntaxLanguage | undefined {
  if (language !== undefined) {
    const lower = language.toLowerCase();
    if ((SYNTAX_LANGUAGES as readonly string[]).includes(lower)) return lower as SyntaxLanguage;
    if (Object.hasOwn(ALIASES, lower)) return ALIASES[lower];
  }
  return path === undefined ? undefined : languageOf(path, text);
}

/**
 * The reader for a file at `path` (or of `language`), its grammar loaded;
 * undefined for a file of no known language, or when the grammar cannot
 * load (the merge then reads the text alone). The last text read is kept:
 * a merge asks for the file's definitions once per definition it places.
 * `limitMs` replaces the parse's time limit (tests).
 */
export async function loadDefinitionsReader(path: string | undefined, language?: string, text = "", limitMs?: number): Promise<DefinitionsReader | undefined> {
  const lang = readerLanguage(path, language, text);
  if (lang === undefined) return undefined;
  let parser: Parser;
  try {
    parser = await loadParser(lang);
  } catch {
    return undefined;
  }
  let last: { text: string; defs: readonly ReadDefinition[] | undefined } | undefined;
  return (t) => {
    if (last?.text === t) return last.defs;
    let defs: readonly ReadDefinition[] | undefined;
    try {
      defs = readWith(parser, lang, t, limitMs);
    } catch {
      // A parse past its time limit (ParseTimeout), or a parser failure: the text path decides.
      defs = undefined;
    }
    last = { text: t, defs };
    return defs;
  };
}
