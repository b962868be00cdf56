/**
 * An index of a text's identifier runs, answering where a word (a needle of
 * identifier characters only) occurs as a substring, exactly as an
 * `indexOf` scan of the text would. Such a needle never spans a character
 * outside `[A-Za-z0-9_$]`, so each of its occurrences lies inside one run
 * (a token): finding the distinct tokens that hold the word, and at which
 * offsets, gives every occurrence through each token's places in the text.
 *
 * Hunks anchored on a rare word each (2,000 fuzzy hunks on a 1 MB file)
 * scanned the file once per hunk, half of their time. Searching the
 * distinct tokens written out once each was only 2-3 times faster there
 * (`v12000` among `v0`…`v27999`: 0.2-0.45 ms a word), so a word of three
 * characters or more is looked up by its rarest trigram: the tokens holding
 * it are the few to check. Shorter words search the written-out tokens.
 * Building it costs some tens of scans; the caller builds it once enough
 * word scans have been spent.
 */

import { lastAtMost } from "../arrays.ts";

/** An identifier character's code, 1-63; 0 for any other character. */
function wordCode(c: number): number {
  if (c >= 97 && c <= 122) return c - 96; // a-z: 1-26
  if (c >= 65 && c <= 90) return c - 38; // A-Z: 27-52
  if (c >= 48 && c <= 57) return c + 5; // 0-9: 53-62
  return c === 95 || c === 36 ? 63 : 0; // _ and $ share a code: a trigram narrows the tokens, the check is exact
}

/** Whether `needle` is non-empty and every character of it an identifier character: the needles the index answers. */
export function isWord(needle: string): boolean {
  if (needle === "") return false;
  for (let k = 0; k < needle.length; k++) if (wordCode(needle.charCodeAt(k)) === 0) return false;
  return true;
}

const GRAMS = 1 << 18;
const gramAt = (s: string, k: number) => (wordCode(s.charCodeAt(k)) << 12) | (wordCode(s.charCodeAt(k + 1)) << 6) | wordCode(s.charCodeAt(k + 2));

export interface WordIndex {
  /** The distinct tokens, in order of first appearance. */
  readonly tokens: readonly string[];
  /** Each token's start offsets in the text, ascending: those of token t are `places[placeStart[t] .. placeStart[t + 1])`. */
  readonly placeStart: Int32Array;
  readonly places: Int32Array;
  /** Token ids holding each trigram, ascending: those of trigram g are `gramTokens[gramStart[g] .. gramStart[g + 1])`. */
  readonly gramStart: Int32Array;
  readonly gramTokens: Int32Array;
  /** The tokens written out, each followed by a space (a character no word holds), and where each starts: for words of one or two characters. */
  readonly dictionary: string;
  readonly entryStarts: Int32Array;
}

/** Which distinct token each run of identifier characters is and where it starts, in text order (arrays grown by doubling). */
interface Runs {
  ids: Int32Array;
  starts: Int32Array;
  count: number;
}

/** The tokens of `text`: each distinct one once (in `tokens`), and the runs in text order. */
function readTokens(text: string, tokens: string[]): Runs {
  const seen = new Map<string, number>();
  let ids = new Int32Array(1024);
  let starts = new Int32Array(1024);
  let count = 0;
  const n = text.length;
  for (let p = 0; p < n; ) {
    if (wordCode(text.charCodeAt(p)) === 0) {
      p++;
      continue;
    }
    const s = p;
    while (p < n && wordCode(text.charCodeAt(p)) !== 0) p++;
    const token = text.slice(s, p);
    let id = seen.get(token);
    if (id === undefined) {
      id = tokens.length;
      seen.set(token, id);
      tokens.push(token);
    }
    if (count === ids.length) {
      const moreIds = new Int32Array(count * 2);
      moreIds.set(ids);
      ids = moreIds;
      const moreStarts = new Int32Array(count * 2);
      moreStarts.set(starts);
      starts = moreStarts;
    }
    ids[count] = id;
    starts[count] = s;
    count++;
  }
  return { ids, starts, count };
}

