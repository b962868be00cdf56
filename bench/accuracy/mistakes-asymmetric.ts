/**
 * Asymmetric mistakes: the noise is on one side of the edit only — the find
 * text (what the model quotes from the file: context, kept and removed lines)
 * or the replacement (kept and added lines as it writes them) — as models
 * really make them. Each function's comment says what a careful human would
 * do with the edit, and so what "correct" means for the kind.
 *
 * In a diff a context line has one text for both sides; it is rendered from
 * the find side (`old`), so "find only" there means context and `-` lines,
 * "replacement only" means `+` lines.
 */

import {
  applyEdit,
  curl,
  indentVariants,
  indicesOf,
  type MistakeInput,
  type MistakeOutput,
  regionNew,
  regionOld,
  sameRegionOld,
} from "./mistake-kit.ts";
import type { Rng } from "./random.ts";
import { leadingWhitespace, makeWord } from "./text-gen.ts";
import type { ViewLine } from "./types.ts";

/**
 * Whether the re-indented find text still occurs verbatim in the file (a
 * dedented single line is a substring of the real one): then it is an exact
 * quote of something else, not a mis-indented one, and not this kind.
 */
function quotesVerbatim(input: MistakeInput, view: readonly ViewLine[]): boolean {
  return input.file.text.includes(regionOld(view).join("\n"));
}

/** The intended edit with the added lines as the view now writes them. */
function expectedWithAdded(input: MistakeInput, view: readonly ViewLine[]): string {
  const replacement = view.filter((l) => l.role === "add").map((l) => l.new);
  return applyEdit(input.file.lines, { ...input.edit, replacement }).join("\n");
}

/**
 * The find text is re-indented (common indentation dropped, shifted deeper,
 * tabs for spaces or back) while the replacement is already in the file's
 * indentation: "SEARCH mis-indented, REPLACE already right". A careful human
 * finds the block by its content and writes the replacement as it stands —
 * the indentation change the model's replacement makes relative to its find
 * text is the one the file already has, so it is not made twice.
 * Correct = the intended edit.
 */
export function reindentFind(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  for (const variant of rng.shuffle(indentVariants(view, file, rng))) {
    const out = view.map((l): ViewLine => {
      const old = variant.apply(l.old);
      return { role: l.role, old, new: l.role === "ctx" ? old : l.new, touched: old !== l.old };
    });
    if (!sameRegionOld(out, view) && !quotesVerbatim(input, out)) {
      return { view: out, note: `find text only re-indented (${variant.note}); the replacement is in the file's indentation` };
    }
  }
  return undefined;
}

/**
 * The find text is exact; the added lines are one level deeper (or
 * shallower) than the lines around them. Nothing tells a careful human that
 * the model did not mean it — the find text shows it read the file right —
 * so the new lines are written as typed. Correct = the edit with the added
 * lines at the model's indentation (a guard against "fixing" what the model
 * wrote).
 */
export function reindentReplace(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  const unit = file.indentUnit;
  const added = indicesOf(view, ["add"]).filter((i) => view[i]?.new.trim() !== "");
  if (added.length === 0) return undefined;
  const canDedent = added.every((i) => view[i]?.new.startsWith(unit));
  const deeper = !canDedent || rng.chance(0.5);
  for (const i of added) {
    const line = view[i] as ViewLine;
    line.new = deeper ? unit + line.new : line.new.slice(unit.length);
    line.touched = true;
  }
  return {
    view,
    expected: expectedWithAdded(input, view),
    note: `added lines written one level ${deeper ? "deeper" : "shallower"}; find text exact`,
  };
}

/** Indentation of a line as (level in the file's unit, leftover spaces); undefined when mixed. */
function measureIndent(line: string, unit: string): { level: number; rest: string } | undefined {
  const lead = leadingWhitespace(line);
  if (unit === "\t") {
    const tabs = lead.length - lead.replace(/^\t+/, "").length;
    const rest = lead.slice(tabs);
    return /[^ ]/.test(rest) ? undefined : { level: tabs, rest };
  }
  if (/[^ ]/.test(lead)) return undefined;
  return { level: Math.floor(lead.length / unit.length), rest: " ".repeat(lead.length % unit.length) };
}

/**
 * The model indents with its own inconsistent scheme on both sides, where the
 * file has its own base and unit (issue 10 case 2: file step 4; the model's
 * levels 2, 6, 10, or 0, 2, 6, 10). Two schemes:
 * - "half-step base": the outermost level of the view at half a step (2 or 6
 *   spaces for a step of 4, 1 or 3 for a step of 2), deeper levels one step
 *   of the model's each;
 * - "outer level kept" (space-indented files): the outermost level where the
 *   file has it, the next at half a step more, deeper ones a step each.
 * A careful human maps the model's levels to the file's: the lines it quotes
 * show at least two levels, and every added line is at a level they show.
 * Correct = the intended edit in the file's indentation.
 */
