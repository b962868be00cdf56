/**
 * A replacement written as one line with its line breaks escaped: the find
 * text of a two-string edit came as the file has it, the replacement encoded
 * once more (`def f():\n    \"\"\"Doc.\"\"\"`). Taken literally it joins
 * the lines into one and writes `\n` and `\"` into the code.
 *
 * A literal `\n` is read as a line break only with the evidence a careful
 * human has: un-escaped, no break falls inside a one-line string or a
 * regular expression (where `\n` is the code's own: `split("\n")`,
 * `/\r?\n/`), and some break sits between whole lines of code — a line of
 * the find text before or after it, or an indented line after it.
 */
import { unescapeModelText } from "./normalize.ts";

/** The un-escaped replacement when its literal `\n` are line breaks, else undefined. */
export function escapedReplacement(replacement: string, findLines: readonly string[]): string | undefined {
  if (replacement.includes("\n") || !replacement.includes("\\n")) return undefined;
  const text = unescapeModelText(replacement);
  const lines = text.split("\n");
  if (lines.length < 2 || !breaksOutsideLiterals(text)) return undefined;
  const known = new Set(findLines.map((l) => l.trim()).filter((t) => t !== ""));
  const isKnown = (line: string) => known.has(line.trim());
  const indented = (line: string) => line.startsWith("\t") || line.startsWith("  ");
  for (let k = 1; k < lines.length; k++) {
    const before = lines[k - 1] as string;
    const after = lines[k] as string;
    if (isKnown(before) || (after.trim() !== "" && (isKnown(after) || indented(after)))) return text;
  }
  return undefined;
}

/** Characters after which a `/` starts a regular expression, not a division. */
const REGEX_BEFORE = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "%", "~", "^"]);

/**
 * Whether no line break of `text` falls inside a one-line string literal
 * or a regular expression. A small lexer, one pass: quotes `"`, `'`, `` ` ``
 * and Python's triple quotes (the last two may span lines, as block
 * comments do; a template's `${ … }` is code again), backslash escapes
 * inside them, comments (`//`, `#`, `/* *\/`:
 * their quotes open nothing), and a `/` that starts a regular expression
 * where an operand is expected. An apostrophe after a letter (`don't`,
 * `tryin'`) is prose, not a quote, unless the letters are a string prefix
 * (`f'`, `rb'`).
 */
export function breaksOutsideLiterals(text: string): boolean {
  const s: Scan = { text, i: 0, depth: 0, substitutions: [] };
  while (s.i < text.length) {
    const verdict = step(s);
    if (verdict !== undefined) return verdict;
  }
  return true;
}

/** The lexer's state: the position, the `{` depth, and the depths at which template substitutions (`${`) opened. */
interface Scan {
  text: string;
  i: number;
  depth: number;
  substitutions: number[];
}

/** What a step found: the scan ends true (the text ended inside a literal whose breaks were checked), false (a break inside a one-line literal), or goes on (undefined). */
type Verdict = boolean | undefined;

/** One token from `s.i`: a literal, a comment, a brace, or one character of code. */
function step(s: Scan): Verdict {
  const c = s.text[s.i] as string;
  if (c === "`") {
    s.i++;
    return templateText(s) ? true : undefined;
  }
  if (c === "{" || c === "}") return brace(s, c);
  if (c === '"' || c === "'") return quoted(s, c);
  if (c === "*" && previous(s.text, s.i) === "") {
    // A line inside a block comment whose opener is above the edit (` * Returns the user's name`).
    const close = s.text.indexOf("*/", s.i + 1);
    const end = s.text.indexOf("\n", s.i);
    s.i = close !== -1 && (end === -1 || close < end) ? close + 2 : end === -1 ? s.text.length : end + 1;
    return undefined;
  }
  if ((c === "/" && s.text[s.i + 1] === "/") || (c === "#" && (s.i === 0 || /\s/.test(s.text[s.i - 1] as string)))) return skipPast(s, "\n", s.i);
  // A block comment may span lines (a doc comment over-escaped whole).
  if (c === "/" && s.text[s.i + 1] === "*") return skipPast(s, "*/", s.i + 2);
  if (c === "/" && REGEX_BEFORE.has(previous(s.text, s.i))) return regex(s);
  s.i++;
  return undefined;
}

/** The last non-blank character before `at` on its line ("" at a line start). */
function previous(text: string, at: number): string {
  for (let p = at - 1; p >= 0; p--) {
    const c = text[p] as string;
    if (c === "\n") return "";
    if (c !== " " && c !== "\t") return c;
  }
  return "";
}

/** A comment: past its closing `close` (searched from `from`); the text ending inside it ends the scan. */
function skipPast(s: Scan, close: string, from: number): Verdict {
  const end = s.text.indexOf(close, from);
  if (end === -1) return true;
  s.i = end + close.length;
  return undefined;
}

/** Scans a template's text from `s.i` to its closing backtick or its next `${`; true when the text ends inside it. */
function templateText(s: Scan): boolean {
  const { text } = s;
  for (;;) {
    if (s.i >= text.length) return true;
    const d = text[s.i] as string;
    if (d === "\\") s.i += 2;
    else if (d === "`") {
      s.i++;
      return false;
    } else if (d === "$" && text[s.i + 1] === "{") {
      s.i += 2;
      s.substitutions.push(s.depth);
      s.depth++;
      return false;
    } else s.i++;
  }
}

/** A brace of code; the one closing a template's `${ … }` goes back to the template's text. */
function brace(s: Scan, c: "{" | "}"): Verdict {
  s.i++;
  s.depth += c === "{" ? 1 : -1;
  if (c === "}" && s.substitutions.length > 0 && s.depth === s.substitutions[s.substitutions.length - 1]) {
    s.substitutions.pop();
    if (templateText(s)) return true;
  }
  return undefined;
}

/** A quoted string (triple quotes may span lines); an apostrophe inside a word is prose. */
function quoted(s: Scan, c: '"' | "'"): Verdict {
  const { text } = s;
  if (c === "'" && /[A-Za-z0-9_$]/.test(text[s.i - 1] ?? "") && !afterStringPrefix(text, s.i)) {
    s.i++;
    return undefined;
  }
  const triple = text.startsWith(c.repeat(3), s.i);
  const close = triple ? c.repeat(3) : c;
  s.i += close.length;
  for (;;) {
    if (s.i >= text.length) return true; // unterminated: the rest of the text is the literal's; its breaks were checked as they came
    const d = text[s.i] as string;
    if (d === "\\") s.i += 2;
    else if (d === "\n" && !triple) return false;
    else if (text.startsWith(close, s.i)) {
      s.i += close.length;
      return undefined;
    } else s.i++;
  }
}

/** A regular expression literal: to the next unescaped `/` outside a class, on this line. */
function regex(s: Scan): Verdict {
  const { text } = s;
  let inClass = false;
  for (s.i++; s.i < text.length; s.i++) {
    const d = text[s.i] as string;
    if (d === "\n") return false;
    if (d === "\\") s.i++;
    else if (d === "[") inClass = true;
    else if (d === "]") inClass = false;
    else if (d === "/" && !inClass) break;
  }
  s.i++;
  return undefined;
}

/** Whether the word before `at` is a Python string prefix (`f`, `r`, `b`, `u`, `rb`, `fr`, ...). */
function afterStringPrefix(text: string, at: number): boolean {
  let p = at;
  while (p > 0 && /[A-Za-z0-9_$]/.test(text[p - 1] as string)) p--;
  return /^(?:[rbfu]|rb|br|fr|rf)$/i.test(text.slice(p, at));
}
