/**
 * The syntax layer (tree-sitter through web-tree-sitter), for the file layer
 * and any module that needs a file's structure. Everything that loads is
 * async and lazy: the runtime and a grammar load on first use, once.
 *
 * Use:
 *
 *     const language = languageOf("src/app.py", text);   // undefined: not checked
 *     const tree = await parse(text, language);           // a web-tree-sitter Tree
 *     try {
 *       listDefinitions(tree, language);  // [{ kind: "function", name: "main", startLine: 3, endLine: 9, ... }]
 *       listSyntaxIssues(tree, text);     // [{ kind: "missing", message: 'missing ")"', line: 4, ... }]
 *     } finally {
 *       tree.delete();                    // trees live in WebAssembly memory: free them
 *     }
 *
 *     await checkSyntax(path, before, after);  // { parsesBefore, parsesAfter, introduced, ... }
 *
 * A caller that parses many texts of one language synchronously (weighing
 * readings of an edit) gets the parser once with `loadParser(language)` and
 * calls `parser.parse(text)` or `checkSyntaxWith(parser, ...)`.
 */

import type { Tree } from "web-tree-sitter";
import type { SyntaxLanguage } from "./languages.ts";
import { parseWithin } from "./parse-within.ts";
import { loadParser } from "./runtime.ts";

export { changedRegion, checkSyntax, checkSyntaxWith, type SyntaxReport } from "./check.ts";
export { type Definition, type DefinitionKind, listDefinitions } from "./definitions.ts";
export { type DefinitionsReader, loadDefinitionsReader, type ReadDefinition } from "./definitions-reader.ts";
export { type ChangedRegion, introducedIssues } from "./introduced.ts";
export { listSyntaxIssues, type SyntaxIssue } from "./issues.ts";
export { languageOf, SYNTAX_LANGUAGES, type SyntaxLanguage } from "./languages.ts";
export { loadParser } from "./runtime.ts";

/** Parses `text` as `language` (loading the grammar on first use). The caller frees the tree with `tree.delete()`. */
export async function parse(text: string, language: SyntaxLanguage): Promise<Tree> {
  return parseWithin(await loadParser(language), text);
}
