/**
 * Line tags for anchored edits: a short hash of a line's content that the
 * read view prints beside its number (`12#qxm:    return x;`) and that an
 * edit cites instead of copying the line. The number says where the line
 * was; the tag says which line it was, so a line that moved can be found
 * again and a line that changed is told apart from one that did not.
 *
 * The alphabet and length were chosen by measurement (bench/anchor-tags.ts,
 * docs/anchored-edits.md, o200k tokens on 41,736 lines of real files):
 * three lower-case letters cost 2.66 tokens a line over the plain `N→`
 * view, fewer than the two capitals of a 16-letter alphabet (2.08 for 256
 * tags, 2.96 for three), and only 0.30% of lines have another line with the
 * same tag and other content within 32 lines (18% with 256 tags, 1.1% with
 * 4,096). Lower-case pairs and triples are common tokens; capitals split.
 * Tags are compared without case: a model that writes `12#QXM` means `qxm`.
 */

/** 26 lower-case letters: 17,576 tags of three letters. */
export const TAG_ALPHABET = "abcdefghijklmnopqrstuvwxyz";
/** Letters per tag. */
export const TAG_LENGTH = 3;

/**
 * The hashed form of a line: without its line break and trailing
 * whitespace, which the view does not show and editors change on save.
 * Leading whitespace counts: re-indented code is a changed line.
 */
export function tagText(line: string): string {
  let end = line.length;
  while (end > 0) {
    const c = line.charCodeAt(end - 1);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    end--;
  }
  return end === line.length ? line : line.slice(0, end);
}

/** FNV-1a over UTF-16 code units, then a murmur3 finaliser so that every output bit depends on every input bit. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The tag of a line, in `alphabet` with `length` letters (the defaults are the view's). */
export function lineTag(line: string, alphabet: string = TAG_ALPHABET, length: number = TAG_LENGTH): string {
  let h = hash32(tagText(line));
  let out = "";
  for (let k = 0; k < length; k++) {
    out += alphabet[h % alphabet.length];
    h = Math.floor(h / alphabet.length);
  }
  return out;
}

/** One line of the anchored view: `N#TAG:content`. */
export function taggedLine(lineNumber: number, line: string): string {
  return `${lineNumber}#${lineTag(line)}:${line}`;
}
