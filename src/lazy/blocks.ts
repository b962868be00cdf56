/**
 * Blocks without a syntax tree: a line opens a block when the next non-blank
 * line is indented deeper; the block runs to the first non-blank line at the
 * opener's depth or shallower that does not continue it (`} else {`,
 * `) -> int:`, `elif`, `except`). A closing line (`}`, `});`, `end`) there is
 * the block's last line; any other line (Python's next statement) is not.
 */

/** Width of a line's indentation, a tab counting 4 (only compared within one text). */
export function indentWidth(line: string): number {
  let w = 0;
  for (const ch of line) {
    if (ch === " ") w++;
    else if (ch === "\t") w += 4;
    else break;
  }
  return w;
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

const CONTINUES = /^(?:[)\]}].*(?:[{:([]|=>)\s*$|(?:else|elif|except|finally|catch|rescue|ensure|when)\b)/;
const CLOSES = /^(?:[)\]}]|end\b|fi\b|done\b|esac\b|<\/)/;

export interface Block {
  /** The opener's 0-based line. */
  open: number;
  /** End of the body: the closing line when there is one, else the line after the last non-blank body line. */
  bodyEnd: number;
  /** 0-based line of the closing line (`}`), or undefined (an indented block, Python). */
  close?: number;
  /** One past the block's last line. */
  end: number;
}

/** The block a line opens, or undefined when the next non-blank line is not deeper. */
export function blockAt(lines: readonly string[], open: number): Block | undefined {
  const depth = indentWidth(lines[open] as string);
  let k = open + 1;
  while (k < lines.length && isBlank(lines[k] as string)) k++;
  if (k >= lines.length || indentWidth(lines[k] as string) <= depth) return undefined;
  let lastBody = k;
  for (; k < lines.length; k++) {
    const line = lines[k] as string;
    if (isBlank(line)) continue;
    if (indentWidth(line) > depth) {
      lastBody = k;
      continue;
    }
    const t = line.trim();
    if (CONTINUES.test(t)) {
      lastBody = k;
      continue;
    }
    if (CLOSES.test(t)) return { open, bodyEnd: k, close: k, end: k + 1 };
    break;
  }
  return { open, bodyEnd: lastBody + 1, end: lastBody + 1 };
}
