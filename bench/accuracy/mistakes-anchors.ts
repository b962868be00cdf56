/**
 * Mistakes about what anchors an edit: an elision marker in the replacement
 * only, an elided find text whose first part repeats inside the elided span,
 * removed lines that exist nowhere in the file, and two equal places told
 * apart only by a line hint. Each function's comment says what a careful
 * human would do, and so what "correct" means for the kind.
 */

import {
  applyEdit,
  copyRegionFar,
  countSquashed,
  elisionMarker,
  fileLineOf,
  indicesOf,
  isRegion,
  type MistakeInput,
  type MistakeOutput,
  regionOld,
  withLines,
} from "./mistake-kit.ts";
import type { Rng } from "./random.ts";
import { leadingWhitespace, makeAbsentLines } from "./text-gen.ts";
import type { IntendedEdit, ViewLine } from "./types.ts";

function countExact(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** Maximal runs `[a, b)` of consecutive kept lines in the view. */
function keptRuns(view: readonly ViewLine[]): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= view.length; i++) {
    if (view[i]?.role === "keep") {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  return runs;
}

/**
 * The model rewrites the whole region: its find text quotes every line, its
 * replacement elides two or more unchanged lines with `// ... existing code
 * ...` (in a diff: every region line `-`, the new ones `+`, the marker among
 * them). The lines right before and after the marker are kept lines, each
 * once in the find text, so they say exactly which lines it stands for.
 * A careful human either writes those lines back in place of the marker or
 * asks for the replacement in full; never writes the marker into the file
 * and never deletes the lines. Issue 10 case 4. Correct = the intended edit;
 * a refusal is correct too (REFUSAL_OK_KINDS).
 */
export function elidedReplace(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view } = input;
  const uniqueInFind = uniqueInFindOf(view);
  const choices: [number, number][] = [];
  for (const [a, b] of keptRuns(view)) {
    // The marker replaces [from, to); view[from - 1] and view[to] anchor it.
    for (let from = a + 1; from < b; from++) {
      for (let to = from + 2; to < b; to++) {
        if (!hasText(view.slice(from, to))) continue;
        if (uniqueInFind(view[from - 1]?.old ?? "") && uniqueInFind(view[to]?.old ?? "")) choices.push([from, to]);
      }
    }
  }
  if (choices.length === 0) return undefined;
  const [from, to] = rng.pick(choices);
  return withMarkerInReplacement(input, from, to);
}

/**
 * Like elided-replace, but the marker is followed by a changed line, not a
 * kept one: `a(); // ... x();` for `a(); b(); c(); d();` with `d()` changed
 * to `x()`. Only the kept line before the marker anchors it; which lines it
 * stands for is read off the changed line's old text, if the reader pairs
 * them. A careful human writes the elided lines back or asks; never writes
 * the marker into the file or deletes the lines. Correct = the intended
 * edit; a refusal is correct too (REFUSAL_OK_KINDS).
 */
export function elidedBeforeChange(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view } = input;
  const uniqueInFind = uniqueInFindOf(view);
  const choices: [number, number][] = [];
  for (const [a, b] of keptRuns(view)) {
    // The marker replaces [from, b): the rest of the kept run, up to the change at view[b].
    const next = view[b];
    if (!next || (next.role !== "del" && next.role !== "add")) continue;
    for (let from = a + 1; from <= b - 2; from++) {
      if (hasText(view.slice(from, b)) && uniqueInFind(view[from - 1]?.old ?? "")) choices.push([from, b]);
    }
  }
  if (choices.length === 0) return undefined;
  const [from, to] = rng.pick(choices);
  return withMarkerInReplacement(input, from, to);
}

const hasText = (lines: readonly ViewLine[]): boolean => lines.some((l) => l.new.trim() !== "");

