/**
 * Two lines one of which has every word of the other (`import
 * collections.abc` and `from collections.abc import Iterable`): a new line
 * at the snippet's edge so like the file line beside it may be that line
 * rewritten, though they share too little text to look changed (bench:lazy,
 * sympy-13971: the import rewritten was merged as one added above it).
 */

const WORD = /[A-Za-z0-9_]+/g;
// Fewer words, or shorter ones, stand in many unrelated lines (`return x`).
const MIN_WORDS = 2;
const MIN_CHARS = 8;

/** Whether every word of the line with fewer words stands in the other. */
export function wordsWithin(a: string, b: string): boolean {
  const [wa, wb] = [a.match(WORD) ?? [], b.match(WORD) ?? []];
  const [few, many] = wa.length <= wb.length ? [wa, new Set(wb)] : [wb, new Set(wa)];
  if (new Set(few).size < MIN_WORDS || few.join("").length < MIN_CHARS) return false;
  return few.every((w) => many.has(w));
}
