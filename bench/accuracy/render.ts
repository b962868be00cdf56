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
  if (format === "fudiff") return false;
  return c.hint !== undefined;
}

/**
 * The right outcome for the case in a format: its expected content, or
 * `undefined` (refuse) when only a hint tells the place and this rendering
 * has none.
 */
export function expectedFor(c: BenchCase, format: Format): string | undefined {
  return c.hintDecides && !carriesHint(c, format) ? undefined : c.expected;
}

export function renderCase(c: BenchCase, format: Format): RenderedEdit {
  const join = (lines: string[], escaped: boolean): string => (escaped ? overEscape(lines.join("\n")) : lines.join("\n"));
  const oldString = join(oldSide(c.view), c.escaped === "both" || c.escaped === "find") + (c.finalBreak === "find" ? "\n" : "");
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
  const text = `--- a/${name}\n+++ b/${name}\n${header}\n${body.join("\n")}\n`;
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
