/**
 * Lazy snippets rendered from a before/after pair, the ways models write
 * them: the after file's changed regions with some context, every unchanged
 * region elided by a marker, in each marker wording and comment syntax; the
 * enclosing function whole, or its signature with the body elided around the
 * change; the class with its other methods elided; a bare definition with no
 * marker; a removal note where lines go.
 */
import { structuredPatch } from "diff";
import { lineKey, similarity } from "../../src/lazy/align.ts";
import { blockAt, indentWidth } from "../../src/lazy/blocks.ts";
import { readHeader } from "../../src/lazy/definitions.ts";
import { MAX_UNMARKED_DELETION } from "../../src/lazy/merge.ts";

export type Lang = "python" | "ts" | "js" | "go" | "rust" | "java" | "markdown";

export const STYLES = [
  "existing-code",
  "rest-of-code",
  "keep-existing",
  "ellipsis-only",
  "block-comment",
  "signature-body",
  "whole-function",
  "class-elided",
  "bare-definition",
  "remove-note",
] as const;
export type Style = (typeof STYLES)[number];

export function langOf(path: string): Lang {
  if (path.endsWith(".py")) return "python";
  if (/\.(?:ts|tsx|mts)$/.test(path)) return "ts";
  if (/\.(?:js|mjs|cjs|jsx)$/.test(path)) return "js";
  if (path.endsWith(".go")) return "go";
  if (path.endsWith(".rs")) return "rust";
  if (path.endsWith(".java")) return "java";
  return "markdown";
}

function comment(lang: Lang, body: string, block = false): string {
  if (lang === "markdown") return `<!-- ${body} -->`;
  if (lang === "python") return block ? body : `# ${body}`;
  return block ? `/* ${body} */` : `// ${body}`;
}

function markerFor(style: Style, lang: Lang, k: number): string {
  switch (style) {
    case "rest-of-code":
      return comment(lang, "... rest of code ...");
    case "keep-existing":
      return comment(lang, k % 2 ? "… other methods …" : "... keep existing code ...");
    case "ellipsis-only":
      return lang === "python" ? "..." : comment(lang, "...");
    case "block-comment":
      return lang === "python" ? "# ..." : comment(lang, "...", true);
    default:
      return comment(lang, "... existing code ...");
  }
}

/** Lines of context each style shows around a change. */
export const CONTEXT: Record<Style, number> = {
  "existing-code": 3,
  "rest-of-code": 1,
  "keep-existing": 2,
  "ellipsis-only": 2,
  "block-comment": 2,
  "signature-body": 1,
  "whole-function": 0,
  "class-elided": 0,
  "bare-definition": 0,
  "remove-note": 2,
};

/** The after file's line ranges [start, end) shown, before markers are put between them. */
interface Shown {
  ranges: [number, number][];
  /** after-line -> a removal note to put before it. */
  notes: Map<number, string>;
}

function changedRanges(before: string, after: string, context: number, lang: Lang, withNotes: boolean): Shown {
  const patch = structuredPatch("a", "b", before, after, "", "", { context });
  const ranges: [number, number][] = [];
  const notes = new Map<number, string>();
  for (const h of patch.hunks) {
    // A hunk of no new lines (context 0) shows the line after the deletion: jsdiff numbers it by that line.
    ranges.push([h.newStart - 1, h.newStart - 1 + Math.max(1, h.newLines)]);
    if (!withNotes) continue;
    let at = h.newStart - 1;
    let removed: string[] = [];
    for (const l of h.lines) {
      if (l.startsWith("-")) removed.push(l.slice(1));
      else {
        if (removed.length > 0 && !l.startsWith("+")) notes.set(at, comment(lang, `remove ${removed.find((r) => r.trim() !== "")?.trim().slice(0, 40) ?? "blank lines"}`));
        removed = [];
        if (!l.startsWith("\\")) at++;
      }
    }
  }
  return { ranges, notes };
}

