/**
 * The trees of the texts parsed last, so that the next check of an edit to
 * the same text does not parse it whole again: an MCP session edits a file
 * one call after another, each call's text before being the last call's
 * text after. On TypeScript's typescript.js (9 MB, 200k lines) a full parse
 * cost ~1.5 s of CPU per `edit_file` call (76 % of its profile), the
 * incremental re-parse of the edited text a few ms.
 *
 * Kept: the two texts used last (the text before an edit, and the text
 * after it, which the next edit starts from; a caller weighing several
 * readings of one edit reuses the first). A tree is used through a copy
 * (`tree.edit` changes the tree it is given), and a tree pushed out is
 * deleted: its memory is in the WebAssembly heap, not collected.
 */
import type { Tree } from "web-tree-sitter";
import type { SyntaxLanguage } from "./languages.ts";

const KEPT = 2;

interface Kept {
  language: SyntaxLanguage;
  text: string;
  tree: Tree;
}

const kept: Kept[] = [];

/** A copy of the kept tree of `text` in `language` (the caller deletes it), or undefined. */
export function keptTree(language: SyntaxLanguage, text: string): Tree | undefined {
  for (let i = kept.length - 1; i >= 0; i--) {
    const k = kept[i] as Kept;
    // The same string compares at once; an equal copy (a file read again) in one pass over its bytes.
    if (k.language !== language || k.text.length !== text.length || k.text !== text) continue;
    kept.splice(i, 1);
    kept.push(k);
    return k.tree.copy();
  }
  return undefined;
}

/** Keeps a copy of `tree` (of `text` in `language`), pushing out the least recently used. */
export function keepTree(language: SyntaxLanguage, text: string, tree: Tree): void {
  if (kept.some((k) => k.language === language && k.text === text)) return;
  kept.push({ language, text, tree: tree.copy() });
  while (kept.length > KEPT) kept.shift()?.tree.delete();
}

/** Deletes every kept tree (tests). */
export function clearKeptTrees(): void {
  for (const k of kept.splice(0)) k.tree.delete();
}
