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
 *
 * A call with many edits (2,000 hunks) asks for thousands of needles no key
 * holds, each a scan of the whole file. Two indexes, built once such scans
 * have cost about as much as building them, answer most of those without
 * a scan: a needle spanning a whole line (two line breaks or more) is found
 * through the file's lines of that text (the caller's line index), a word
 * through the word index (word-index.ts), and any other needle through the
 * rarest identifier run it holds, from the same index: 2,000 one-line
 * blocks with a typo on a 1 MB file each scanned it four times or more
 * (the whitespace strategies' longest word, the replacement, the find
 * text), ~1.5 s of a 3 s call.
 */
import { type LineIndex, SCANS_BEFORE_INDEX, trimBlank } from "./line-index.ts";
import { buildWordIndex, isWord, occurrenceCount, type WordIndex, wordOccurrences } from "./word-index.ts";

/** Needles shorter than this are too common in code to serve as keys. */
const KEY_MIN = 8;
/** A key with more hits than this costs more to check than a scan of the file: the needle is searched for itself. */
const MAX_KEY_HITS = 1000;
/** Places of a whole line few enough to check in place without looking for a rarer line of the needle. */
const FEW_LINES = 8;
/** Keys kept for later needles (the most recent). */
const MAX_KEYS = 32;

/**
 * Word scans before the word index is built. Built cold, it costs the CPU
 * time of about 50 word scans of 1 MB of short code lines (53 ms, a scan
 * 0.5-1 ms) and fewer on typical code (typescript.js, 9.1 MB: a scan 5-8
 * ms): at worst about twice what the scans before it cost, after which a
 * word costs microseconds. A call of a few edits asks for a few words, and
 * never builds it.
 */
export const WORD_SCANS_BEFORE_INDEX = 32;

export type OccurrenceFinder = (needle: string) => readonly number[];

/** The lines of the text searched (the finder's text split at "\n"), for needles holding a whole line. */
export interface LineSource {
  /** The lines by trimmed text: built now when `build`, else only if some search built it already. */
  index(build: boolean): LineIndex | undefined;
  /** Offset where line `i` starts. */
  start(i: number): number;
}

/**
 * `edits`: how many edits the caller will search for. A call with at least as
 * many edits as the line scans that pay for the line index asks for it on its
 * first need (it would cross the count within its first edits anyway).
 */
export function createOccurrenceFinder(text: string, lines?: LineSource, edits = 1): OccurrenceFinder {
  const finder = new Occurrences(text, lines, edits >= SCANS_BEFORE_INDEX ? SCANS_BEFORE_INDEX : 0);
  return (needle) => finder.of(needle);
}

/** One text's memo of needles, its keys, and the indexes built for it. */
class Occurrences {
  private readonly memo = new Map<string, readonly number[]>();
  private readonly keys: string[] = [];
  private wordScans = 0;
  private words: WordIndex | undefined;

  constructor(
    private readonly text: string,
    private readonly lines: LineSource | undefined,
    private lineScans: number,
  ) {}

  of(needle: string): readonly number[] {
    const known = this.memo.get(needle);
    if (known) return known;
    if (needle.length > KEY_MIN) {
      const key = this.knownKey(needle);
      if (key !== undefined) return this.remember(needle, this.derive(needle, key));
    }
    return this.remember(needle, this.throughWords(needle) ?? this.throughLines(needle) ?? this.throughInnerWord(needle) ?? this.scan(needle));
  }

  private scan(needle: string): number[] {
    const found: number[] = [];
    if (needle === "") return found;
    const { text } = this;
    for (let p = text.indexOf(needle); p !== -1; p = text.indexOf(needle, p + 1)) found.push(p);
    return found;
  }

  /** The needle's occurrences from those of `key`, a substring of it. */
  private derive(needle: string, key: string): number[] {
    const k = needle.indexOf(key);
    const out: number[] = [];
    for (const h of this.memo.get(key) ?? []) {
      const p = h - k;
      if (p >= 0 && this.text.startsWith(needle, p)) out.push(p);
    }
    return out;
  }

  /** The known key inside `needle` with the fewest hits, if any. */
  private knownKey(needle: string): string | undefined {
    let best: string | undefined;
    for (const key of this.keys) {
      if (key.length >= needle.length || !needle.includes(key)) continue;
      if (best === undefined || (this.memo.get(key)?.length ?? 0) < (this.memo.get(best)?.length ?? 0)) best = key;
    }
    return best;
  }