/** The definition enclosing an after line: its header line and block, innermost first. */
function enclosing(lines: readonly string[], line: number, kinds: readonly string[]): { open: number; end: number; close?: number } | undefined {
  const depth = indentWidth(lines[line] ?? "");
  for (let k = line; k >= 0; k--) {
    const l = lines[k] as string;
    if (l.trim() === "" || (k < line && indentWidth(l) >= depth)) continue;
    const h = readHeader(l);
    if (h && kinds.includes(h.kind)) {
      const b = blockAt(lines, k);
      if (b && b.end > line) return { open: k, end: b.end, ...(b.close !== undefined && { close: b.close }) };
    }
    if (indentWidth(l) === 0 && k < line) return undefined;
  }
  return undefined;
}

function merge(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function indentOf(lines: readonly string[], from: number, dir: 1 | -1): string {
  for (let k = from; k >= 0 && k < lines.length; k += dir) {
    const l = lines[k] as string;
    if (l.trim() !== "") return l.slice(0, l.length - l.trimStart().length);
  }
  return "";
}

/** What a rendering says of itself: `unplaceable` when the snippet does not tell where its new text goes. */
export interface RenderInfo {
  unplaceable?: boolean;
}

/**
 * The snippet of `style` for a before/after pair, or undefined when the style
 * does not fit the change. `info.unplaceable` is set when no reader could
 * place it (see `unplaceable`): bench:lazy scores such a snippet as a case to
 * refuse, not as a merge to make.
 */
export function renderSnippet(before: string, after: string, lang: Lang, style: Style, info: RenderInfo = {}): string | undefined {
  const lines = after.replace(/\n$/, "").split("\n");
  const shown = changedRanges(before, after, CONTEXT[style], lang, style === "remove-note");
  if (shown.ranges.length === 0) return undefined;
  const added = addedLines(before, after);
  if (addsNamesake(before, lines, added)) return undefined;
  let ranges = shown.ranges;
  if (style === "whole-function" || style === "class-elided" || style === "bare-definition" || style === "signature-body") {
    const defs = ranges.map(([a, b]) => enclosing(lines, Math.min(a + Math.floor((b - a) / 2), lines.length - 1), ["function"]));
    if (defs.some((d) => d === undefined)) return undefined;
    const ds = defs as { open: number; end: number; close?: number }[];
    if (style === "signature-body") {
      // The signature line, then the changed lines with context: the body between is a marker.
      ranges = merge([...ranges, ...ds.map((d): [number, number] => [d.open, d.open + 1]), ...ds.filter((d) => d.close !== undefined).map((d): [number, number] => [d.close as number, (d.close as number) + 1])]);
    } else {
      ranges = merge(ds.map((d) => [d.open, d.end]));
      if (style === "bare-definition") {
        if (ranges.length !== 1) return undefined;
        const [a, b] = ranges[0] as [number, number];
        // A definition with no marker: every change must lie inside it (a deletion strictly inside).
        if (!shows(before, after, [[a, b]], false)) return undefined;
        if (wholly(added, a, b, lines)) {
          // A new definition sent bare: where it goes is unsaid; if the file has one of its name,
          // the snippet says "replace that one", which is not this change (a duplicate added).
          const name = readHeader(lines[a] as string)?.name;
          if (name !== undefined && before.split("\n").some((l) => readHeader(l)?.name === name)) return undefined;
          info.unplaceable = true;
        }
        return lines.slice(a, b).join("\n");
      }
      if (style === "class-elided") {
        const cls = enclosing(lines, ds[0]?.open as number, ["class"]);
        if (!cls || ds.some((d) => d.open < cls.open || d.end > cls.end)) return undefined;
        ranges = merge([...ranges, [cls.open, cls.open + 1], ...(cls.close !== undefined ? [[cls.close, cls.close + 1] as [number, number]] : [])]);
      }
    }
  }
  if (!shows(before, after, ranges, true, style === "remove-note")) return undefined;
  const known = new Set(before.split("\n").map((l) => l.trim()));
  if (ranges.some(([a, b]) => a > 0 && b < lines.length && foreign(known, a, b, lines))) info.unplaceable = true;
  const out: string[] = [];
  let m = 0;
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) out.push(indentOf(lines, a, 1) + markerFor(style, lang, m++));
    for (let k = a; k < b; k++) {
      const note = shown.notes.get(k);
      if (note) out.push(indentOf(lines, k, 1) + note);
      out.push(lines[k] as string);
    }
    at = b;
  }
  if (at < lines.length) out.push(indentOf(lines, at - 1, -1) + markerFor(style, lang, m++));
  return out.join("\n");
}

