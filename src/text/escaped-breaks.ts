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
  let i = 0;
  const n = text.length;
  const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$]/.test(c);
  /** The last non-blank character before `at` on its line ("" at a line start). */
  const previous = (at: number): string => {
    for (let p = at - 1; p >= 0; p--) {
      const c = text[p] as string;
      if (c === "\n") return "";
      if (c !== " " && c !== "\t") return c;
    }
    return "";
  };
  // Template literals: their `${ … }` substitutions are code again, and may hold templates in turn.
  let depth = 0;
  const substitutions: number[] = [];
  /** Scans a template's text from `i` to its closing backtick or its next `${`; true when the text ends inside it. */
  const templateText = (): boolean => {
    for (;;) {
      if (i >= n) return true;
      const d = text[i] as string;
      if (d === "\\") i += 2;
      else if (d === "`") {
        i++;
        return false;
      } else if (d === "$" && text[i + 1] === "{") {
        i += 2;
        substitutions.push(depth);
        depth++;
        return false;
      } else i++;
    }
  };
  while (i < n) {
    const c = text[i] as string;
    if (c === "`") {
      i++;
      if (templateText()) return true;
      continue;
    }
    if (c === "{" || c === "}") {
      i++;
      depth += c === "{" ? 1 : -1;
      if (c === "}" && substitutions.length > 0 && depth === substitutions[substitutions.length - 1]) {
        substitutions.pop();
        if (templateText()) return true;
      }
      continue;
    }
    if (c === "*" && previous(i) === "") {
      // A line inside a block comment whose opener is above the edit (` * Returns the user's name`).
      const close = text.indexOf("*/", i + 1);
      const end = text.indexOf("\n", i);
      i = close !== -1 && (end === -1 || close < end) ? close + 2 : end === -1 ? n : end + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      if (c === "'" && isWord(text[i - 1]) && !afterStringPrefix(text, i)) {
        i++;
        continue;
      }
      const triple = text.startsWith(c.repeat(3), i);
      const close = triple ? c.repeat(3) : c;
      const spans = triple;
      i += close.length;
      for (;;) {
        if (i >= n) return true; // unterminated: the rest of the text is the literal's; its breaks were checked as they came
        const d = text[i] as string;
        if (d === "\\") i += 2;
        else if (d === "\n" && !spans) return false;
        else if (text.startsWith(close, i)) {
          i += close.length;
          break;
        } else i++;
      }
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      if (end === -1) return true;
      i = end + 1;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      // A block comment may span lines (a doc comment over-escaped whole).
      const end = text.indexOf("*/", i + 2);
      if (end === -1) return true;
      i = end + 2;
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1] as string))) {
      const end = text.indexOf("\n", i);
      if (end === -1) return true;
      i = end + 1;
      continue;
    }
    if (c === "/" && REGEX_BEFORE.has(previous(i))) {
      // A regular expression literal: to the next unescaped `/` outside a class, on this line.
      let inClass = false;
      for (i++; i < n; i++) {
        const d = text[i] as string;
        if (d === "\n") return false;
        if (d === "\\") i++;
        else if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) break;
      }
      i++;
      continue;
    }
    i++;
  }
  return true;
}

/** Whether the word before `at` is a Python string prefix (`f`, `r`, `b`, `u`, `rb`, `fr`, ...). */
function afterStringPrefix(text: string, at: number): boolean {
  let p = at;
  while (p > 0 && /[A-Za-z0-9_$]/.test(text[p - 1] as string)) p--;
  return /^(?:[rbfu]|rb|br|fr|rf)$/i.test(text.slice(p, at));
}
