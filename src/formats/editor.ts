/**
 * `createEditor(content)`: one text edited call after call, keeping what the
 * engine built for it. `replace`, `applySearchReplace` and `applyPatch`
 * take an editor where they take a text; they edit its current content,
 * return what they return for the text, and leave the editor holding the
 * result's content. Its document (the line table, see text/document.ts)
 * stays alive with the editor and is carried over each edit (only the
 * changed lines are numbered again), so a later edit of a big text does
 * not number its lines again (~4 ms on a 200k-line text). What it cannot
 * save: each edited text is a spliced string that V8 copies whole when it
 * is first searched (~10 ms per 9 MB on a loaded machine, the same for a
 * result string passed back to the string calls).
 *
 * The results are those of the string calls, exactly: a document is a
 * function of its text, and the engine finds the editor's through the pool
 * of shared documents (text/document-pool.ts; the 32 most recently edited
 * editors are found there at once).
 *
 * Memory: an editor holds its content (1 or 2 bytes a character), its line
 * table (4–8 bytes a line), once a fuzzy search ran the hashes of its trimmed
 * lines (4 bytes a line, see `Document.trimmedHashes`), and for a text with CRLF breaks an LF copy of
 * the text and 8 bytes a break; nothing else is kept between calls. It is
 * freed with the editor.
 */
import { EditError } from "../errors.ts";
import { Document } from "../text/document.ts";
import { shareDocument } from "../text/document-pool.ts";
import { type SearchReplaceInput, type SearchReplaceOptions, type SearchReplaceResult, applySearchReplace as applyBlocksTo } from "./search-replace.ts";
import { type ReplaceOptions, type ReplaceResult, replace as replaceIn } from "./str-replace.ts";
import { type ApplyPatchOptions, type PatchResult, applyPatch as applyPatchTo } from "./unified-apply.ts";

/** A text edited call after call (see `createEditor`). */
export interface Editor {
  /** The text now: the one given, then the content of each result of an edit through the editor. */
  readonly content: string;
}

class TextEditor implements Editor {
  #doc: Document;

  constructor(content: string) {
    this.#doc = Document.from(content);
    shareDocument(this.#doc);
  }

  get content(): string {
    return this.#doc.raw;
  }

  /** Takes the content an edit of this editor's text returned. */
  settle(content: string): void {
    if (content === this.#doc.raw) return;
    this.#doc = this.#doc.edited(content);
    shareDocument(this.#doc);
  }
}

/** An editor of `content`: pass it to `replace`, `applySearchReplace` or `applyPatch` in place of the text. */
export function createEditor(content: string): Editor {
  if (typeof content !== "string") throw new EditError("INVALID_INPUT", `createEditor: content must be a string, got ${content === null ? "null" : typeof content}.`);
  return new TextEditor(content);
}

/** The text a call edits, and where its result goes. */
function targetOf(target: string | Editor): { text: string; editor?: TextEditor } {
  if (target instanceof TextEditor) return { text: target.content, editor: target };
  // Anything else is the string calls' to refuse, with their own message.
  return { text: target as string };
}

/** str_replace on a text, or on an editor's text (the editor then holds the result). See `replace` in str-replace.ts. */
export function replace(content: string | Editor, oldString: string, newString: string, options?: ReplaceOptions): ReplaceResult {
  const { text, editor } = targetOf(content);
  const result = replaceIn(text, oldString, newString, options);
  editor?.settle(result.content);
  return result;
}

/** SEARCH/REPLACE blocks on a text, or on an editor's text (the editor then holds the result's content, the blocks that applied). */
export function applySearchReplace(content: string | Editor, diffText: SearchReplaceInput, options?: SearchReplaceOptions): SearchReplaceResult {
  const { text, editor } = targetOf(content);
  const result = applyBlocksTo(text, diffText, options);
  editor?.settle(result.content);
  return result;
}

/** A unified diff of one file on a text, or on an editor's text (the editor then holds the result). */
export function applyPatch(content: string | Editor, patchText: string, options?: ApplyPatchOptions): PatchResult {
  const { text, editor } = targetOf(content);
  const result = applyPatchTo(text, patchText, options);
  editor?.settle(result.content);
  return result;
}