/** Per after line (0-based), whether the change added it (no line of the before file). */
function addedLines(before: string, after: string): Set<number> {
  const out = new Set<number>();
  for (const h of structuredPatch("a", "b", before, after, "", "", { context: 0 }).hunks) {
    for (let k = 0; k < h.newLines; k++) out.add(h.newStart - 1 + k);
  }
  return out;
}

/**
 * Whether the change adds a definition of a name the before file already
 * defines in the same enclosing definition (a second `def _latex` in the
 * class): in every style the snippet then reads as a change of the file's
 * one, and nothing in it can say "add a second one" (sympy-15308, merged as
 * a change in all four renderings). A namesake elsewhere (`__init__` of a
 * new class) does not count.
 */
function addsNamesake(before: string, lines: readonly string[], added: ReadonlySet<number>): boolean {
  const old = before.split("\n");
  const count = (ls: readonly string[], name: string, parent: string) => ls.filter((l, k) => readHeader(l)?.name === name && parentOf(ls, k) === parent).length;
  for (const k of added) {
    const name = readHeader(lines[k] as string)?.name;
    // A header line ends its signature (`:` or `{`): `raises(E, lambda: f(` reads as one but is a call.
    if (name === undefined || !/[:{]\s*$/.test(lines[k] as string)) continue;
    const parent = parentOf(lines, k);
    const was = count(old, name, parent);
    if (was > 0 && count(lines, name, parent) > was) return true;
  }
  return false;
}

/** The trimmed text of the nearest line above `k` that is shallower than it ("" at the top level). */
function parentOf(lines: readonly string[], k: number): string {
  const depth = indentWidth(lines[k] as string);
  for (let j = k - 1; j >= 0 && depth > 0; j--) {
    const l = lines[j] as string;
    if (l.trim() !== "" && indentWidth(l) < depth) return l.trim();
  }
  return "";
}

/** Whether after lines [a, b) hold no unchanged line but blank ones (a new definition). */
function wholly(added: ReadonlySet<number>, a: number, b: number, lines: readonly string[]): boolean {
  for (let k = a; k < b; k++) if (!added.has(k) && (lines[k] as string).trim() !== "") return false;
  return true;
}

/**
 * Whether after lines [a, b) hold no line of the before file but blank ones,
 * nor one that reads as a line of it changed (`### Usage (revised)`):
 * shown between two markers, such a part has nothing of the file to be
 * placed by (`rest-of-code` shows one line of context, often a blank one),
 * so a careful reader could not place it either: a case to refuse.
 */
function foreign(known: ReadonlySet<string>, a: number, b: number, lines: readonly string[]): boolean {
  for (let k = a; k < b; k++) {
    const t = (lines[k] as string).trim();
    if (t !== "" && known.has(t)) return false;
  }
  for (let k = a; k < b; k++) {
    const t = lineKey(lines[k] as string);
    if (t.length < 6) continue;
    for (const o of known) if (similarity(t, lineKey(o)) >= 0.7) return false;
  }
  return true;
}

/**
 * Whether the shown ranges of the after file (markers between them, and at
 * the ends when `marked`) tell the whole change, so that the after file is
 * the one right merge: every added line is shown, and every deleted run of
 * the before file sits between two shown lines of one range (or a file end
 * no marker stands at), and no deletion is longer than a gap may tell
 * (MAX_UNMARKED_DELETION lines of code beyond the new ones, unless a removal
 * note shows it: the format reads a longer gap as a forgotten marker). Without this check the bench expected changes the
 * snippet does not show: a def-based style took the definition around a
 * change's middle line only, and a change at a definition's edge (a deleted
 * blank line or decorator above it) fell under a marker or outside the
 * bare definition. Such renderings are dropped, not scored.
 */
function shows(before: string, after: string, ranges: readonly [number, number][], marked: boolean, notes = false): boolean {
  const lines = after.replace(/\n$/, "").split("\n");
  const n = lines.length;
  const rangeOf = (line: number): number => {
    // The file's edges: the merge keeps what lies before a snippet's first line and after its last, so
    // a deletion there is shown only by a removal note (at the start; none is written after the end).
    if (line < 0) return marked ? (notes && (ranges[0] as [number, number])[0] === 0 ? 0 : -1) : -2;
    if (line >= n) return marked ? -1 : -2;
    return ranges.findIndex(([a, b]) => line >= a && line < b);
  };
  const patch = structuredPatch("a", "b", before, after, "", "", { context: 0 });
  for (const h of patch.hunks) {
    // 0-based after lines: [first, first + newLines) added; the deletion sits before `first`.
    // jsdiff numbers a hunk of no new lines by the line after it (1-based), like any other.
    const first = h.newStart - 1;
    for (let k = first; k < first + h.newLines; k++) if (rangeOf(k) < 0) return false;
    if (h.oldLines === 0) continue;
    // A deletion longer than the format lets a gap say (issue 34: a large removal no marker or note
    // covers is refused as a forgotten marker) is not told by the lines around it, only by a note.
    const code = (prefix: string) => h.lines.filter((l) => l.startsWith(prefix) && l.slice(1).trim() !== "").length;
    if (!notes && code("-") - code("+") > MAX_UNMARKED_DELETION) return false;
    const prev = rangeOf(first - 1);
    const next = rangeOf(first + h.newLines);
    if (marked ? prev < 0 || prev !== next : h.newLines === 0 && (prev < 0 || next < 0)) return false;
    if (marked && !notes && hiddenAtMarker(lines, n, ranges[prev] as [number, number], first, first + h.newLines, h.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1)))) return false;
  }
  return true;
}

