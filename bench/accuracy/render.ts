/**
 * Renders a case in each edit format, from the model's (mistaken) view.
 *
 * - str_replace: the region's old and new text, plus the line hint if any.
 * - search_replace: one `<<<<<<< SEARCH` block, with `:start_line:` when the
 *   model gives a hint.
 * - udiff: a unified diff with 3 lines of context and a numbered hunk header
 *   (`@@ -12,7 +12,8 @@`), numbers from the model's view (wrong when the
 *   mistake is a wrong line hint).
 * - fudiff: the same hunk under a bare `@@ @@` header.
 * - v4a: the same hunk as one V4A chunk (`applyV4A`'s section), under
 *   `@@ <anchor line>` when the case names one, else a bare `@@`.
 *
 * In diffs, context lines are the model's recollection too, so a mistake in
 * kept lines shows up in context and deleted lines alike. Each rendering also
 * carries the plain find/replace pair it stands for, which the exact-only
 * baseline applies.
 */

import { basename } from "node:path";
import type { BenchCase, Format, ViewLine } from "./types.ts";

const CONTEXT = 3;

export interface RenderedEdit {
  format: Format;
  /** What the model sent: the block or patch text (for str_replace, a readable dump). */
  text: string;
  /** str_replace arguments (also set for the other formats, for display). */
  oldString: string;
  newString: string;
  startLine: number | undefined;
  /** The exact find/replace pair the rendering stands for. */
  find: string;
  replace: string;
}

/** One level of JSON-style escaping, as a model that double-escapes writes it. */
export function overEscape(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\t", "\\t").replaceAll("\n", "\\n");
}

function oldSide(view: readonly ViewLine[]): string[] {
  return view.filter((l) => l.role === "del" || l.role === "keep").map((l) => l.old);
}

function newSide(view: readonly ViewLine[]): string[] {
  return view.filter((l) => l.role === "add" || l.role === "keep").map((l) => l.new);
}

/**
 * The part of the view a diff shows: the changed lines with 3 lines of
 * context on each side, as `diff -u` writes it, grown where needed to keep
 * every line a mistake picked (plus one line beyond it, so the mistake is
 * between anchors). Negative cases show the whole view: their premise (real
 * first and last lines, a copied window) spans it.
 */
export function hunkSpan(c: BenchCase): [number, number] {
  return c.expected === undefined ? [0, c.view.length] : diffSpan(c.view);
}

/** The span a diff shows of a view (see hunkSpan), for a case that applies. */
export function diffSpan(view: readonly ViewLine[]): [number, number] {
  const changed = view.flatMap((l, i) => (l.role === "del" || l.role === "add" ? [i] : []));
  let from = Math.max(0, (changed[0] ?? 0) - CONTEXT);
  let to = Math.min(view.length, (changed[changed.length - 1] ?? 0) + CONTEXT + 1);
  view.forEach((line, i) => {
    if (!line.touched) return;
    from = Math.min(from, Math.max(0, i - 1));
    to = Math.max(to, Math.min(view.length, i + 2));
  });
  return [from, to];
}

/** Whether a format's rendering of the case carries the line hint. */
export function carriesHint(c: BenchCase, format: Format): boolean {
  if (format === "udiff") return true;
  if (format === "fudiff" || format === "v4a") return false;
  return c.hint !== undefined;
}

/**
 * The right outcome for the case in a format: its expected content, or
 * `undefined` (refuse) when only a hint tells the place and this rendering
 * has none.
 */
export function expectedFor(c: BenchCase, format: Format): string | undefined {
  if (c.hintDecides && !carriesHint(c, format)) return undefined;
  return literalExpected(c, format) ?? c.expected;
}

