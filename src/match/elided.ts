/**
 * Elided (fuzzpatch): the model shortened the find text with an elision
 * line — `...`, `// ... existing code ...`, `# ... rest unchanged`,
 * `/* ... *\/`, `<!-- ... -->`. The parts between elisions are matched
 * trimmed, in order; the region spans from the first part to the last and
 * the elided lines are kept as they are by the splice.
 *
 * Safety: the first part (or, failing that, the last) must occur exactly
 * once in the file; the other parts are taken at their nearest occurrence
 * in order, and a part farther than `MAX_GAP` lines from the previous one is
 * no match.
 */
import { lineCandidate } from "./anchors.ts";
import { trimmedWindows } from "./line-trimmed.ts";
import { queryFromLines } from "./query.ts";
import type { Candidate, MatchContext, Query, Strategy } from "./types.ts";

const MAX_GAP = 2000;

// An optional comment opener, an ellipsis, optional words after a space, an
// optional closer. `...args` (a spread) has no space after the dots and is
// code, not an elision. Anchored, no nested quantifiers: linear.
const ELISION = /^(?:\/\/|#|--|;|\/\*|<!--|\{\/\*)?\s*(?:\.\.\.|…)(?:\s[\w\s.,'’()-]*)?(?:\*\/|-->|\*\/\})?$/;

export function isElisionLine(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && t.length < 120 && ELISION.test(t);
}

/**
 * An elision marker in a replacement, where the edit writes code: only one
 * that says so, a comment or words (`// ...`, `... rest unchanged`). A bare
 * `...` there is code as often as not (Python's Ellipsis as a stub's body),
 * so it is written as the model wrote it.
 */
export function isReplacementElision(line: string): boolean {
  const t = line.trim();
  return t !== "..." && t !== "…" && isElisionLine(line);
}

interface Part {
  /** Index of the part's first line in the query. */
  offset: number;
  query: Query;
}

function splitParts(q: Query): Part[] {
  const parts: Part[] = [];
  let from = 0;
  for (let j = 0; j <= q.lines.length; j++) {
    if (j === q.lines.length || isElisionLine(q.lines[j] ?? "")) {
      const lines = q.lines.slice(from, j);
      if (lines.some((l) => l.trim() !== "")) parts.push({ offset: from, query: queryFromLines(lines, false) });
      from = j + 1;
    }
  }
  return parts;
}

const indentWidth = (line: string) => line.length - line.trimStart().length;

/** File indentation minus model indentation on the part's first non-blank line placed at `at`. */
function indentShift(ctx: MatchContext, part: Part, at: number): number {
  const j = part.query.trimmed.findIndex((t) => t !== "");
  return indentWidth(ctx.doc.line(at + j)) - indentWidth(part.query.lines[j] ?? "");
}

/**
 * Whether every non-blank line of the part placed at `at` is shifted by
 * `shift`. A copy nested deeper may share its first line's indentation
 * (a `/**` at column 0 over a deeper comment body), so one line is not
 * enough to tell the copies apart.
 */
function shiftedBy(ctx: MatchContext, part: Part, at: number, shift: number): boolean {
  return part.query.lines.every((l, j) => part.query.trimmed[j] === "" || indentWidth(ctx.doc.line(at + j)) - indentWidth(l) === shift);
}

/**
 * Places parts in order starting from a unique part at index `pivot`, going
 * both ways to the nearest occurrence, preferring occurrences indented as the
 * pivot is (a part's line may also occur, nested deeper, inside the elided
 * span: the nearest occurrence is then the wrong one).
 */
function placeFrom(ctx: MatchContext, parts: Part[], starts: number[][], pivot: number, at: number): number[] | null {
  const placed = new Array<number>(parts.length).fill(-1);
  placed[pivot] = at;
  const shift = indentShift(ctx, parts[pivot] as Part, at);
  const pick = (part: Part, options: number[]) => options.find((s) => shiftedBy(ctx, part, s, shift)) ?? options[0];
  for (let k = pivot + 1; k < parts.length; k++) {
    const part = parts[k] as Part;
    const prev = parts[k - 1] as Part;
    const prevEnd = (placed[k - 1] ?? 0) + prev.query.lines.length;
    const next = pick(
      part,
      (starts[k] ?? []).filter((s) => s >= prevEnd && s - prevEnd <= MAX_GAP),
    );
    if (next === undefined) return null;
    placed[k] = next;
  }
  for (let k = pivot - 1; k >= 0; k--) {
    const part = parts[k] as Part;
    const nextStart = placed[k + 1] ?? 0;
    const options = (starts[k] ?? []).filter((s) => s + part.query.lines.length <= nextStart && nextStart - (s + part.query.lines.length) <= MAX_GAP);
    const prev = pick(part, options.reverse());
    if (prev === undefined) return null;
    placed[k] = prev;
  }
  return placed;
}

function candidateFor(ctx: MatchContext, q: Query, parts: Part[], placed: number[]): Candidate {
  const alignment = new Array<number>(q.lines.length).fill(-1);
  parts.forEach((part, k) => {
    for (let j = 0; j < part.query.lines.length; j++) alignment[part.offset + j] = (placed[k] ?? 0) + j;
  });
  const first = placed[0] ?? 0;
  const lastPart = parts[parts.length - 1] as Part;
  const last = (placed[parts.length - 1] ?? 0) + lastPart.query.lines.length;
  return lineCandidate(ctx, q, first, last - first, "elided", 0.95, { alignment });
}

/** Most placements listed when no part is unique: enough to report the ambiguity. */
const MAX_PLACEMENTS = 20;

export const elided: Strategy = {
  name: "elided",
  exact: false,
  find(ctx, q) {
    if (!q.lines.some(isElisionLine)) return [];
    const parts = splitParts(q);
    if (parts.length === 0) return [];
    // Each part's places, its lines equal after trimming (as line-trimmed finds them).
    const starts = parts.map((p) => trimmedWindows(ctx, p.query));
    if (starts.some((s) => s.length === 0)) return [];
    const pivot = starts[0]?.length === 1 ? 0 : starts[starts.length - 1]?.length === 1 ? parts.length - 1 : -1;
    if (pivot !== -1) {
      const placed = placeFrom(ctx, parts, starts, pivot, starts[pivot]?.[0] ?? 0);
      return placed ? [candidateFor(ctx, q, parts, placed)] : [];
    }
    // No part is unique: never a match, but every placement is reported so
    // the model learns the text is ambiguous rather than absent.
    const placements = (starts[0] ?? [])
      .slice(0, MAX_PLACEMENTS)
      .map((at) => placeFrom(ctx, parts, starts, 0, at))
      .filter((p): p is number[] => p !== null)
      .map((p) => candidateFor(ctx, q, parts, p));
    return placements.length > 1 ? placements : [];
  },
};
