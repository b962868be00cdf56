/**
 * An op whose result already stands where it would go: models send a block
 * again after it was applied (about one real block in nine). Applying it
 * again duplicates an insertion or nests a wrapper twice (`try:` inside the
 * same `try:`); refusing it makes the model send it a third time. The rule,
 * one for every format:
 *
 * - the replacement must add or change something its find text lacks (a
 *   deletion's remains prove nothing by being present) and be more than one
 *   short line (`}`); away from the matched find text, what it adds must be
 *   MIN_ADDED_CHARS long;
 * - its places are where it stands as whole lines: exactly, or with other
 *   indentation unless the op only re-indents (then the indentation is the
 *   change, and present elsewhere proves nothing);
 * - found: the matched place lies inside a place of the replacement, and so
 *   does every place of the find text (line-trimmed): its old text stands
 *   only inside its new text (an insertion re-sent: A,B -> A,new,B on a
 *   file with A,new,B is NOT_FOUND, but A,B -> A,B,new on A,B,new matches);
 * - found only by similarity: the replacement stands once verbatim, what it
 *   adds specific, or stands at the line hint (the window is a look-alike,
 *   overlapping the new text or not);
 * - ambiguous: every candidate lies inside a place of the replacement, or
 *   none is exact, the replacement stands once verbatim, and no candidate
 *   straddles its edge (the candidates are near-misses elsewhere);
 * - not found: the replacement stands once, or verbatim several times with
 *   the closest near-miss inside one of them.
 *
 * Places are 0-based, half-open line ranges.
 */
import { innerLineNowhere } from "../match/anchors.ts";
import { exact } from "../match/exact.ts";
import { lineTrimmed } from "../match/line-trimmed.ts";
import { punctuationNormalized } from "../match/punctuation-normalized.ts";
import type { MatchContext, Query } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { coarseKey, normalizePunctuation } from "../text/normalize.ts";
import { wholeLineCandidates } from "./line-edits.ts";
import { queryOf } from "./locate-op.ts";
import type { EditOp, Reading } from "./ops.ts";

/** A one-line replacement shorter than this (without whitespace) stands in many files by chance. */
const MIN_LINE_CHARS = 8;
/**
 * Where the replacement is not around the matched find text (ambiguous, or
 * not found at all), what it adds must be this specific: 20 characters
 * fired on no real block expected to apply (bench:real).
 */
const MIN_ADDED_CHARS = 20;
/** Around the matched find text, a few characters do (`z = 3` added after `x = 1`); one (`a`) does not. */
const MIN_ADDED_NEAR = 3;

export interface Place {
  startLine: number;
  endLine: number;
}

/** Lines without the blank ones at either end (a replacement's framing, not its text). */
function trimBlankEdges(lines: readonly string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && (lines[a] ?? "").trim() === "") a++;
  while (b > a && (lines[b - 1] ?? "").trim() === "") b--;
  return lines.slice(a, b);
}

const linesOf = (r: Reading) => (r.lines ? { find: r.lines.find, replace: r.lines.replace } : { find: r.find.split("\n"), replace: r.replace.split("\n") });

/**
 * A line as the comparison of the two sides sees it: no whitespace, ASCII
 * punctuation, one dash for a run ("—" typed as "--"). A replacement that
 * only un-curls its find text's quotes adds nothing. That is `coarseKey`
 * (normalize.ts), the key the line-wise strategies' skip reads.
 */
const lineKey = coarseKey;