export function inconsistentIndent(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  const unit = file.indentUnit;
  const written = (l: ViewLine): string => (l.role === "add" ? l.new : l.old);
  const levels = new Map<ViewLine, number>();
  for (const line of view) {
    const text = written(line);
    if (text.trim() === "") continue;
    const m = measureIndent(text, unit);
    if (!m) return undefined;
    levels.set(line, m.level);
  }
  const base = Math.min(...levels.values());
  const quotedLevels = new Set(view.filter((l) => l.role === "keep" || l.role === "del").flatMap((l) => levels.get(l) ?? []));
  if (quotedLevels.size < 2) return undefined;
  for (const line of view) {
    if (line.role === "add" && !quotedLevels.has(levels.get(line) ?? base)) return undefined;
  }
  const step = rng.pick([2, 4]);
  const outerKept = unit !== "\t" && rng.chance(0.5);
  // The level kept where the file has it is the find text's outermost, so a
  // str_replace shows it too; context lines further out keep theirs as well.
  const from = outerKept ? Math.min(...quotedLevels) : base;
  const outer = from * unit.length;
  const modelBase = outerKept ? outer : step / 2 + (rng.chance(0.5) ? step : 0);
  const width = (depth: number): number => {
    if (!outerKept) return modelBase + depth * step;
    return depth <= 0 ? outer + depth * unit.length : outer + step / 2 + (depth - 1) * step;
  };
  const rewrite = (text: string): string => {
    const m = text.trim() === "" ? undefined : measureIndent(text, unit);
    if (!m) return text;
    return " ".repeat(width(m.level - from)) + m.rest + text.trimStart();
  };
  // Deeper in the file must stay deeper in the model's text (a leftover
  // alignment space must not reach the next level), or levels are ambiguous.
  const depths = new Map<number, number>();
  for (const line of view) {
    const text = written(line);
    if (text.trim() === "") continue;
    depths.set(leadingWhitespace(text).length, leadingWhitespace(rewrite(text)).length);
  }
  const sorted = [...depths].sort((a, b) => a[0] - b[0]);
  for (let k = 1; k < sorted.length; k++) if ((sorted[k]?.[1] ?? 0) <= (sorted[k - 1]?.[1] ?? 0)) return undefined;
  const out = view.map((l): ViewLine => {
    const old = rewrite(l.old);
    return { role: l.role, old, new: rewrite(l.new), touched: old !== l.old };
  });
  if (sameRegionOld(out, view) || quotesVerbatim(input, out)) return undefined;
  const fileUnit = unit === "\t" ? "a tab" : `${unit.length} spaces`;
  const scheme = outerKept ? `outer level kept at ${outer}, next at ${outer + step / 2}` : `base ${modelBase}`;
  return { view: out, note: `model indentation ${scheme}, step ${step} on both sides (file unit ${fileUnit})` };
}

/**
 * A blank line of the file between two kept lines is missing from the find
 * text but present in the replacement (the model dropped it when quoting and
 * wrote the block out in full). A careful human matches without it and keeps
 * one blank line there, not two: both sides agree the blank line is there.
 * Correct = the intended edit.
 */
export function blankForgottenFind(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  const solid = (l: ViewLine | undefined): boolean => l?.role === "keep" && l.old.trim() !== "";
  const blanks = indicesOf(view, ["keep"]).filter((i) => view[i]?.old.trim() === "" && solid(view[i - 1]) && solid(view[i + 1]));
  if (blanks.length === 0) return undefined;
  const i = rng.pick(blanks);
  const line = view[i] as ViewLine;
  // On the replacement side only: in a diff, a `+` blank line where the file has one.
  view[i] = { role: "add", old: "", new: line.new, touched: true };
  for (const neighbour of [view[i - 1], view[i + 1]]) if (neighbour) neighbour.touched = true;
  return { view, note: "a blank line missing from the find text, kept in the replacement" };
}

/**
 * Typographic quotes and dashes in the find text only (as text that went
 * through a chat renderer); the replacement is in ASCII like the file. A
 * careful human reads the curly characters as the file's ASCII ones.
 * Correct = the intended edit.
 */
export function smartFind(input: MistakeInput): MistakeOutput | undefined {
  const view = input.view;
  let curledRegion = false;
  for (const line of view) {
    if (line.role === "add") continue;
    const curled = curl(line.old);
    if (curled === line.old) continue;
    line.old = curled;
    if (line.role === "ctx") line.new = curled;
    else curledRegion = true;
    line.touched = true;
  }
  if (!curledRegion) return undefined;
  return { view, note: "quotes and dashes typographic in the find text only" };
}

