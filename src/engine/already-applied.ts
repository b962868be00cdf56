/**
 * An op whose result already stands where it would go: models send a block
 * again after it was applied (about one real block in nine). Applying it
 * again duplicates an insertion or nests a wrapper twice (`try:` inside the
 * same `try:`); refusing it makes the model send it a third time. The rule,
 * one for every format:
 *
 * - the replacement must add or change something specific: at least
 *   MIN_ADDED_CHARS non-blank characters that its find text lacks (a line
 *   diff), so a deletion, or a `}` added, proves nothing by being present;
 * - its places are where it stands as whole lines: exactly, or with other
 *   indentation unless the op only re-indents (then the indentation is the
 *   change, and present elsewhere proves nothing);
 * - found: the matched place lies inside a place of the replacement, and so
 *   does every place of the find text (line-trimmed): its old text stands
 *   only inside its new text (an insertion re-sent: A,B -> A,new,B on a
 *   file with A,new,B is NOT_FOUND, but A,B -> A,B,new on A,B,new matches);
 * - ambiguous: every candidate lies inside a place of the replacement, or
 *   none is exact, the replacement stands once verbatim, and no candidate
 *   straddles its edge (the candidates are near-misses elsewhere);
 * - not found: the replacement stands once, or verbatim several times with
 *   the closest near-miss inside one of them.
 *
 * Places are 0-based, half-open line ranges.
 */
import { exact } from "../match/exact.ts";
import { lineTrimmed } from "../match/line-trimmed.ts";
import type { Candidate, MatchContext } from "../match/types.ts";
import { diffLinesBounded } from "../text/line-diff.ts";
import { normalizePunctuation } from "../text/normalize.ts";
import { wholeLineCandidates } from "./line-edits.ts";
import { queryOf } from "./locate-op.ts";
import type { EditOp, Reading } from "./ops.ts";

/** What the replacement adds must be at least this specific to prove anything by standing in the file. */
export const MIN_ADDED_CHARS = 20;

export interface Place {
  startLine: number;
  endLine: number;
}

const linesOf = (r: Reading) => (r.lines ? { find: r.lines.find, replace: r.lines.replace } : { find: r.find.split("\n"), replace: r.replace.split("\n") });

/**
 * A line as the comparison of the two sides sees it: no whitespace, ASCII
 * punctuation, one dash for a run ("—" typed as "--"). A replacement that
 * only un-curls its find text's quotes adds nothing.
 */
const lineKey = (line: string): string => normalizePunctuation(line).replace(/\s+/g, "").replace(/-+/g, "-");

/** Non-blank characters of the lines the replacement adds or changes (a line diff against the find text). */
function addedChars(find: readonly string[], replace: readonly string[]): number {
  let n = 0;
  for (const change of diffLinesBounded(find, replace, lineKey)) {
    if (!change.added) continue;
    for (const line of change.value) n += lineKey(line).length;
  }
  return n;
}

/** The op only changes indentation: its lines are the same text at other depths. */
function onlyReindents(find: readonly string[], replace: readonly string[]): boolean {
  const a = find.map((l) => l.trim()).filter((l) => l !== "");
  const b = replace.map((l) => l.trim()).filter((l) => l !== "");
  return a.length === b.length && a.every((l, k) => l === b[k]);
}

const inside = (p: Place, q: Place) => q.startLine <= p.startLine && p.endLine <= q.endLine && p.endLine > p.startLine;
const straddles = (p: Place, q: Place) => p.startLine < q.endLine && q.startLine < p.endLine && !inside(p, q);

function wholeLinePlaces(ctx: MatchContext, lines: readonly string[], strict: boolean): Place[] {
  const q = queryOf({ find: lines.join("\n"), replace: "", lines: { find: lines, replace: [] } });
  const found: Candidate[] = strict ? exact.find(ctx, q) : lineTrimmed.find(ctx, q);
  return wholeLineCandidates(ctx.doc, found).map((c) => ({ startLine: c.startLine, endLine: c.endLine }));
}

export interface ReplacementPlaces {
  /** Where the replacement stands verbatim. */
  exact: Place[];
  /** Verbatim or re-indented (the re-indented only when the op does more than re-indent). */
  all: Place[];
}

/** Where the op's replacement stands as whole lines, or undefined when it is not specific enough to tell. */
export function replacementPlaces(ctx: MatchContext, op: EditOp): ReplacementPlaces | undefined {
  const reading = op.readings[0];
  if (!reading || op.hints.replaceAll) return undefined;
  const { find } = linesOf(reading);
  const replace = [...linesOf(reading).replace];
  while (replace.length > 0 && replace[replace.length - 1]?.trim() === "") replace.pop();
  while (replace.length > 0 && replace[0]?.trim() === "") replace.shift();
  if (replace.length === 0 || addedChars(find, replace) < MIN_ADDED_CHARS) return undefined;
  const exactPlaces = wholeLinePlaces(ctx, replace, true);
  const all = onlyReindents(find, replace) ? exactPlaces : wholeLinePlaces(ctx, replace, false);
  for (const p of exactPlaces) if (!all.some((q) => q.startLine === p.startLine && q.endLine === p.endLine)) all.push(p);
  return all.length === 0 ? undefined : { exact: exactPlaces, all };
}

/** Where the op's find text stands, as whole lines with any indentation. */
function findPlaces(ctx: MatchContext, op: EditOp): Place[] {
  const reading = op.readings[0];
  if (!reading) return [];
  return wholeLinePlaces(ctx, linesOf(reading).find, false);
}

/** Rule for a located op: the place of the replacement that holds the match, when the find text stands nowhere else. */
export function standsAroundMatch(ctx: MatchContext, op: EditOp, match: Place): Place | undefined {
  const places = replacementPlaces(ctx, op);
  const around = places?.all.find((q) => inside(match, q));
  if (!places || !around) return undefined;
  return findPlaces(ctx, op).every((p) => places.all.some((q) => inside(p, q))) ? around : undefined;
}

/** Rule for an ambiguous op, given its candidates (0-based, half-open). */
export function standsAmongCandidates(ctx: MatchContext, op: EditOp, candidates: readonly (Place & { strategy?: string })[]): Place | undefined {
  const places = replacementPlaces(ctx, op);
  if (!places || candidates.length === 0) return undefined;
  const holders = candidates.map((c) => places.all.find((q) => inside(c, q)));
  if (holders.every((h) => h !== undefined)) return holders[0];
  const only = places.exact.length === 1 ? places.exact[0] : undefined;
  if (!only || candidates.some((c) => c.strategy === "exact" || straddles(c, only))) return undefined;
  return only;
}

/** Rule for an op not found: where its replacement stands, given the closest near-miss (0-based, half-open) when known. */
export function standsInstead(ctx: MatchContext, op: EditOp, closest?: Place): Place | undefined {
  const places = replacementPlaces(ctx, op);
  if (!places) return undefined;
  if (places.exact.length === 1) return places.exact[0];
  if (places.exact.length === 0 && places.all.length === 1) return places.all[0];
  if (closest && places.exact.length > 1) return places.exact.find((q) => inside(closest, q));
  return undefined;
}
