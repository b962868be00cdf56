/**
 * Every occurrence of a needle in the text, memoised per document, with the
 * scans shared between needles. One `indexOf` pass over a 9 MB file costs
 * 0.5–7 ms (V8's search skips ahead by about the needle's length: a short
 * line such as `if (x) {` is the slowest), and the strategies of one edit
 * ask for needles that contain one another: a trimmed line, then the same
 * line with the model's indentation, the whole find text trimmed. So a
 * needle that contains a selective needle already searched (a key) is found
 * by checking each key hit in place with `startsWith` instead of scanning
 * the file again. The answer is the list a scan gives: every occurrence of
 * the needle holds the key at the same offset, and the key's list is
 * complete. (Searching a needle's longest word first, as a key for all the
 * needles holding it, was measured and lost: a word is shorter than its
 * line, so its own scan costs more than the scans it saves.)
 */
/** Needles shorter than this are too common in code to serve as keys. */
const KEY_MIN = 8;
/** A key with more hits than this costs more to check than a scan of the file: the needle is searched for itself. */
const MAX_KEY_HITS = 1000;
/** Keys kept for later needles (the most recent). */
const MAX_KEYS = 32;

export type OccurrenceFinder = (needle: string) => readonly number[];

export function createOccurrenceFinder(text: string): OccurrenceFinder {
  const memo = new Map<string, readonly number[]>();
  const keys: string[] = [];

  const scan = (needle: string): number[] => {
    const found: number[] = [];
    if (needle === "") return found;
    for (let p = text.indexOf(needle); p !== -1; p = text.indexOf(needle, p + 1)) found.push(p);
    return found;
  };

  /** The needle's occurrences from those of `key`, a substring of it. */
  const derive = (needle: string, key: string): number[] => {
    const k = needle.indexOf(key);
    const out: number[] = [];
    for (const h of memo.get(key) ?? []) {
      const p = h - k;
      if (p >= 0 && text.startsWith(needle, p)) out.push(p);
    }
    return out;
  };

  /** The known key inside `needle` with the fewest hits, if any. */
  const knownKey = (needle: string): string | undefined => {
    let best: string | undefined;
    for (const key of keys) {
      if (key.length >= needle.length || !needle.includes(key)) continue;
      if (best === undefined || (memo.get(key)?.length ?? 0) < (memo.get(best)?.length ?? 0)) best = key;
    }
    return best;
  };

  const remember = (needle: string, found: readonly number[]): readonly number[] => {
    memo.set(needle, found);
    if (needle.length >= KEY_MIN && found.length <= MAX_KEY_HITS) {
      keys.push(needle);
      if (keys.length > MAX_KEYS) keys.shift();
    }
    return found;
  };

  const occurrences = (needle: string): readonly number[] => {
    const known = memo.get(needle);
    if (known) return known;
    if (needle.length > KEY_MIN) {
      const key = knownKey(needle);
      if (key !== undefined) return remember(needle, derive(needle, key));
    }
    return remember(needle, scan(needle));
  };
  return occurrences;
}