/** Texts that read the same: line by line, whitespace, blank lines and typographic punctuation aside. */
export function readsTheSame(a: readonly string[], b: readonly string[]): boolean {
  const x = a.map(lineKey).filter((k) => k !== "");
  const y = b.map(lineKey).filter((k) => k !== "");
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/**
 * Non-blank characters of the lines the replacement adds or changes: its
 * lines beyond as many copies as the find text has (by key). A wrapper
 * `if c:` around code that holds `if c:` adds that line; a line added to a
 * run of its copies (`x` among `x` lines) adds nothing: the run grown
 * stands in the file before and after.
 */
function addedChars(find: readonly string[], replace: readonly string[]): number {
  const keys = replace.map(lineKey);
  const surplus = new Map<string, number>();
  for (const k of keys) surplus.set(k, (surplus.get(k) ?? 0) + 1);
  for (const line of find) {
    const k = lineKey(line);
    const left = surplus.get(k);
    if (left !== undefined) surplus.set(k, left - 1);
  }
  const runs = new Set(keys.filter((k, i) => k === keys[i + 1]));
  let n = 0;
  for (const [k, extra] of surplus) if (extra > 0 && !runs.has(k)) n += extra * k.length;
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
  // Not searched where the index says nowhere (2,000 fuzzy hunks: 8 % of the CPU).
  if (strict && innerLineNowhere(ctx, lines)) return [];
  const q = queryOf({ find: lines.join("\n"), replace: "", lines: { find: lines, replace: [] } });
  if (strict) return wholeLineCandidates(ctx.doc, exact.find(ctx, q)).map((c) => ({ startLine: c.startLine, endLine: c.endLine }));
  // Loosely: other indentation, or typeset quotes and dashes (the model's copy of a `“name”` line) but
  // the same spaces inside the lines: `a =  b` -> `a = b` is an edit, not one already made.
  const trimmed = lineTrimmed.find(ctx, q);
  // With no character past ASCII in the text or the lines, a typeset place is a place of equal trimmed lines,
  // which line-trimmed found unless its search stopped at its cap: not searched for again.
  const typeset = typesetKnown(ctx, q, lines)
    ? []
    : punctuationNormalized.find(ctx, q).filter((c) => {
        const file = ctx.doc.lines(c.startLine, c.endLine);
        return file.length === lines.length && file.every((l, k) => normalizePunctuation(l).trim() === normalizePunctuation(lines[k] as string).trim());
      });
  return wholeLineCandidates(ctx.doc, [...trimmed, ...typeset]).map((c) => ({ startLine: c.startLine, endLine: c.endLine }));
}

/** Tests turn it off to compare the places with those of the search it saves (test/already-applied-ascii.test.ts). Not a public API. */
export const typesetShortcut = { on: true, taken: 0 };

/** A character past ASCII (a surrogate half included). */
const NON_ASCII = /[\u0080-\uffff]/;

/** Whether a kept document's text is all ASCII, by document: one scan (~1 ms a MB) serves every block of a response. */
const asciiTexts = new WeakMap<Document, boolean>();

/**
 * Whether line-trimmed's places of `q` (just searched) are every place
 * punctuation-normalized would add: no character past ASCII in the text or
 * the lines (then both compare the lines trimmed, and trim alike), and
 * line-trimmed's search not cut at its cap. Asked of a kept document only
 * (a file layer's current text, a server's file): 2,000 refused blocks'
 * replacements of `}` + a comment each searched the file by a digit
 * (~1.2 ms a near miss).
 */
function typesetKnown(ctx: MatchContext, q: Query, lines: readonly string[]): boolean {
  const doc = ctx.doc;
  if (!typesetShortcut.on || !doc.retained || ctx.capsFor(q).length > 0 || lines.some((l) => NON_ASCII.test(l))) return false;
  let ascii = asciiTexts.get(doc);
  if (ascii === undefined) {
    ascii = !NON_ASCII.test(doc.text);
    asciiTexts.set(doc, ascii);
  }
  if (ascii) typesetShortcut.taken++;
  return ascii;
}

export interface ReplacementPlaces {
  /** Where the replacement stands verbatim. */
  exact: Place[];
  /** Verbatim or re-indented (the re-indented only when the op does more than re-indent). */
  all: Place[];
  /** Non-blank characters the replacement adds or changes. */
  added: number;
}

/**
 * Where the op's replacement stands as whole lines, or undefined when it
 * adds nothing (a deletion's remains are always there) or is too short to
 * tell: one line of fewer than MIN_LINE_CHARS (`}`, `pass`) stands anywhere.
 */
export function replacementPlaces(ctx: MatchContext, op: EditOp, loose = true): ReplacementPlaces | undefined {
  const reading = op.readings[0];
  if (!reading || op.hints.replaceAll) return undefined;
  const sides = linesOf(reading);
  const find = sides.find;
  const replace = trimBlankEdges(sides.replace);
  // Verbatim places only, and none: no answer, before a line is keyed.
  if (!loose && innerLineNowhere(ctx, replace)) return undefined;
  const keys = replace.map(lineKey).filter((k) => k !== "");
  if (keys.length === 0 || (keys.length === 1 && (keys[0] as string).length < MIN_LINE_CHARS)) return undefined;
  const added = addedChars(find, replace);
  if (added === 0) return undefined;
  const exactPlaces = wholeLinePlaces(ctx, replace, true);
  // Without `loose` (a caller that reads the verbatim places only), the re-indented ones are not searched.
  const all = !loose || onlyReindents(find, replace) ? exactPlaces : wholeLinePlaces(ctx, replace, false);
  for (const p of exactPlaces) if (!all.some((q) => q.startLine === p.startLine && q.endLine === p.endLine)) all.push(p);
  return all.length === 0 ? undefined : { exact: exactPlaces, all, added };
}

/** Where the op's find text stands, as whole lines with any indentation. */
function findPlaces(ctx: MatchContext, op: EditOp): Place[] {
  const reading = op.readings[0];
  if (!reading) return [];
  return wholeLinePlaces(ctx, linesOf(reading).find, false);
}

/** Where the find lines stand as one block inside the replacement lines (by key), else undefined. */
function offsetInReplacement(op: EditOp): number | undefined {
  const reading = op.readings[0];
  if (!reading) return undefined;
  const { find, replace } = linesOf(reading);
  const f = find.map(lineKey);
  const r = replace.map(lineKey);
  while (f.length > 0 && f[f.length - 1] === "") f.pop();
  for (let k = 0; k + f.length <= r.length; k++) if (f.every((x, i) => x === r[k + i])) return k;
  return undefined;
}

/**
 * Whether the replacement's lines could stand around the match at all: a
 * look at the few lines there (trimmed, typeset quotes as ASCII), so that
 * an ordinary edit pays no search of the whole file (measured: 3.8 -> 10 ms
 * per exact edit on a 200k-line file without it).
 */
/**
 * Whether the op's replacement stands around `match`, within as many lines as it has: reads those lines only,
 * through `line` and `hasLine` (fs/carried-text.ts relies on it, and asks it of a few lines of a text).
 */
export function standsNear(ctx: { doc: Pick<Document, "line" | "hasLine"> }, op: EditOp, match: Place): boolean {
  const reading = op.readings[0];
  if (!reading || op.hints.replaceAll) return false;
  const repl = trimBlankEdges(linesOf(reading).replace.map((l) => normalizePunctuation(l).trim()));
  const n = repl.length;
  if (n === 0 || n < match.endLine - match.startLine) return false;
  const doc = ctx.doc;
  for (let s = Math.max(0, match.endLine - n); s <= match.startLine && doc.hasLine(s + n - 1); s++) {
    let k = 0;
    while (k < n && normalizePunctuation(doc.line(s + k)).trim() === repl[k]) k++;
    if (k === n) return true;
  }
  return false;
}

/**
 * Rule for a located op: the one place of the replacement, holding the
 * match where the find text sits in the replacement (an insertion's kept
 * lines at their offset), when the find text stands nowhere else. In a run
 * of repeated lines every place holds every other: the replacement must
 * stand once.
 */
export function standsAroundMatch(ctx: MatchContext, op: EditOp, match: Place): Place | undefined {
  // A diff changing the final newline is judged whole by its applier: its lines may stand while the newline does not.
  if (op.finalNewline !== undefined || !standsNear(ctx, op, match)) return undefined;
  const places = replacementPlaces(ctx, op);
  if (places && places.added < MIN_ADDED_NEAR) return undefined;
  const around = places?.all.length === 1 ? places.all[0] : undefined;
  if (!places || !around || !inside(match, around)) return undefined;
  const offset = offsetInReplacement(op);
  if (offset !== undefined && around.startLine + offset !== match.startLine) return undefined;
  return findPlaces(ctx, op).every((p) => inside(p, around)) ? around : undefined;
}

/**
 * Rule for an op found only by similarity: its replacement stands verbatim
 * once (away from the match or overlapping it) and what it adds is specific,
 * or it stands at the op's line hint.
 */
export function standsVerbatim(ctx: MatchContext, op: EditOp, hintLine?: number): Place | undefined {
  // Only the verbatim places decide here (none: no answer, as none anywhere), so the re-indented ones are not searched.
  const places = replacementPlaces(ctx, op, false);
  const only = places?.exact.length === 1 ? places.exact[0] : undefined;
  // Standing where the line hint says the find text starts, a few characters are specific enough, and a
  // similarity window overlapping it is the find text's look-alike in the new text, not a place of its own.
  // The hint may name a blank or context line the place's trimmed edges left out: one line of slack.
  const atHint = only !== undefined && hintLine !== undefined && hintLine >= only.startLine && hintLine <= only.startLine + 1;
  if (places && atHint && places.added >= MIN_ADDED_NEAR) return only;
  // Overlapping it, the window is the find text read into the new text (a re-sent insertion in the middle of a
  // block: the window, sized as the find text, slid over the new lines) or a look-alike next to it (the next
  // section of a changelog): the new text standing verbatim is the better reading either way.
  if (!places || !only || places.added < MIN_ADDED_CHARS) return undefined;
  return only;
}

/** Rule for an ambiguous op, given its candidates (0-based, half-open). */
export function standsAmongCandidates(ctx: MatchContext, op: EditOp, candidates: readonly (Place & { strategy?: string })[]): Place | undefined {
  const places = replacementPlaces(ctx, op);
  if (!places || candidates.length === 0) return undefined;
  const holders = candidates.map((c) => places.all.find((q) => inside(c, q)));
  if (holders.every((h) => h !== undefined)) return holders[0];
  const only = places.exact.length === 1 && places.added >= MIN_ADDED_CHARS ? places.exact[0] : undefined;
  if (!only || candidates.some((c) => c.strategy === "exact" || straddles(c, only))) return undefined;
  return only;
}

/**
 * Rule for a short edit not found: its new text (blank ends aside) stands
 * once in the file, as text, and its old text nowhere but inside it. A
 * `"debug": false` -> `"debug": true` sent again, or a SEARCH line that now
 * stands as the start of its longer replacement, is applied, not lost
 * (issues 32 and 38). Both searches go through the context's memoised,
 * indexed finder.
 */
function standsOnceAsText(ctx: MatchContext, op: EditOp): Place | undefined {
  const reading = op.readings[0];
  if (!reading || op.hints.replaceAll) return undefined;
  const find = reading.find.trim();
  const repl = reading.replace.trim();
  if (find === "" || repl === find || repl.replace(/\s+/g, "").length < MIN_LINE_CHARS) return undefined;
  if (onlyRemoves(linesOf(reading))) return undefined;
  const at = ctx.occurrences(repl);
  const only = at.length === 1 ? (at[0] as number) : undefined;
  if (only === undefined) return undefined;
  for (const p of ctx.occurrences(find)) if (p < only || p + find.length > only + repl.length) return undefined;
  const doc = ctx.doc;
  return { startLine: doc.lineAt(only), endLine: doc.lineAt(only + repl.length - 1) + 1 };
}

/**
 * Whether the op only takes lines of text away: its remains stand in the
 * file whether or not it was applied, so they prove nothing (accuracy bench
 * `foreign-minus`: a line to delete that exists nowhere, the lines kept
 * around it standing once, was reported applied). A whitespace-only edit
 * takes no text away.
 */
function onlyRemoves(sides: { find: readonly string[]; replace: readonly string[] }): boolean {
  if (addedChars(sides.find, sides.replace) > 0) return false;
  const left = new Map<string, number>();
  for (const l of sides.replace) left.set(lineKey(l), (left.get(lineKey(l)) ?? 0) + 1);
  return sides.find.some((l) => {
    const k = lineKey(l);
    const n = left.get(k) ?? 0;
    left.set(k, n - 1);
    return k !== "" && n <= 0;
  });
}

/** Rule for an op not found: where its replacement stands, given the closest near-miss (0-based, half-open) when known. */
export function standsInstead(ctx: MatchContext, op: EditOp, closest?: Place): Place | undefined {
  const places = replacementPlaces(ctx, op);
  if (!places) return standsOnceAsText(ctx, op);
  // A few lines standing once are specific enough on their own (the old rule, kept for diffs' short lines).
  if (places.added < MIN_ADDED_CHARS && !(op.readings[0]?.lines && places.all.length === 1)) return standsOnceAsText(ctx, op);
  if (places.exact.length === 1) return places.exact[0];
  if (places.exact.length === 0 && places.all.length === 1) return places.all[0];
  if (closest && places.exact.length > 1) return places.exact.find((q) => inside(closest, q));
  return undefined;
}