  /**
   * The needle's occurrences through one of its whole lines (a part between
   * two of its line breaks: wherever the needle occurs, that part is a line
   * of the text), the line with the fewest places; undefined when the needle
   * holds no such line, the line index is not built, or every such line is
   * too common to pay.
   */
  private throughLines(needle: string): number[] | undefined {
    const { lines } = this;
    const first = needle.indexOf("\n");
    if (!lines || first === -1 || needle.indexOf("\n", first + 1) === -1) return undefined;
    // Built once this finder's own scans of such needles pay for it, as the line anchors' scans do.
    const index = lines.index(this.lineScans >= SCANS_BEFORE_INDEX);
    if (!index) {
      this.lineScans++;
      return undefined;
    }
    const rarest = rarestLine(index, needle, first);
    if (rarest === undefined || rarest.places.length > MAX_KEY_HITS) return undefined;
    const out: number[] = [];
    for (const i of rarest.places) {
      const p = lines.start(i) - rarest.at;
      if (p >= 0 && this.text.startsWith(needle, p)) out.push(p);
    }
    return out;
  }

  /** A word's occurrences from the word index, once word scans have cost about as much as building it. */
  private throughWords(needle: string): number[] | undefined {
    if (!isWord(needle)) return undefined;
    if (!this.words && ++this.wordScans > WORD_SCANS_BEFORE_INDEX) this.words = buildWordIndex(this.text);
    return this.words ? wordOccurrences(this.words, needle) : undefined;
  }

  /**
   * A needle that is not a word, through the identifier run in it (three
   * characters or more) with the fewest occurrences: every occurrence of the
   * needle holds that run at the same offset, and the index lists every
   * occurrence of the run as a scan would, so checking each in place gives
   * the scan's list. Its scans count towards building the index as word
   * scans do; undefined (a scan) before it is built, or when even the
   * rarest run is too common to pay.
   */
  private throughInnerWord(needle: string): number[] | undefined {
    if (isWord(needle)) return undefined;
    if (!this.words && ++this.wordScans > WORD_SCANS_BEFORE_INDEX) this.words = buildWordIndex(this.text);
    const words = this.words;
    if (!words) return undefined;
    let best: { at: number; run: string; count: number } | undefined;
    for (let s = 0; s < needle.length; ) {
      if (!isWord(needle[s] as string)) {
        s++;
        continue;
      }
      let e = s + 1;
      while (e < needle.length && isWord(needle[e] as string)) e++;
      if (e - s >= 3) {
        const run = needle.slice(s, e);
        const count = occurrenceCount(words, run);
        if (best === undefined || count < best.count) best = { at: s, run, count };
        if (count === 0) break;
      }
      s = e;
    }
    if (best === undefined || best.count > MAX_KEY_HITS) return undefined;
    const out: number[] = [];
    for (const h of wordOccurrences(words, best.run)) {
      const p = h - best.at;
      if (p >= 0 && this.text.startsWith(needle, p)) out.push(p);
    }
    return out;
  }

  private remember(needle: string, found: readonly number[]): readonly number[] {
    this.memo.set(needle, found);
    if (needle.length >= KEY_MIN && found.length <= MAX_KEY_HITS) {
      this.keys.push(needle);
      if (this.keys.length > MAX_KEYS) this.keys.shift();
    }
    return found;
  }
}

/**
 * Of the needle's whole lines (after its first line break, `first`), the one
 * with the fewest places in the text, and where it starts in the needle.
 * Any of them finds every place: a line with a few places is as good as the
 * rarest (each lookup costs).
 */
function rarestLine(index: LineIndex, needle: string, first: number): { places: readonly number[]; at: number } | undefined {
  let best: readonly number[] | undefined;
  let bestAt = 0;
  // A line the needle repeats is looked up once: a hunk of 1,370 `}` lines on a file of 133k of them listed
  // the 133k places for each (25 s of CPU in the server, whose kept document answers through its line hashes).
  const seen = new Set<string>();
  for (let s = first + 1, e = needle.indexOf("\n", s); e !== -1 && !(best && best.length <= FEW_LINES); s = e + 1, e = needle.indexOf("\n", s)) {
    const key = trimBlank(needle.slice(s, e));
    // A blank line is not indexed.
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    // Each place is checked by the caller: lines that may hold the key are enough.
    const found = index.maybe ? index.maybe(key) : (index.get(key) ?? []);
    if (best === undefined || found.length < best.length) {
      best = found;
      bestAt = s;
    }
  }
  return best === undefined ? undefined : { places: best, at: bestAt };
}