// Flat arrays, not an array of places per token: building the index cold took 90 ms for 1 MB of short code lines, 53 ms so.
export function buildWordIndex(text: string): WordIndex {
  const tokens: string[] = [];
  const runs = readTokens(text, tokens);
  // Places grouped by token (counting sort: each token's places stay in text order).
  const placeStart = new Int32Array(tokens.length + 1);
  for (let k = 0; k < runs.count; k++) {
    const t = runs.ids[k] as number;
    placeStart[t + 1] = (placeStart[t + 1] as number) + 1;
  }
  for (let t = 0; t < tokens.length; t++) placeStart[t + 1] = (placeStart[t + 1] as number) + (placeStart[t] as number);
  const places = new Int32Array(runs.count);
  const next = placeStart.slice(0, tokens.length);
  for (let k = 0; k < runs.count; k++) {
    const t = runs.ids[k] as number;
    const at = next[t] as number;
    places[at] = runs.starts[k] as number;
    next[t] = at + 1;
  }
  // Trigram -> tokens in two passes over the tokens (count, then fill), each trigram listed once per token.
  const gramStart = new Int32Array(GRAMS + 1);
  const lastToken = new Int32Array(GRAMS).fill(-1);
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as string;
    for (let k = 0; k + 3 <= token.length; k++) {
      const g = gramAt(token, k);
      if (lastToken[g] === t) continue;
      lastToken[g] = t;
      gramStart[g + 1] = (gramStart[g + 1] as number) + 1;
    }
  }
  for (let g = 0; g < GRAMS; g++) gramStart[g + 1] = (gramStart[g + 1] as number) + (gramStart[g] as number);
  const gramTokens = new Int32Array(gramStart[GRAMS] as number);
  const fill = gramStart.slice(0, GRAMS);
  lastToken.fill(-1);
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as string;
    for (let k = 0; k + 3 <= token.length; k++) {
      const g = gramAt(token, k);
      if (lastToken[g] === t) continue;
      lastToken[g] = t;
      const at = fill[g] as number;
      gramTokens[at] = t;
      fill[g] = at + 1;
    }
  }
  const entryStarts = new Int32Array(tokens.length);
  let at = 0;
  for (let t = 0; t < tokens.length; t++) {
    entryStarts[t] = at;
    at += (tokens[t] as string).length + 1;
  }
  const dictionary = tokens.length === 0 ? "" : `${tokens.join(" ")} `;
  return { tokens, placeStart, places, gramStart, gramTokens, dictionary, entryStarts };
}

/** The token whose entry in the dictionary holds offset `d` (the last entry starting at or before it). */
function entryAt(index: WordIndex, d: number): number {
  // The first entry starts at 0: some entry starts at or before any offset.
  return Math.max(0, lastAtMost(index.entryStarts, d));
}

/** (token, offset of the word in it) for every place the word holds in a distinct token. */
function tokenHits(index: WordIndex, word: string): { token: number; offset: number }[] {
  const hits: { token: number; offset: number }[] = [];
  if (word.length < 3) {
    const { dictionary } = index;
    for (let d = dictionary.indexOf(word); d !== -1; d = dictionary.indexOf(word, d + 1)) {
      const token = entryAt(index, d);
      hits.push({ token, offset: d - (index.entryStarts[token] as number) });
    }
    return hits;
  }
  // The word's rarest trigram: every token holding the word holds it.
  let from = 0;
  let to = Number.POSITIVE_INFINITY;
  for (let k = 0; k + 3 <= word.length && to > from; k++) {
    const g = gramAt(word, k);
    const a = index.gramStart[g] as number;
    const b = index.gramStart[g + 1] as number;
    if (b - a < to - from) {
      from = a;
      to = b;
    }
  }
  for (let j = from; j < to; j++) {
    const token = index.gramTokens[j] as number;
    const text = index.tokens[token] as string;
    for (let o = text.indexOf(word); o !== -1; o = text.indexOf(word, o + 1)) hits.push({ token, offset: o });
  }
  return hits;
}

/** How many occurrences `word` (see `isWord`) has in the indexed text, without listing them. */
export function occurrenceCount(index: WordIndex, word: string): number {
  let total = 0;
  for (const h of tokenHits(index, word)) total += (index.placeStart[h.token + 1] as number) - (index.placeStart[h.token] as number);
  return total;
}

/** Every occurrence of `word` (see `isWord`) in the indexed text, ascending: what an `indexOf` scan finds. */
export function wordOccurrences(index: WordIndex, word: string): number[] {
  const hits = tokenHits(index, word);
  const { placeStart, places } = index;
  let total = 0;
  for (const h of hits) total += (placeStart[h.token + 1] as number) - (placeStart[h.token] as number);
  const out: number[] = new Array(total);
  let k = 0;
  for (const { token, offset } of hits) {
    const to = placeStart[token + 1] as number;
    for (let j = placeStart[token] as number; j < to; j++) out[k++] = (places[j] as number) + offset;
  }
  // Several tokens (or one holding the word twice) interleave; one token's places are already in order.
  if (hits.length > 1) {
    const sorted = Float64Array.from(out).sort();
    for (let j = 0; j < total; j++) out[j] = sorted[j] as number;
  }
  return out;
}
