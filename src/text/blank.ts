/** The blank characters at a line's ends (the Unicode spaces inside code are kept). */
export const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;

/** Where `text[start, end)` starts past its blank space. */
function blankStart(text: string, start: number, end: number): number {
  let s = start;
  while (s < end && isSpace(text.charCodeAt(s))) s++;
  return s;
}

/** Where `text[start, end)` ends before its blank space (`start`: where its text starts). */
function blankEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && isSpace(text.charCodeAt(e - 1))) e--;
  return e;
}

/** `line` without the blank space at its ends, the same characters `linesTrimmedEqual` treats as blank. */
export function trimBlank(line: string): string {
  const s = blankStart(line, 0, line.length);
  const e = blankEnd(line, s, line.length);
  return s === 0 && e === line.length ? line : line.slice(s, e);
}

/** Units hashed at each end of a longer line (see `hashTrimmed`). */
const HASHED_ENDS = 12;

/**
 * A 32-bit hash (FNV-1a over UTF-16 units: the length, and of a line longer than 2 × HASHED_ENDS its ends only) of `text[start, end)` without
 * its blank ends (see `isSpace`): 0 for a blank range, never 0 otherwise.
 * Equal trimmed texts hash equal; a match on the hash is checked in place.
 */
export function hashTrimmed(text: string, start: number, end: number): number {
  const s = blankStart(text, start, end);
  const e = blankEnd(text, s, end);
  if (s === e) return 0;
  // The length and at most the first and last HASHED_ENDS units: hashing every unit of 9 MB took ~25 ms, most of the build.
  let h = Math.imul(0x811c9dc5 ^ (e - s), 0x01000193);
  const head = e - s > 2 * HASHED_ENDS ? s + HASHED_ENDS : e;
  for (let p = s; p < head; p++) h = Math.imul(h ^ text.charCodeAt(p), 0x01000193);
  for (let p = Math.max(head, e - HASHED_ENDS); p < e; p++) h = Math.imul(h ^ text.charCodeAt(p), 0x01000193);
  return h === 0 ? 1 : h;
}

/** Whether `text[start, end)` without its blank ends is `trimmed`. */
export function isTrimmedAt(text: string, start: number, end: number, trimmed: string): boolean {
  const s = blankStart(text, start, end);
  const e = blankEnd(text, s, end);
  return e - s === trimmed.length && text.startsWith(trimmed, s);
}