/** Whether a line is quoted once in the find text, also when whitespace is ignored. */
function uniqueInFindOf(view: readonly ViewLine[]): (text: string) => boolean {
  const quoted = regionOld(view);
  return (text) =>
    text.trim() !== "" &&
    quoted.filter((q) => q === text).length === 1 &&
    quoted.filter((q) => q.replace(/\s+/g, "") === text.replace(/\s+/g, "")).length === 1;
}

/** The model's view with kept lines [from, to) elided by one marker in the replacement only (every region line quoted). */
function withMarkerInReplacement(input: MistakeInput, from: number, to: number): MistakeOutput {
  const { view, file } = input;
  const quoted = regionOld(view);
  const indent = leadingWhitespace(view.slice(from, to).find((l) => l.new.trim() !== "")?.new ?? "");
  const marker = indent + elisionMarker(file);
  const newSide: string[] = [];
  view.forEach((l, i) => {
    if (i === from) newSide.push(marker);
    if (i >= from && i < to) return;
    if (l.role === "keep" || l.role === "add") newSide.push(l.new);
  });
  const out: ViewLine[] = [];
  const firstRegion = view.findIndex(isRegion);
  let lastRegion = view.length - 1;
  while (lastRegion >= 0 && !isRegion(view[lastRegion] as ViewLine)) lastRegion--;
  out.push(...view.slice(0, firstRegion));
  for (const text of quoted) out.push({ role: "del", old: text, new: "" });
  for (const text of newSide) out.push({ role: "add", old: "", new: text, touched: text === marker });
  out.push(...view.slice(lastRegion + 1));
  return { view: out, note: `${to - from} unchanged lines elided in the replacement only, with "${elisionMarker(file)}"` };
}

/**
 * Like elided-middle (the marker on both sides), but the file holds a second
 * copy of the quoted part before the marker, one level deeper, inside the
 * span the marker stands for — so the part matches twice ignoring
 * whitespace, once exactly. A careful human takes the exact place: the other
 * one has the wrong indentation, and starting there would leave the file's
 * real first lines out of a span the model quoted. Issue 10 case 6.
 * Correct = the intended edit on the file with the copy.
 */
export function elidedRepeat(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit } = input;
  const quoted = indicesOf(view, ["keep", "del"]);
  const first = quoted[0] ?? 0;
  const last = quoted[quoted.length - 1] ?? 0;
  const runs = keptRuns(view)
    .map(([a, b]): [number, number] => [Math.max(a, first + 1), Math.min(b, last)])
    .filter(([a, b]) => b - a >= 3);
  if (runs.length === 0) return undefined;
  const [from, to] = rng.pick(runs);
  const before = view.slice(first, from).filter((l) => l.role !== "add").map((l) => l.old);
  const after = view.slice(to, last + 1).filter((l) => l.role !== "add").map((l) => l.old);
  const numbers = fileLineOf(view, edit);
  // Insert before an elided line that is not the first: the copy sits inside the span.
  const at = numbers[rng.int(from + 1, to - 1)] as number;
  const copy = before.map((l) => (l.trim() === "" ? l : file.indentUnit + l));
  const lines = [...file.lines.slice(0, at), ...copy, ...file.lines.slice(at)];
  const changed = withLines(file, lines);
  if (countSquashed(changed, before) !== 2 || countSquashed(changed, after) !== 1) return undefined;
  if (countExact(changed.text, before.join("\n")) !== 1) return undefined;
  const n = copy.length;
  // The span is all kept lines, so the copy is wholly before or after the change.
  const moved = at <= edit.changeStart;
  const shifted: IntendedEdit = {
    ...edit,
    end: edit.end + n,
    changeStart: moved ? edit.changeStart + n : edit.changeStart,
    changeEnd: moved ? edit.changeEnd + n : edit.changeEnd,
  };
  const marker = leadingWhitespace(view.slice(from, to).find((l) => l.old.trim() !== "")?.old ?? "") + elisionMarker(file);
  view.splice(from, to - from, { role: "keep", old: marker, new: marker, touched: true });
  for (const i of [from - 1, from + 1]) if (view[i]) (view[i] as ViewLine).touched = true;
  return {
    view,
    content: lines.join("\n"),
    expected: applyEdit(lines, shifted).join("\n"),
    endLine: edit.end + n,
    note: `${to - from} lines elided; the ${before.length} line(s) before the marker also occur one level deeper at line ${at + 1}, inside the elided span`,
  };
}