/**
 * Whether the lines a range shows between its marker and a deletion (after
 * lines [a, first), the marker before `a`) are blank lines only, and the
 * deletion's last lines are blank too, or those between the deletion and
 * the marker after the range (after lines [end, b)) and its first lines: a
 * reader may then end the marker before the deleted run's blank lines, or
 * start it after them, and keep the whole run, for blank lines tell no
 * place; the snippet does not tell the deletion (bench:lazy, rest-of-code:
 * one blank line of context after a marker, then code the change deleted
 * four lines before, a blank line ending the deletion). Shown code is
 * context enough: the lines after it tell the reading.
 */
function hiddenAtMarker(lines: readonly string[], n: number, [a, b]: [number, number], first: number, end: number, removed: readonly string[]): boolean {
  const same = (shown: readonly string[], part: readonly string[]) => shown.length > 0 && shown.length <= part.length && [...shown, ...part].every((l) => l.trim() === "");
  if (a > 0 && same(lines.slice(a, first), removed.slice(removed.length - (first - a)))) return true;
  return b < n && same(lines.slice(end, b), removed.slice(0, b - end));
}

/**
 * The after file as a lazy merge should produce it: a line the edit changed
 * only in trailing whitespace keeps the before file's bytes. The merge keeps
 * the file's line where the snippet's differs from it only there (models
 * drop trailing spaces from the lines they copy), so the real after files'
 * trailing-space changes (the SEARCH/REPLACE edits carried them) are not
 * something a snippet can say; scoring them made 40-odd right merges wrong.
 * Paired within each hunk by their text, not their position: a hunk that
 * also adds or removes lines (`x  ` -> `import y`, `x`) had the pair at
 * different offsets, and 9 right merges were scored wrong for it.
 */
export function settleTrailingSpace(before: string, after: string): string {
  const patch = structuredPatch("a", "b", before, after, "", "", { context: 0 });
  if (patch.hunks.length === 0) return after;
  const old = before.split("\n");
  const lines = after.split("\n");
  for (const h of patch.hunks) {
    const removed = old.slice(h.oldStart - 1, h.oldStart - 1 + h.oldLines);
    const used = new Set<number>();
    for (let k = 0; k < h.newLines; k++) {
      const n = lines[h.newStart - 1 + k] as string;
      const o = removed.findIndex((r, j) => !used.has(j) && r !== n && r.trimEnd() === n.trimEnd());
      if (o === -1) continue;
      used.add(o);
      lines[h.newStart - 1 + k] = removed[o] as string;
    }
  }
  return lines.join("\n");
}
