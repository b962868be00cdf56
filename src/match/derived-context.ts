/**
 * A search context that lists a needle's places its own way and is
 * otherwise the context it comes from (the place cap's and the whole-line
 * index's exact searches).
 *
 * A copy of the context's members, not `Object.create(ctx)`: an object made
 * a prototype is registered by V8 in weak lists its minor collector keeps
 * alive, so every case's context, document and text survived each scavenge
 * until the next major collection. On the real edits' batch with each
 * case's text a new string (as a pool's worker, or a loop reading its cases,
 * has it), ~45 MB a pass of the 978 cases was promoted so (`--trace-gc-nvp`;
 * `replace` alone on the exact edits' files: 74 MB promoted in 4 passes,
 * against 0.1 for the strings alone). A copy is a fresh key of its own, as
 * the derived object was, for the memos kept by context.
 */
import type { MatchContext } from "./types.ts";

export function withOccurrences(ctx: MatchContext, occurrences: MatchContext["occurrences"]): MatchContext {
  return { ...ctx, occurrences };
}