const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;

/** Typographic text the model types on purpose: prose quotes, an apostrophe, dashes. */
function typographicPhrase(rng: Rng): string {
  const w = (): string => makeWord(rng);
  const pieces = [
    () => `\u201c${w()}\u201d`,
    () => `${w()}\u2019s`,
    () => `\u2014 ${w()}`,
    () => `\u2018${w()}\u2019`,
    () => `${w()} \u2013 ${w()}`,
    () => `${w()}\u2026`,
  ];
  return rng
    .shuffle(pieces)
    .slice(0, rng.int(1, 2))
    .map((p) => p())
    .join(" ");
}

/** The line with typographic text inside one of its string literals (prose for Markdown); undefined when it has none. */
function withTypography(line: string, markdown: boolean, rng: Rng): string | undefined {
  if (markdown) return `${line} ${typographicPhrase(rng)}`;
  const literals = [...line.matchAll(LITERAL)];
  if (literals.length === 0) return undefined;
  const m = rng.pick(literals);
  const open = (m.index ?? 0) + 1;
  return `${line.slice(0, open)}${typographicPhrase(rng)} ${line.slice(open)}`;
}

/**
 * The model's new text has typographic characters INSIDE a string literal
 * (`"Welcome — it’s “great”"`): prose it means, typed on purpose. The find
 * text has curly quotes where the file has ASCII ones (a renderer's doing),
 * and in half the cases the kept lines of the replacement, copied from that
 * find text, are curly too. A careful human reads the copied curly
 * characters as the file's ASCII ones and writes the new ones as typed.
 * Issue 10 case 5. Correct = the edit with the typed characters kept.
 */
export function smartLiteral(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  let typed = false;
  for (const i of rng.shuffle(indicesOf(view, ["add"]))) {
    const line = view[i] as ViewLine;
    const changed = withTypography(line.new, file.language === "md", rng);
    if (changed === undefined) continue;
    line.new = changed;
    line.touched = true;
    typed = true;
    break;
  }
  if (!typed) return undefined;
  const copied = rng.chance(0.5);
  let curly = false;
  for (const line of view) {
    if (line.role === "add") continue;
    const curled = curl(line.old);
    if (curled === line.old) continue;
    line.old = curled;
    if (line.role === "ctx" || (line.role === "keep" && copied)) line.new = curled;
    if (line.role !== "ctx") curly = true;
    line.touched = true;
  }
  const where = curly ? `find text curly${copied ? ", kept lines copied curly" : ""}` : "find text exact";
  return { view, expected: expectedWithAdded(input, view), note: `typographic characters typed inside a new string literal; ${where}` };
}

/** Over-escaping one side only is a mistake of the tools that send the find and the replacement as two strings; a diff's lines are written one by one. */
const TWO_STRING_FORMATS = ["str_replace", "search_replace"] as const;

/**
 * The find text only is over-escaped (one line, literal `\n`, `\"`, `\t`)
 * — copied from a JSON-encoded view of the file — while the replacement is
 * written plainly, with real line breaks and the file's own escapes in its
 * string literals (`split("\n")` stays `\n`). A careful human finds the
 * block by the un-escaped text and writes the replacement as it stands.
 * Correct = the intended edit.
 */
export function escapedFind(input: MistakeInput): MistakeOutput | undefined {
  if (regionOld(input.view).length < 2) return undefined;
  return { view: input.view, escaped: "find", onlyFormats: TWO_STRING_FORMATS, note: "find text only over-escaped (one line with literal \\n, \\\"); the replacement written plainly" };
}

/**
 * The replacement only is over-escaped: newString arrived as one line with
 * literal `\n` (and `\"`, `\t`), the find text as the file has it — one of
 * two tool arguments encoded twice. A careful human reads the literal `\n`
 * between whole lines of code as the line breaks they stand for and applies
 * the edit. Correct = the intended edit.
 */
export function escapedReplace(input: MistakeInput): MistakeOutput | undefined {
  if (regionNew(input.view).length < 2) return undefined;
  return { view: input.view, escaped: "replace", onlyFormats: TWO_STRING_FORMATS, note: "replacement only over-escaped (one line with literal \\n, \\\"); the find text exact" };
}

/**
 * Line-number prefixes on the replacement only: the model typed the find
 * text clean and built the replacement from a numbered view (`12 | code`,
 * `    12→code`, `12\tcode`), every line numbered as the new file would be
 * from the region's first line. A careful human strips them: every line
 * has one, and they count the lines from where the edit lands. Correct =
 * the intended edit.
 */
