/**
 * Bracket balance outside comments and strings, as a text-only stand-in for
 * "the merge introduces syntax errors the file did not have": a merge that
 * keeps a `{` whose `}` a marker was meant to keep (or the reverse) changes
 * the balance; a correct merge keeps it, since it changes only what the
 * snippet changes and models write balanced code. Compared before and after,
 * so brackets the scanner misreads (a regex literal, a heredoc) cancel out.
 */

const PROSE = /\.(?:md|markdown|mdx|txt|rst|adoc|org|ya?ml|toml|ini|cfg|csv|tsv|log|tex)$/i;

/** Whether bracket balance means anything for this file (not prose or configuration). */
export function checksBalance(path: string | undefined, language: string | undefined): boolean {
  if (language !== undefined) return !/^(?:markdown|md|text|plaintext|yaml|toml|ini|rst)$/i.test(language);
  return path === undefined || !PROSE.test(path);
}

/** Net count of `(`, `[`, `{` minus their closers, outside comments and strings. */
export function bracketBalance(text: string, hashComments: boolean): [number, number, number] {
  const net: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < text.length; ) k = scanToken(text, k, hashComments, net);
  return net;
}

/**
 * One token of the scan from `k` (a comment, a string, or one character),
 * its brackets counted into `net`; returns where the next token starts (past
 * the text's end for a string cut off by it). A token reads only its own
 * characters and, for `/` and `'`, the rest of its line: so a scan's steps
 * depend on the text from `k` on, and on the text before `k` only through
 * where the steps before landed (balanceChange relies on both).
 */
function scanToken(text: string, k: number, hashComments: boolean, net: [number, number, number]): number {
  const n = text.length;
  const ch = text.charCodeAt(k);
  const next = text.charCodeAt(k + 1);
  if ((ch === SLASH && next === SLASH) || (ch === HASH && hashComments)) {
    const e = text.indexOf("\n", k);
    return e === -1 ? n : e;
  }
  if (ch === SLASH && next === STAR) {
    const e = text.indexOf("*/", k + 2);
    return e === -1 ? n : e + 2;
  }
  if (ch === DOUBLE || ch === BACKTICK || (ch === SINGLE && isCharLiteral(text, k))) {
    // A string ends at its quote or (except template literals) at the line's end: an unclosed one must not swallow the file.
    let e = k + 1;
    while (e < n) {
      const c = text.charCodeAt(e);
      if (c === ch || (c === NEWLINE && ch !== BACKTICK)) break;
      e += c === BACKSLASH ? 2 : 1;
    }
    return e + 1;
  }
  if (ch === 40) net[0]++;
  else if (ch === 91) net[1]++;
  else if (ch === 123) net[2]++;
  else if (ch === 41) net[0]--;
  else if (ch === 93) net[1]--;
  else if (ch === 125) net[2]--;
  return k + 1;
}

const [SLASH, HASH, STAR, DOUBLE, SINGLE, BACKTICK, BACKSLASH, NEWLINE] = [47, 35, 42, 34, 39, 96, 92, 10];

// A quoted run of at most 200 characters or escapes on one line: a string in single quotes, not an
// apostrophe (`don't`, Rust's `'a`). Sticky, on the text itself: a slice per quote cost allocations.
const CHAR_LITERAL = /'(?:\\.|[^'\\\n]){0,200}'/y;

/** Whether a quoted string opens at `k`, closing within 210 characters. */
function isCharLiteral(text: string, k: number): boolean {
  CHAR_LITERAL.lastIndex = k;
  // The run's characters and escapes leave one way to read it, so this is its only match; it must fit
  // the 210 characters the check has always looked at.
  return CHAR_LITERAL.test(text) && CHAR_LITERAL.lastIndex - k <= 210;
}

/** `/`, `#`, `"`, `'`, backtick: the characters a comment or string may start with. */
function opensLongToken(c: number): boolean {
  return c === SLASH || c === HASH || c === DOUBLE || c === SINGLE || c === BACKTICK;
}

/**
 * Where the scan of `a` stands last at or before `start` (a line's start):
 * the scan of any text equal to `a` before `start` stands there too, with
 * the same count. Only characters that may open a comment or string are
 * looked at one by one; between them every character is a token of its own.
 */
export function restartPoint(a: string, start: number, hashComments: boolean): number {
  const scratch: [number, number, number] = [0, 0, 0];
  let from = 0;
  while (from < start) {
    let open = from;
    while (open < start && !opensLongToken(a.charCodeAt(open))) open++;
    if (open >= start) return start;
    const next = scanToken(a, open, hashComments, scratch);
    // A token that runs past `start`, or to the text's end (an unclosed comment), may run on in the other text.
    if (next > start || next >= a.length) return open;
    from = next;
  }
  return from;
}

export interface BalanceChange {
  /** bracketBalance(b) - bracketBalance(a). */
  change: [number, number, number];
  /** How far from their ends both scans met (0: one reached its end first). */
  metAt: number;
}

/**
 * bracketBalance(b) - bracketBalance(a) for two texts that are equal before
 * `start` (a line's start) and equal after `endA` in `a` and `endB` in `b`,
 * scanning little more than what differs: both scans pass through
 * restartPoint, and once both stand in the common tail at the same distance
 * from their ends, the rest counts the same in both (a scan reads forward
 * only). A 100k-line file's two whole scans took 0.1 s.
 */
export function balanceChange(a: string, b: string, start: number, endA: number, endB: number, hashComments: boolean): BalanceChange {
  const from = restartPoint(a, start, hashComments);
  return balanceFrom(a, b, from, endA, endB, hashComments);
}

/** balanceChange from a restart point both texts share (texts may begin there). */
export function balanceFrom(a: string, b: string, from: number, endA: number, endB: number, hashComments: boolean): BalanceChange {
  const netA: [number, number, number] = [0, 0, 0];
  const netB: [number, number, number] = [0, 0, 0];
  let ka = from;
  let kb = from;
  while (ka < endA) ka = scanToken(a, ka, hashComments, netA);
  while (kb < endB) kb = scanToken(b, kb, hashComments, netB);
  for (;;) {
    const da = Math.max(0, a.length - ka);
    const db = Math.max(0, b.length - kb);
    if (da === db) return { change: [netB[0] - netA[0], netB[1] - netA[1], netB[2] - netA[2]], metAt: da };
    if (da > db) ka = scanToken(a, ka, hashComments, netA);
    else kb = scanToken(b, kb, hashComments, netB);
  }
}

/** Whether a path's language comments with `#` (so `#` starts no string or bracket). */
export function hashCommented(path: string | undefined, language: string | undefined): boolean {
  const l = (language ?? "").toLowerCase();
  if (/^(?:python|py|ruby|rb|shell|sh|bash|perl|r|elixir|toml|yaml)$/.test(l)) return true;
  return path !== undefined && /\.(?:py|pyi|rb|sh|bash|zsh|pl|r|ex|exs|cmake|mk|nim|cr)$|(?:^|\/)(?:Makefile|Dockerfile)$/i.test(path);
}
