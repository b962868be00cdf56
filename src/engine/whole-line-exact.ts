/**
 * The exact search of a SEARCH section through the line index, instead of a
 * scan of the whole text (issue 39, item 6): a response of 2,000 one-line
 * blocks on a 1 MB file scanned it once per block (~0.3 ms each, 0.6 s of
 * the call's 1.4 s), where the line index answers in microseconds.
 *
 * Why the lines of the index hold every place that counts: a SEARCH section
 * is whole lines (locate-op.ts, `wholeLinesFirst`), so a place is kept only
 * when it starts at its line's start or inside its indentation (spaces and
 * tabs) and ends at its line's end or inside its trailing blank space. Its
 * first line, up to its first line break (or the whole find text when it has
 * none), then holds the file line's text with at most blank space cut from
 * its ends, and both trim to the same text (`trimBlank`), with one trap: the
 * trailing blank space the filter reads (`\s`) holds characters that
 * `trimBlank` keeps (U+3000, U+2028 and the like), so a find text of one line
 * goes this way only in a text without them. The index lists the lines of
 * that trimmed text; on each, the one offset where the find text can stand so
 * (its first line ending at the line's end; else its trimmed text at the
 * line's) is checked in place. Places the filter drops (inside longer lines)
 * are missing from the list; every place it keeps is there, so the strategy
 * answers as from the full list.
 *
 * Only where the context has a line index (a call of many edits, a kept
 * document: never built for this) and the line has at most MAX_PLACES places;
 * otherwise the exact strategy searches as before (and the place cap with it).
 */
import { linesMaybeTrimmedAs } from "../match/anchors.ts";
import { exact } from "../match/exact.ts";
import { isSpace, trimBlank } from "../match/line-index.ts";
import { withOccurrences } from "../match/derived-context.ts";
import type { MatchContext, Query, Strategy } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { MAX_PLACES } from "./place-cap.ts";

/** Tests turn it off to compare with the scan (test/whole-line-exact.test.ts). Not a public API. */
export const wholeLineSearch = { on: true };

/** The characters of `\s` that `trimBlank` does not cut (besides the line break). */
const UNCUT_BLANKS = /[\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const uncut = new WeakMap<Document, boolean>();

function hasUncutBlanks(doc: Document): boolean {
  let has = uncut.get(doc);
  if (has === undefined) {
    has = UNCUT_BLANKS.test(doc.text);
    uncut.set(doc, has);
  }
  return has;
}

/** The length of the blank space (as `trimBlank` cuts it) at the start of `s[from, to)`. */
function blankLead(s: string, from: number, to: number): number {
  let p = from;
  while (p < to && isSpace(s.charCodeAt(p))) p++;
  return p - from;
}

/** Per context, the first lines found on more than MAX_PLACES lines: not listed again for the next block. */
const common = new WeakMap<MatchContext, Set<string>>();

/** The places of `needle` that a whole-line filter may keep, ascending; undefined where the index cannot say. */
function wholeLinePlaces(ctx: MatchContext, needle: string): number[] | undefined {
  const doc = ctx.doc;
  const text = doc.text;
  const br = needle.indexOf("\n");
  // Two line breaks or more: the shared finder looks the needle up by its rarest inner line already (occurrences.ts).
  if (br !== -1 && needle.indexOf("\n", br + 1) !== -1) return undefined;
  const first = br === -1 ? needle : needle.slice(0, br);
  const key = trimBlank(first);
  if (key === "" || (br === -1 && hasUncutBlanks(doc)) || common.get(ctx)?.has(key)) return undefined;
  const lines = linesMaybeTrimmedAs(ctx, key, MAX_PLACES);
  if (!lines) {
    const known = common.get(ctx) ?? new Set<string>();
    known.add(key);
    common.set(ctx, known);
    return undefined;
  }
  const lead = br === -1 ? blankLead(needle, 0, needle.length) : 0;
  const out: number[] = [];
  for (const i of lines) {
    const start = doc.lineStart(i);
    const end = doc.lineEnd(i);
    // Its first line ends where the line does; a find text of one line has its trimmed text where the line's is.
    const p = br === -1 ? start + blankLead(text, start, end) - lead : end - br;
    if (p >= start && (br !== -1 || p + needle.length <= end) && text.startsWith(needle, p)) out.push(p);
  }
  return out;
}

/** `strategies` with the exact one answering through the line index where it can (see above). */
export function wholeLineExact(strategies: readonly Strategy[]): Strategy[] {
  if (!wholeLineSearch.on) return [...strategies];
  return strategies.map((s) =>
    s.name !== "exact"
      ? s
      : {
          name: s.name,
          exact: s.exact,
          find(ctx: MatchContext, q: Query) {
            const places = wholeLinePlaces(ctx, q.text);
            if (!places) return s.find(ctx, q);
            return exact.find(
              withOccurrences(ctx, (needle) => (needle === q.text ? places : ctx.occurrences(needle))),
              q,
            );
          },
        },
  );
}