/** An elision marker line a replacement may carry (the engine fills it from an exact find text). */
const ELISION = /^\s*(\/\/|#|\/\*|<!--|--|\*)?\s*\.\.\.|\.\.\.\s*(existing|rest|unchanged|same)/i;

/**
 * Exact means literal (issue 32): a two-string edit whose find text stands
 * exactly once in the file (as whole lines, for a SEARCH section) is right
 * when it writes its replacement as sent, whatever the generator meant —
 * the str_replace contract. A slip only on the replacement side (escaped,
 * numbered, other whitespace, a final break, a repeated neighbour, added
 * lines at another depth) is then the model's text, written; the generator's
 * "intended" edit for it was a reading the contract forbids. Not for a
 * replacement with an elision marker (filled from the find text, one of
 * the contract's named exceptions), nor for one already standing around the
 * match (another), nor for one shifted as a whole (the third: `wholeShift`).
 * A whole-line deletion takes its break.
 */
function literalExpected(c: BenchCase, format: Format): string | undefined {
  if (c.expected === undefined || c.wholeShift || (format !== "str_replace" && format !== "search_replace")) return undefined;
  const { oldString, newString } = renderCase(c, format);
  const quoted = new Set(oldString.split("\n").map((l) => l.trim()));
  if (newString.split("\n").some((l) => ELISION.test(l) && !quoted.has(l.trim()))) return undefined;
  const t = c.content;
  // Line endings are the file's in the output, which the texts here do not say: such cases keep their intended edit.
  if (t.includes("\r")) return undefined;
  const at = t.indexOf(oldString);
  if (at === -1 || t.indexOf(oldString, at + 1) !== -1 || oldString === "") return undefined;
  const end = at + oldString.length;
  // The whole replacement standing around the match: already applied, the contract's first exception.
  for (let p = t.indexOf(newString); p !== -1 && newString !== ""; p = t.indexOf(newString, p + 1)) if (p <= at && end <= p + newString.length) return undefined;
  const startsLine = at === 0 || t[at - 1] === "\n";
  const endsLine = end === t.length || t[end] === "\n" || oldString.endsWith("\n");
  if (format === "search_replace" && !(startsLine && endsLine)) return undefined;
  if (newString === "" && startsLine && endsLine && !oldString.endsWith("\n") && t[end] === "\n") return t.slice(0, at) + t.slice(end + 1);
  return t.slice(0, at) + newString + t.slice(end);
}

export function renderCase(c: BenchCase, format: Format): RenderedEdit {
  const join = (lines: string[], escaped: boolean): string => (escaped ? overEscape(lines.join("\n")) : lines.join("\n"));
  const escapedFind = c.escaped === "both" || c.escaped === "find";
  // An over-escaped find text's final break is escaped with the rest (`x = 1\\n`).
  const oldString = join(oldSide(c.view), escapedFind) + (c.finalBreak === "find" ? (escapedFind ? "\\n" : "\n") : "");
  const newString = join([...(c.overlap?.before ?? []), ...newSide(c.view), ...(c.overlap?.after ?? [])], c.escaped === "both" || c.escaped === "replace");
  if (format === "str_replace") {
    const hint = c.hint === undefined ? "" : `startLine: ${c.hint}\n`;
    return {
      format,
      text: `${hint}oldString:\n${oldString}\nnewString:\n${newString}\n`,
      oldString,
      newString,
      startLine: c.hint,
      find: oldString,
      replace: newString,
    };
  }
  if (format === "search_replace") {
    const hint = c.hint === undefined ? "" : `:start_line:${c.hint}\n`;
    const text = `<<<<<<< SEARCH\n${hint}-------\n${oldString}\n=======\n${newString}\n>>>>>>> REPLACE\n`;
    return { format, text, oldString, newString, startLine: c.hint, find: oldString, replace: newString };
  }
  // Diffs keep their line structure; over-escaping applies line by line (one side only is not rendered: see onlyFormats).
  const esc = (line: string): string => (c.escaped === "both" ? overEscape(line) : line);
  const [from, to] = hunkSpan(c);
  const hunk = c.view.slice(from, to);
  const body: string[] = [];
  for (const line of hunk) {
    if (line.role === "del") body.push(`-${esc(line.old)}`);
    else if (line.role === "add") body.push(`+${esc(line.new)}`);
    else body.push(` ${esc(line.old)}`);
  }
  const oldCount = hunk.filter((l) => l.role !== "add").length;
  const newCount = hunk.filter((l) => l.role !== "del").length;
  // The header numbers the hunk's first line from the region start the model believes in.
  const regionAt = c.view.findIndex((l) => l.role !== "ctx");
  const oldLinesBetween = (a: number, b: number): number => c.view.slice(a, b).filter((l) => l.role !== "add").length;
  const offset = from <= regionAt ? -oldLinesBetween(from, regionAt) : oldLinesBetween(regionAt, from);
  const start = Math.max(1, c.diffStartLine + offset);
  const header = format === "udiff" ? `@@ -${start},${oldCount} +${start},${newCount} @@` : "@@ @@";
  const name = basename(c.file);
  const text =
    format === "v4a"
      ? `${c.anchor === undefined ? "@@" : `@@ ${c.anchor}`}\n${body.join("\n")}\n`
      : `--- a/${name}\n+++ b/${name}\n${header}\n${body.join("\n")}\n`;
  return {
    format,
    text,
    oldString,
    newString,
    startLine: format === "udiff" ? c.diffStartLine : undefined,
    // A diff has one text per context line: the old one, on both sides.
    find: body.filter((l) => !l.startsWith("+")).map((l) => l.slice(1)).join("\n"),
    replace: body.filter((l) => !l.startsWith("-")).map((l) => l.slice(1)).join("\n"),
  };
}
