/**
 * Undo for the text editor's `undo_edit` (Anthropic `str_replace_editor`,
 * versions 20241022 and 20250124). An adapter records each write it made;
 * `undo` puts the file back. Behind this interface so that a write journal
 * kept by the file layer can answer instead of this in-memory one.
 */
import { readFile } from "node:fs/promises";
import { EditError } from "../errors.ts";
import { removeFileChecked, writeFileAtomic } from "../fs/atomic-write.ts";

export interface WriteRecord {
  /** Absolute path of the file written. */
  abs: string;
  /** The path as messages name it. */
  rel: string;
  /** The file's bytes before the write; null when the write created it. */
  before: Uint8Array | null;
  /** Its bytes after the write. */
  after: Uint8Array;
}

export interface EditUndo {
  /** A write the adapter made. */
  record(write: WriteRecord): void;
  /**
   * Puts `abs` back as it was before the last write recorded for it, and
   * says what was done (for the model). Throws EditError when there is
   * nothing to undo, or the file changed since that write (then nothing is
   * touched).
   */
  undo(abs: string, rel: string): Promise<string>;
}

/** Undo kept in memory: the last `depth` writes of each file, for as long as this object lives. */
export function createMemoryUndo(depth = 20): EditUndo {
  const stacks = new Map<string, WriteRecord[]>();
  return {
    record(write) {
      const stack = stacks.get(write.abs) ?? [];
      stack.push(write);
      if (stack.length > depth) stack.shift();
      stacks.set(write.abs, stack);
    },
    async undo(abs, rel) {
      const last = stacks.get(abs)?.at(-1);
      if (!last) throw new EditError("INVALID_INPUT", `There is no edit of ${rel} to undo (this session made none, or every one was undone already).`, { path: rel });
      const now = await readFile(abs).catch(() => null);
      if (now === null || !Buffer.from(last.after).equals(now)) {
        throw new EditError("STALE", `${rel} changed after the last edit made here, so it was not undone; view it and edit it back instead.`, { path: rel });
      }
      if (last.before === null) await removeFileChecked(abs, last.after, rel);
      else await writeFileAtomic(abs, last.before, { rel, expected: last.after });
      stacks.get(abs)?.pop();
      return last.before === null ? `Undid the creation of ${rel}: the file was removed.` : `Undid the last edit of ${rel}: it is back as it was before.`;
    },
  };
}
