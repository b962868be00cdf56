/**
 * Which syntax errors an edit introduced: those of the new text that the old
 * text did not have. The edit is one changed region (the texts' common start
 * and end cut off); an old error before the region stands at the same offset
 * in the new text, one after it at its offset shifted by the length change.
 *
 * A new error is the old one (not introduced) when:
 * 1. an old error of the same kind and message maps to its offset;
 * 2. it lies outside the changed region and an old error outside it has the
 *    same kind, message and line text (error recovery moved it a little, an
 *    edit above shifted it by whole lines inside an ERROR span);
 * 3. it overlaps an old error that spanned the changed region (the edit
 *    touched text that was already broken, and the parser reads the broken
 *    part differently now).
 * So a file already broken elsewhere counts only what this edit broke, and
 * a missing brace the edit caused at the end of the file still counts.
 */

import type { SyntaxIssue } from "./issues.ts";

/** The changed region: [start, oldEnd) of the old text became [start, newEnd) of the new. */
export interface ChangedRegion {
  start: number;
  oldEnd: number;
  newEnd: number;
}

function sameError(a: SyntaxIssue, b: SyntaxIssue): boolean {
  return a.kind === b.kind && a.message === b.message;
}

/** The new errors that are not old ones (see the header for the rules). */
export function introducedIssues(before: readonly SyntaxIssue[], after: readonly SyntaxIssue[], region: ChangedRegion): SyntaxIssue[] {
  const delta = region.newEnd - region.oldEnd;
  const used = new Set<number>();
  const mapped = before.map((o) => (o.end <= region.start ? o.start : o.start >= region.oldEnd ? o.start + delta : undefined));
  // Old errors over the changed region, as spans of the new text.
  const spans = before.filter((o) => o.start <= region.oldEnd && o.end >= region.start).map((o) => ({ start: o.start, end: Math.max(o.start, o.end + delta) }));
  const outside = (n: SyntaxIssue): boolean => n.end < region.start || n.start > region.newEnd;
  const out: SyntaxIssue[] = [];
  for (const n of after) {
    let match = before.findIndex((o, i) => !used.has(i) && mapped[i] === n.start && sameError(o, n));
    if (match < 0 && outside(n)) match = before.findIndex((o, i) => !used.has(i) && mapped[i] !== undefined && sameError(o, n) && o.excerpt === n.excerpt);
    if (match >= 0) {
      used.add(match);
      continue;
    }
    if (spans.some((s) => n.start <= s.end && n.end >= s.start)) continue;
    out.push(n);
  }
  return out;
}
