/**
 * Documents kept alive across calls by their owner (an `Editor`, the file
 * layer's `FileCache`, the server's version store) are found again by their
 * text, so every `Document.from` of that text anywhere in the engine reuses
 * the line table and indentation facts built before instead of rebuilding
 * them: the second edit of a 200k-line file skips ~3–5 ms of line numbering.
 *
 * Held weakly: the pool never keeps a document alive on its own, so the
 * pure core holds no memory between calls unless a caller asked for it.
 * A document is a pure function of its text (its indexes are memos), so a
 * shared one gives the same results as a fresh one.
 */
import type { Document } from "./document.ts";

/** Documents looked through; the newest are kept (a session edits a handful of files at a time). */
const MAX_SHARED = 32;
const shared: WeakRef<Document>[] = [];

/** Makes `doc` findable by its text while its owner keeps it alive. */
export function shareDocument(doc: Document): void {
  doc.retained = true;
  for (let i = shared.length - 1; i >= 0; i--) {
    const d = shared[i]?.deref();
    if (d === undefined || d === doc) shared.splice(i, 1);
  }
  shared.push(new WeakRef(doc));
  if (shared.length > MAX_SHARED) shared.shift();
}

/**
 * A live shared document whose text is `raw`. The same string object
 * compares in O(1); an equal copy costs one memory comparison (~1 ms per
 * 9 MB), far less than building its line table again.
 */
export function sharedDocument(raw: string): Document | undefined {
  for (let i = shared.length - 1; i >= 0; i--) {
    const d = shared[i]?.deref();
    if (d === undefined) {
      shared.splice(i, 1);
      continue;
    }
    if (d.raw.length === raw.length && d.raw === raw) return d;
  }
  return undefined;
}
