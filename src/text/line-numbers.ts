/**
 * Line-number prefixes that models paste in from a numbered file view.
 *
 * Forms recognised (each seen in agent transcripts):
 * - `12 | code`   numbered views of SEARCH/REPLACE tools (`N | `)
 * - `  12→code`   `cat -n`-like views with an arrow
 * - `12:\tcode`, `12\tcode`   grep -n / cat -n output
 * - `12#qxm:code`, `12#QXRW|code`   the anchored view (line tags, src/text/line-tags.ts) and its dialects
 *
 * A prefix is only stripped when *every* non-blank line carries one: a single
 * numbered-looking line (`1 | 2` in a truth table) is real content.
 */

// Anchored, no nested quantifiers: linear on any input. Only spaces may pad
// the number before `|`: a tab there is the separator, and the tabs after it
// are the code's own indentation (`8\t\tdim` is `\tdim` on line 8).
const STANDARD = /^[ \t]*\d+(?: *\||→|:\t|\t|#[A-Za-z0-9]{1,16}[:|])/;
// The aggressive pass also takes `12: ` and `12 ` forms, used only as a second try.
const AGGRESSIVE = /^[ \t]*\d+(?: *(?:\||→|:)|\t| |#[A-Za-z0-9]{1,16}[:|])/;
// A numbered blank line whose separator was trimmed away with the trailing
// whitespace (`11\t` became `11`); it counts as numbered among numbered lines.
const BARE_NUMBER = /^[ \t]*\d+[ \t]*$/;
/** The number a numbered line starts with. */
const LEADING_NUMBER = /^[ \t]*(\d+)/;

function prefixPattern(aggressive: boolean): RegExp {
  return aggressive ? AGGRESSIVE : STANDARD;
}

/** True when every non-blank line of `text` starts with a line-number prefix. */
export function everyLineHasLineNumbers(text: string, aggressive = false): boolean {
  const pattern = prefixPattern(aggressive);
  let seen = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (!pattern.test(line) && !BARE_NUMBER.test(line)) return false;
    seen++;
  }
  return seen > 0;
}

/**
 * Removes one line-number prefix from each line, plus the single separator
 * space after `|` if present (the `N | code` view adds it; the code's own
 * indentation follows it). The arrow form has no separator space: what
 * follows `→` is the line exactly.
 */
export function stripLineNumbers(text: string, aggressive = false): string {
  const pattern = prefixPattern(aggressive);
  return text
    .split("\n")
    .map((line) => {
      const m = pattern.exec(line);
      // Numbered with its separator lost (`11`): a blank line. With the separator, what follows is the line's own (`39\t    `).
      if (!m) return BARE_NUMBER.test(line) ? "" : line;
      let rest = line.slice(m[0].length);
      const sep = m[0].trimEnd().slice(-1);
      // A tag's separator is followed by the line exactly (`12#QXRW|  x`): no space of its own.
      if (sep === "|" && rest.startsWith(" ") && !m[0].includes("#")) rest = rest.slice(1);
      return rest;
    })
    .join("\n");
}

/**
 * The number of the first line when every line of `text` carries a
 * standard prefix and they count up by one, line by line (blank lines
 * included, numbered or not): the lines of a numbered view. Else undefined.
 */
export function consecutiveNumbersFrom(text: string): number | undefined {
  if (!everyLineHasLineNumbers(text)) return undefined;
  let first: number | undefined;
  let withCode = false;
  const lines = text.split("\n");
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as string;
    const m = LEADING_NUMBER.exec(line);
    if (!m) continue; // a blank line left unnumbered
    const n = Number.parseInt(m[1] as string, 10);
    first ??= n - k;
    if (n !== first + k) return undefined;
    withCode ||= !BARE_NUMBER.test(line);
  }
  // Numbers alone ("2\n3") are the text, not a view's prefixes.
  return withCode ? first : undefined;
}

/** The number on the first numbered line, used as a line hint. */
export function firstLineNumber(text: string): number | undefined {
  for (const line of text.split("\n")) {
    const m = LEADING_NUMBER.exec(line);
    if (m?.[1]) return Number.parseInt(m[1], 10);
  }
  return undefined;
}
