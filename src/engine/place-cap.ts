/**
 * Stopping the exact search once ambiguity is certain. A find text of
 * repeated lines (1,700 `}` lines in a file of 200,000) occurs at nearly
 * every line: the exact strategy built ~198,000 candidates per hunk, and ten
 * such hunks took ~7 s of CPU (issue 39 item 6), to end AMBIGUOUS.
 *
 * Which of two or more places the resolver picks (match/resolve.ts) depends
 * on where they all are only through the line hint (the one at, or clearly
 * nearest to, the hinted line), the order hint (the one after the previous
 * edit), an anchor line, the end of the file and a hunk's short context at
 * an edge of the file, and the caller's callback. An op with none of these
 * is ambiguous as soon as two places are known; one with only the order
 * hint, as soon as two places after the previous edit are. For those ops
 * the exact search keeps MAX_PLACES + 1 occurrences (in document order);
 * when the places kept do not make the ambiguity certain, or the search
 * finds one place among them, the op is searched again without the cap, so
 * the answer is always the one the full search gives.
 */

import type { Candidate, MatchContext, Strategy } from "../match/types.ts";
import type { EditOp } from "./ops.ts";

/** Places of the exact search kept when ambiguity is certain past them (the error lists 20). */
export const MAX_PLACES = 1000;

/** Text searched first for the places of a find text of repeated lines (dense there, if anywhere). */
const PREFIX_CHARS = 64 * 1024;

/** Lines of context a diff tool writes on each side (resolve.ts's boundary rule reads fewer as an edge of the file). */
const BOUNDARY_CONTEXT = 3;

/** Whether any rule other than order could pick one of many places for `op`. */
export function mayCapPlaces(op: EditOp, hintLine: number | undefined, asks: boolean): boolean {
  const h = op.hints;
  if (hintLine !== undefined || h.after !== undefined || h.endOfFile || h.replaceAll || asks) return false;
  const c = h.context;
  // The boundary rule: a hunk cut short on one side only belongs at that edge.
  return !(c && c.leading < BOUNDARY_CONTEXT !== c.trailing < BOUNDARY_CONTEXT);
}

/**
 * The exact strategy with the places of the whole find text cut to the first
 * MAX_PLACES + 1; `capped()` says whether they were (more places exist).
 * Other needles (and other strategies) are searched as ever.
 */
export function cappedExact(strategies: readonly Strategy[]): { strategies: Strategy[]; capped: () => boolean } {
  let hit = false;
  const wrap = (s: Strategy): Strategy =>
    s.name !== "exact"
      ? s
      : {
          name: s.name,
          exact: s.exact,
          find(ctx, q) {
            const limited: MatchContext = Object.create(ctx);
            Object.defineProperty(limited, "occurrences", {
              value: (needle: string) => {
                if (needle !== q.text) return ctx.occurrences(needle);
                // A text of repeated lines holds the places of a find text of such lines every few
                // characters: MAX_PLACES + 1 of them within the first PREFIX_CHARS, found without scanning
                // the whole file (a scan of a 400 kB file for 198,000 overlapping places: ~0.25 s).
                const head = ctx.doc.text.slice(0, PREFIX_CHARS + needle.length);
                const first: number[] = [];
                for (let p = head.indexOf(needle); p !== -1 && first.length <= MAX_PLACES; p = head.indexOf(needle, p + 1)) first.push(p);
                if (first.length > MAX_PLACES) {
                  hit = true;
                  return first;
                }
                // Else the shared finder (memoised per document, indexed for calls of many edits), cut:
                // what costs is a candidate per place (~2.5 µs each, and the garbage).
                const all = ctx.occurrences(needle);
                if (all.length <= MAX_PLACES + 1) return all;
                hit = true;
                return all.slice(0, MAX_PLACES + 1);
              },
            });
            return s.find(limited, q);
          },
        };
  return { strategies: strategies.map(wrap), capped: () => hit };
}

/** Whether `pool`, an ambiguity found among capped places, is certainly one of the full search: two places, after the previous edit for an ordered op. */
export function certainAmong(op: EditOp, pool: readonly Candidate[], prevEnd: number): boolean {
  const counted = op.hints.inOrder ? pool.filter((c) => c.startLine >= prevEnd) : pool;
  return counted.length >= 2;
}
