/**
 * The versions of each file that the tools served (read_file) and wrote,
 * kept so that an edit written against one of them can be merged (see
 * formats/history-merge.ts) instead of refused: models edit from what they
 * read before their own last edit, or before another writer's. Keyed by the
 * file's real path and its sha256; bounded by total text size, the least
 * recently used dropped first.
 *
 * A version whose document the file cache built (fs/file-cache.ts) keeps
 * it alive here: an edit tried against that version (history-merge.ts)
 * finds its line table built (text/document-pool.ts) after the cache moved
 * on to the file's next version.
 */
import type { Document } from "../text/document.ts";
import { sharedDocument } from "../text/document-pool.ts";

/** Total text kept, in UTF-16 code units (~2 bytes each): 32 MiB. */
export const DEFAULT_VERSION_STORE_SIZE = 16 * 1024 * 1024;
/** Versions kept per file: the newest are the ones models edit from. */
const PER_FILE = 8;

export class VersionStore {
  private readonly max: number;
  private size = 0;
  /** `${file}\0${hash}` -> text, in order of last use (a Map keeps insertion order). */
  private readonly entries = new Map<string, string>();
  /** The shared documents of kept versions, by the same keys. */
  private readonly docs = new Map<string, Document>();

  constructor(maxSize = DEFAULT_VERSION_STORE_SIZE) {
    this.max = maxSize;
  }

  /** Records `text` (hash `hash`) as a version of `file`, the newest. */
  remember(file: string, hash: string, text: string): void {
    const key = `${file}\0${hash}`;
    const old = this.entries.get(key);
    if (old !== undefined) this.drop(key);
    if (text.length > this.max) return;
    this.entries.set(key, text);
    this.size += text.length;
    const doc = sharedDocument(text);
    if (doc) this.docs.set(key, doc);
    const mine = [...this.entries.keys()].filter((k) => k.startsWith(`${file}\0`));
    for (const k of mine.slice(0, Math.max(0, mine.length - PER_FILE))) this.drop(k);
    for (const k of this.entries.keys()) {
      if (this.size <= this.max) break;
      this.drop(k);
    }
  }

  /** The text of `file` whose sha256 is `hash`, when kept. */
  byHash(file: string, hash: string): string | undefined {
    return this.entries.get(`${file}\0${hash.toLowerCase()}`);
  }

  /** The kept versions of `file`, oldest first. */
  versions(file: string): string[] {
    const out: string[] = [];
    for (const [k, text] of this.entries) if (k.startsWith(`${file}\0`)) out.push(text);
    return out;
  }

  private drop(key: string): void {
    const text = this.entries.get(key);
    if (text === undefined) return;
    this.entries.delete(key);
    this.docs.delete(key);
    this.size -= text.length;
  }
}