export function numbersReplace(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, edit } = input;
  if (regionNew(view).length === 0) return undefined;
  const style = rng.pick([
    { note: "`N | `", add: (n: number, l: string) => `${n} | ${l}` },
    { note: "`N→`", add: (n: number, l: string) => `${String(n).padStart(6)}\u2192${l}` },
    { note: "`N<tab>`", add: (n: number, l: string) => `${n}\t${l}` },
  ]);
  let n = edit.start + 1;
  for (const line of view) {
    if (line.role !== "keep" && line.role !== "add") continue;
    line.new = style.add(n++, line.new);
    line.touched = true;
  }
  return { view, onlyFormats: TWO_STRING_FORMATS, note: `line-number prefixes ${style.note} on the replacement only, numbered from the region's first line` };
}

/**
 * The find text ends with its last line's break and the replacement does
 * not: `"    x = 1\n"` replaced by `"    x = 2"`, a habit of typing (copying
 * whole lines), not a wish to join the edited line with the next one. In a
 * SEARCH/REPLACE block it is a blank line left before the divider. A careful
 * human keeps the file's line structure. Correct = the intended edit. Only
 * where the next line has text: before a blank line the break may stand
 * for that line, removed (the reverse, a break on the replacement only, is
 * a blank line added as far as anyone can tell). str_replace and
 * SEARCH/REPLACE (a diff's lines have no such choice).
 */
export function finalBreak(input: MistakeInput): MistakeOutput | undefined {
  const { edit, realLineCount, file } = input;
  // The find text's break must be in the file: not after a last line that has none.
  if (edit.end >= realLineCount && !file.text.endsWith("\n")) return undefined;
  if (edit.end < realLineCount && (file.lines[edit.end] ?? "").trim() === "") return undefined;
  // Lines of text at both ends: a blank last line already ends its string with a break.
  const lastOld = regionOld(input.view).at(-1) ?? "";
  const lastNew = regionNew(input.view).at(-1) ?? "";
  if (lastOld.trim() === "" || lastNew.trim() === "") return undefined;
  return { view: input.view, finalBreak: "find", onlyFormats: TWO_STRING_FORMATS, note: "a final line break on the find text only" };
}

/**
 * The replacement written in the other whitespace: tabs where the file
 * indents with spaces, or spaces where it has tabs, at the same levels; the
 * find text exact. The model copied the find text and typed the replacement
 * in its own style. A file does not mix the two on purpose, and the
 * replacement's copies of quoted lines show which file indentation each of
 * its indents stands for: a careful human writes it in the file's
 * whitespace. Correct = the intended edit. str_replace and SEARCH/REPLACE:
 * a diff's added lines are taken as written, each on purpose (a patch made
 * by createPatch must apply back exactly, whitespace and all).
 */
export function replaceWhitespace(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  const variant = indentVariants(view, file, rng).find((v) => v.note.includes("tabs written as") || v.note === "spaces written as tabs");
  if (!variant) return undefined;
  let changed = false;
  for (const line of view) {
    if (line.role !== "keep" && line.role !== "add") continue;
    const written = variant.apply(line.new);
    if (written === line.new) continue;
    line.new = written;
    line.touched = true;
    changed = true;
  }
  return changed ? { view, onlyFormats: TWO_STRING_FORMATS, note: `replacement only in the other whitespace (${variant.note}); find text exact` } : undefined;
}

/**
 * The replacement also repeats a line or two of the file next to the find
 * text — the line after it, or the one before — which the find text does
 * not quote: the model wrote its new text up to the code it meant to keep.
 * Spliced literally, that line comes out twice. A careful human sees the
 * copy of the very next line and writes it once. Only lines with text, unlike
 * the ones they follow in the replacement. Correct = the intended edit.
 * str_replace and SEARCH/REPLACE (a diff says which lines it keeps).
 */
export function replaceOverlap(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit, realLineCount } = input;
  const repl = regionNew(view);
  if (repl.length === 0) return undefined;
  const count = rng.chance(0.7) ? 1 : 2;
  const after = rng.chance(0.5);
  const lines = after ? file.lines.slice(edit.end, edit.end + count) : file.lines.slice(Math.max(0, edit.start - count), edit.start);
  if (lines.length < count || (after && edit.end + count > realLineCount) || lines.some((l) => l.trim() === "")) return undefined;
  // The repeated line must not be a copy of the line it stands next to (then nothing tells them apart).
  if (after ? lines[0] === repl[repl.length - 1] : lines[lines.length - 1] === repl[0]) return undefined;
  return {
    view,
    overlap: after ? { before: [], after: lines } : { before: lines, after: [] },
    onlyFormats: TWO_STRING_FORMATS,
    note: `the replacement repeats ${count} file line(s) ${after ? "after" : "before"} the find text`,
  };
}