/**
 * Negative: the removed lines (`-` in a diff) exist nowhere in the file, even
 * ignoring whitespace, while the context is real: they stand in for the
 * file's real removed lines, are extra lines next to the change, or sit where
 * the file has a blank line. A removed line is the edit itself; a careful
 * human refuses to delete or change a line that is not there. Issue 10 case 7.
 */
export function foreignMinus(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  const dels = indicesOf(view, ["del"]);
  const solid = (l: ViewLine | undefined): boolean => l?.role === "keep" && l.old.trim() !== "";
  const blanks = indicesOf(view, ["keep"]).filter((i) => view[i]?.old.trim() === "" && solid(view[i - 1]) && solid(view[i + 1]));
  const variants: ("substitute" | "extra" | "blank")[] = ["extra"];
  if (dels.length > 0) variants.push("substitute");
  if (blanks.length > 0) variants.push("blank");
  const variant = rng.pick(variants);
  const fresh = (indents: string[]): ViewLine[] =>
    makeAbsentLines(file, indents, rng).map((old) => ({ role: "del", old, new: "", touched: true }));
  if (variant === "substitute") {
    const lines = fresh(dels.map((i) => leadingWhitespace(view[i]?.old ?? "")));
    dels.forEach((i, k) => {
      view[i] = lines[k] as ViewLine;
    });
    return { view, expected: null, note: `the ${dels.length} removed line(s) exist nowhere in the file` };
  }
  if (variant === "blank") {
    const i = rng.pick(blanks);
    const indent = leadingWhitespace(view[i + 1]?.old ?? "");
    view.splice(i, 1, ...fresh(Array.from({ length: rng.int(1, 2) }, () => indent)));
    return { view, expected: null, note: "removed lines that exist nowhere, where the file has a blank line" };
  }
  const changed = indicesOf(view, ["del", "add"]);
  const at = changed[0] ?? view.findIndex(isRegion);
  const anchor = view[at];
  const indent = leadingWhitespace((anchor?.role === "add" ? anchor.new : anchor?.old) ?? "");
  const extra = fresh(Array.from({ length: rng.int(1, 2) }, () => indent));
  view.splice(at, 0, ...extra);
  return { view, expected: null, note: `${extra.length} extra removed line(s) next to the change exist nowhere in the file` };
}

/**
 * Like two-places (the region with its context copied 20+ lines away), but
 * the model gives a correct line hint: `startLine`, `:start_line:`, a
 * numbered `@@` header. A careful human edits the hinted place. A rendering
 * without a hint (`@@ @@`) must be refused (`hintDecides`).
 */
export function dupHinted(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, edit } = input;
  // Full context on both sides, so a diff's hunk matches the copy as well.
  const copy = copyRegionFar(input, rng);
  if (!copy) return undefined;
  const { lines, q, shift, before } = copy;
  const shifted: IntendedEdit = {
    ...edit,
    start: edit.start + shift,
    end: edit.end + shift,
    changeStart: edit.changeStart + shift,
    changeEnd: edit.changeEnd + shift,
  };
  const start = shifted.start + 1;
  return {
    view,
    content: lines.join("\n"),
    expected: applyEdit(lines, shifted).join("\n"),
    hint: start,
    diffStartLine: start,
    startLine: start,
    hintDecides: true,
    note: `the region is also at line ${q + before + 1} (copied there); the hint names line ${start}`,
  };
}
