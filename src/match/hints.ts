/**
 * What a format knows about where an op belongs, and what decided among
 * several places: the resolver's input and output. They live here, beside
 * the resolver (resolve.ts), so that match/ needs nothing from the engine;
 * engine/ops.ts re-exports them as part of the op.
 */

/** What the format knows about where the op belongs. */
export interface OpHints {
  /** The find text is made of whole lines (a SEARCH section): whole-line places come first. */
  wholeLines?: boolean;
  /** 1-based line where the find text starts, as the model believes. */
  startLine?: number;
  /** Ops come top to bottom (diff hunks): the one candidate after the previous op decides. */
  inOrder?: boolean;
  /** The op must end at the end of the file (`\ No newline at end of file`). */
  endOfFile?: boolean;
  /** Unchanged lines before and after the change (diff hunks): short context on one side is file-edge evidence. */
  context?: { leading: number; trailing: number };
  /** Replace every occurrence. */
  replaceAll?: boolean;
  /** 0-based line the op must start at or after (a V4A `@@ anchor` line): places above it are not candidates. */
  after?: number;
  /** 0-based line where the anchor's block ends (the next line indented no deeper than the anchor's): with `after`, places inside it come first. */
  scopeEnd?: number;
}

/** What chose among several candidates. */
export type ResolvedBy = "order" | "end-of-file" | "line-hint" | "boundary" | "syntax" | "callback";
