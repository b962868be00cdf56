/**
 * Text normalisers shared by the strategies. Each one erases one kind of
 * difference that models introduce when they copy text; strategies compare
 * the normalised forms and always report ranges of the original text.
 */

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

/** Runs of whitespace become one space; ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Every whitespace character removed: `foo( a, b )` and `foo(a,b)` compare equal. */
export function removeWhitespace(text: string): string {
  return text.replace(/\s+/g, "");
}

/** Leading spaces and tabs of a line. */
export function leadingWhitespace(line: string): string {
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    i++;
  }
  return line.slice(0, i);
}

/**
 * A line without its leading spaces and tabs. Not `trimStart()`: that also
 * strips U+3000, U+00A0, U+2003, U+2028 and U+FEFF, which are text (a
 * diff's `+\u3000b` line lost its ideographic space, issue 22).
 */
export function withoutIndent(line: string): string {
  return line.slice(leadingWhitespace(line).length);
}

// Unicode punctuation that models substitute for ASCII (or the reverse, when
// the file has them). Mapped to the ASCII a programmer would type.
const PUNCTUATION: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2033": '"',
  "\u00AB": '"',
  "\u00BB": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u00A0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2007": " ",
  "\u2009": " ",
  "\u200A": " ",
  "\u202F": " ",
  "\u3000": " ",
  "\u2026": "...",
  "\u200B": "",
  "\uFEFF": "",
};
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join("")}]`, "g");

/** Smart quotes, dashes, exotic spaces and the ellipsis turned into ASCII. */
export function normalizePunctuation(text: string): string {
  return text.replace(PUNCTUATION_PATTERN, (c) => PUNCTUATION[c] ?? c);
}

/**
 * A line with no whitespace, typeset punctuation as ASCII and runs of
 * hyphens as one: `removeWhitespace(normalizePunctuation(line))` with
 * `/-+/g` replaced by "-". An ASCII line is read by character code (the
 * regular expressions cost ~3x over the 28k lines of a 1 MB file).
 */
export function coarseKey(line: string): string {
  let out = "";
  let from = 0;
  let lastHyphen = false;
  for (let p = 0; p < line.length; p++) {
    const c = line.charCodeAt(p);
    if (c >= 128) return removeWhitespace(normalizePunctuation(line)).replace(/-+/g, "-");
    // Whitespace (tab, line break, vertical tab, form feed, carriage return, space), or a hyphen after a hyphen.
    const dropped = c === 32 || (c >= 9 && c <= 13) || (c === 45 && lastHyphen);
    if (c === 45) lastHyphen = true;
    else if (!dropped) lastHyphen = false;
    if (dropped) {
      out += line.slice(from, p);
      from = p + 1;
    }
  }
  return from === 0 ? line : out + line.slice(from);
}

/**
 * punctuation-normalized's key of a line: `collapseWhitespace(normalizePunctuation(line))`
 * with runs of hyphens as one. An ASCII line is read by character code and
 * returned as it is when nothing changes (the usual line: single spaces, no
 * `--`): the three regular expressions made ~7 % of the bytes a batch of the
 * real edits allocates, on every line of every window that strategy reads.
 */
export function punctuationKey(line: string): string {
  let out = "";
  let from = 0;
  let run = -1;
  let seen = false;
  let lastHyphen = false;
  for (let p = 0; p < line.length; p++) {
    const c = line.charCodeAt(p);
    if (c >= 128) return collapseWhitespace(normalizePunctuation(line)).replace(/-+/g, "-");
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (run < 0) run = p;
      continue;
    }
    if (run >= 0) {
      // A run of whitespace before this character: one space, none at the start.
      if (!(seen && run === p - 1 && line.charCodeAt(run) === 32)) {
        out += line.slice(from, run) + (seen ? " " : "");
        from = p;
      }
      run = -1;
      lastHyphen = false;
    }
    seen = true;
    if (c === 45 && lastHyphen) {
      out += line.slice(from, p);
      from = p + 1;
    }
    lastHyphen = c === 45;
  }
  // Whitespace at the end is dropped.
  if (run >= 0) return out + line.slice(from, run);
  return from === 0 ? line : out + line.slice(from);
}

export function hasUnicodePunctuation(text: string): boolean {
  PUNCTUATION_PATTERN.lastIndex = 0;
  const found = PUNCTUATION_PATTERN.test(text);
  PUNCTUATION_PATTERN.lastIndex = 0;
  return found;
}

/**
 * Interprets the escapes a model writes when it over-escapes: `\n`, `\t`,
 * `\r`, `\'`, `\"`, `` \` ``, `\\`, `\$` and a backslash before a real line
 * break. Anything else is left alone.
 */
export function unescapeModelText(text: string): string {
  return text.replace(/\\(n|t|r|'|"|`|\\|\n|\$)/g, (_m, c: string) => {
    switch (c) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      default:
        return c;
    }
  });
}

/** The longest run of identifier characters: a cheap, selective anchor that whitespace and punctuation changes do not break. */
export function longestWord(lines: readonly string[]): string {
  let best = "";
  for (const line of lines) {
    for (const m of line.matchAll(/[A-Za-z0-9_$]+/g)) {
      if (m[0].length > best.length) best = m[0];
    }
  }
  return best;
}
