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

export function renderCase(c: BenchCase, format: Format): RenderedEdit {
  const join = (lines: string[]): string => (c.escaped ? overEscape(lines.join("\n")) : lines.join("\n"));
  const oldString = join(oldSide(c.view));
  const newString = join(newSide(c.view));
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
  // Diffs keep their line structure; over-escaping applies line by line.
  const esc = (line: string): string => (c.escaped ? overEscape(line) : line);
  const body: string[] = [];
  for (const line of c.view) {
    if (line.role === "del") body.push(`-${esc(line.old)}`);
    else if (line.role === "add") body.push(`+${esc(line.new)}`);
    else body.push(` ${esc(line.old)}`);
  }
  const oldCount = c.view.filter((l) => l.role !== "add").length;
  const newCount = c.view.filter((l) => l.role !== "del").length;
  const before = c.view.findIndex((l) => l.role !== "ctx");
  const start = Math.max(1, c.diffStartLine - before);
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
