/**
 * Choosing one candidate among several: the same rule for every format.
 *
 * 1. A candidate that starts exactly at the op's hinted line decides.
 * 2. Else the hint decides when one candidate is clearly the nearest: within
 *    the window, and every other at least twice the window (and four times
 *    as far) away.
 * 3. Else, for ops that come in file order (diff hunks), the one candidate
 *    starting at or after the end of the previous op.
 * 3a. Else, for an op placed after an anchor line (V4A's `@@ class Foo`,
 *    candidates above it already dropped), the one candidate inside the
 *    anchor's block, else the first after it: the format means "the next
 *    place after this line", as Codex applies it; two inside the block are
 *    ambiguous.
 * 4. Else, for an op that must end the file, the one candidate that does.
 * 5. Else file-edge evidence: a hunk whose context is visibly cut short on
 *    one side (fewer lines than diff tools write, while the other side has
 *    the full amount) belongs at that edge of the file.
 * 6. Else the code's syntax, when the caller can judge it (engine/syntax-decide.ts):
 *    the one place whose result parses where every other's breaks.
 * 7. Else the caller's callback (the CLI asks the user).
 * Otherwise the op is AMBIGUOUS with every remaining candidate: never guess.
 */
import type { OpHints, ResolvedBy } from "./hints.ts";
import type { Candidate } from "./types.ts";

/** The context lines a diff tool writes on each side of a change (diff -u). */
const BOUNDARY_CONTEXT = 3;

export interface ResolveInput {
  hints: OpHints;
  /** The hint in the coordinates of the text searched (shifted by earlier edits), if any. */
  hintLine: number | undefined;
  hintWindow: number;
  /** 0-based line after the previous op, for `inOrder` ops. */
  prevEnd: number;
  /** Lines in the file (read only by the end-of-file rules: a getter keeps the full line table unbuilt otherwise). */
  readonly lineCount: number;
  /** The syntax tie-break: index of the one candidate whose result parses, or undefined. */
  decide?: ((pool: readonly Candidate[]) => number | undefined) | undefined;
  /** Last resort: index into the candidates, or undefined to refuse. */
  ask?: ((pool: readonly Candidate[]) => number | undefined) | undefined;
}

export type Resolution = { cand: Candidate; resolvedBy?: ResolvedBy } | { pool: Candidate[] };

/**
 * The candidate nearest to the hinted line when it is clearly the nearest,
 * else undefined: the hint does not decide.
 */
export function pickByHint(cands: readonly Candidate[], startLine: number, window: number): Candidate | undefined {
  let near: { c: Candidate; d: number } | undefined;
  let next: number | undefined;
  for (const c of cands) {
    const d = Math.abs(c.startLine + 1 - startLine);
    if (!near || d < near.d) {
      next = near?.d;
      near = { c, d };
    } else if (next === undefined || d < next) {
      next = d;
    }
  }
  if (!near || near.d > window) return undefined;
  if (next !== undefined && next < Math.max(2 * window, 4 * near.d)) return undefined;
  return near.c;
}

function only(list: Candidate[], resolvedBy: ResolvedBy): Resolution | undefined {
  return list.length === 1 && list[0] ? { cand: list[0], resolvedBy } : undefined;
}

export function resolveCandidates(cands: Candidate[], r: ResolveInput): Resolution {
  if (cands.length === 1 && cands[0]) return { cand: cands[0] };
  let pool = cands;
  const hint = r.hintLine;
  if (hint !== undefined && Number.isFinite(hint)) {
    const exact = only(
      pool.filter((c) => c.startLine + 1 === hint),
      "line-hint",
    );
    if (exact) return exact;
    const near = pickByHint(pool, hint, r.hintWindow);
    if (near) return { cand: near, resolvedBy: "line-hint" };
  }
  if (r.hints.inOrder) {
    const after = pool.filter((c) => c.startLine >= r.prevEnd);
    const byOrder = only(after, "order");
    if (byOrder) return byOrder;
    if (after.length > 1) pool = after;
  }
  if (r.hints.after !== undefined && pool.length > 0) {
    // Inside the anchor's block, the one place decides; two equal places there are ambiguous, not the first.
    const end = r.hints.scopeEnd;
    const inside = end === undefined ? [] : pool.filter((c) => c.startLine < end);
    if (inside.length > 1) pool = inside;
    else {
      const first = inside[0] ?? pool.reduce((a, b) => (b.startLine < a.startLine ? b : a));
      return { cand: first, resolvedBy: "order" };
    }
  }
  if (r.hints.endOfFile) {
    const atEnd = pool.filter((c) => c.endLine === r.lineCount);
    const byEnd = only(atEnd, "end-of-file");
    if (byEnd) return byEnd;
    if (atEnd.length > 1) pool = atEnd;
  }
  const context = r.hints.context;
  if (context) {
    const { leading, trailing } = context;
    if (leading < BOUNDARY_CONTEXT && trailing >= BOUNDARY_CONTEXT) {
      const byStart = only(
        pool.filter((c) => c.startLine === 0),
        "boundary",
      );
      if (byStart) return byStart;
    }
    if (trailing < BOUNDARY_CONTEXT && leading >= BOUNDARY_CONTEXT) {
      const byEnd = only(
        pool.filter((c) => c.endLine === r.lineCount),
        "boundary",
      );
      if (byEnd) return byEnd;
    }
  }
  if (r.decide) {
    const k = r.decide(pool);
    const cand = k === undefined ? undefined : pool[k];
    if (cand) return { cand, resolvedBy: "syntax" };
  }
  if (r.ask) {
    const picked = r.ask(pool);
    const cand = typeof picked === "number" && Number.isInteger(picked) ? pool[picked] : undefined;
    if (cand) return { cand, resolvedBy: "callback" };
  }
  return { pool };
}
