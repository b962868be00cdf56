/**
 * Held-out kinds (issue 32): classes the engine was not tuned on, written
 * from what a careful human does with them, added to see them fail first.
 *
 * - `blank-forgotten-edge`: blank lines the find text forgot (next to the
 *   change, whitespace-only, or two of them) while the replacement keeps
 *   them: written once, never doubled.
 * - `elided-replace-anchored`: an exact find text, a replacement that elides
 *   unchanged lines with a marker (`...`, `// ... existing code ...`,
 *   `# ... rest unchanged`) whose neighbours are lines of the find text once
 *   each, or which opens or closes the replacement next to one: filled from
 *   the matched text. A refusal is wrong here.
 * - `compound`: two or three of the known slips at once.
 * - `reindent-whole`: an exact find text and a replacement shifted as a whole
 *   by one indentation (un-shifted, the named exception) or nesting the lines
 *   after its first one deeper (the model's nesting, written as sent).
 * - `v4a-two-in-scope`: a V4A chunk whose old side stands twice inside the
 *   scope of its `@@` anchor line: AMBIGUOUS.
 */

import {
  indicesOf,
  isRegion,
  type MistakeInput,
  type MistakeOutput,
  type MistakeSpec,
  regionNew,
  regionOld,
} from "./mistake-kit.ts";
import { escapedReplace, finalBreak, numbersReplace, replaceWhitespace } from "./mistakes-asymmetric.ts";
import type { Rng } from "./random.ts";
import { commentLeader, leadingWhitespace } from "./text-gen.ts";
import type { ViewLine } from "./types.ts";

const TWO_STRING_FORMATS = ["str_replace", "search_replace"] as const;

/**
 * Blank lines of the file missing from the find text and kept in the
 * replacement (a `+` blank line where the file has one, in a diff), at
 * least one of them next to a changed line, whitespace-only, or two at
 * once. The replacement says where each stands, so a careful human writes
 * each once. Correct = the intended edit.
 */
function blankForgottenEdge(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  const text = (l: ViewLine | undefined): boolean => l !== undefined && isRegion(l) && (l.role === "add" ? l.new : l.old).trim() !== "";
  const blanks = indicesOf(view, ["keep"]).filter((i) => view[i]?.old.trim() === "" && text(view[i - 1]) && text(view[i + 1]));
  if (blanks.length === 0) return undefined;
  const chosen = rng.shuffle(blanks).slice(0, rng.chance(0.5) ? 2 : 1);
  const nearChange = (i: number): boolean => [view[i - 1], view[i + 1]].some((l) => l?.role === "del" || l?.role === "add");
  const heldOut = chosen.length === 2 || chosen.some((i) => nearChange(i) || view[i]?.old !== "");
  if (!heldOut) return undefined;
  // The find text must still need the blank lines to be exact: without them it is not the file's text.
  for (const i of chosen) {
    const line = view[i] as ViewLine;
    view[i] = { role: "add", old: "", new: line.new, touched: true };
    for (const neighbour of [view[i - 1], view[i + 1]]) if (neighbour) neighbour.touched = true;
  }
  if (input.file.text.includes(regionOld(view).join("\n"))) return undefined;
  const where = chosen.map((i) => (nearChange(i) ? "next to the change" : view[i]?.new !== "" ? "whitespace-only" : "between kept lines"));
  return { view, note: `${chosen.length} blank line(s) missing from the find text, kept in the replacement (${where.join(", ")})` };
}

/** Markers a model writes for lines it left out (the words vary; bare `...` too). */
function markerFor(input: MistakeInput, rng: Rng): string {
  const leader = input.file.language === "md" ? "" : commentLeader(input.file) || "//";
  if (input.file.language === "md") return rng.pick(["<!-- ... existing content ... -->", "<!-- ... -->"]);
  return rng.pick(["...", `${leader} ... existing code ...`, `${leader} ... rest unchanged`, `${leader} ...`]);
}

/**
 * The find text quotes the region exactly; the replacement elides a run of
 * two or more unchanged lines with a marker. Anchored: the lines next to
 * the marker stand once each in the find text (a marker that opens or
 * closes the replacement needs its one neighbour), so which lines it stands
 * for is certain. A careful human writes those lines back. Correct = the
 * intended edit (no refusal: the lines are known). str_replace and
 * SEARCH/REPLACE.
 */
function elidedReplaceAnchored(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view } = input;
  const quoted = regionOld(view);
  const once = (t: string | undefined): boolean => t !== undefined && t.trim() !== "" && quoted.filter((q) => q.trim() === t.trim()).length === 1;
  const region = view.flatMap((l, i) => (isRegion(l) ? [i] : []));
  const first = region[0] ?? 0;
  const last = region[region.length - 1] ?? 0;
  const choices: [number, number][] = [];
  for (let from = first; from <= last; from++) {
    for (let to = from + 2; to <= last + 1; to++) {
      const run = view.slice(from, to);
      if (run.some((l) => l.role !== "keep") || !run.some((l) => l.new.trim() !== "")) continue;
      const before = view[from - 1];
      const after = view[to];
      const anchoredBefore = from === first || (before?.role === "keep" && once(before.old));
      const anchoredAfter = to === last + 1 || (after?.role === "keep" && once(after.old));
      // A bare `...` only between two anchors (elsewhere it is code: Python's Ellipsis).
      if (anchoredBefore && anchoredAfter && !(from === first && to === last + 1)) choices.push([from, to]);
    }
  }
  if (choices.length === 0) return undefined;
  const [from, to] = rng.pick(choices);
  let marker = markerFor(input, rng);
  if (marker === "..." && (from === first || to === last + 1)) marker = `${commentLeader(input.file) || "//"} ... existing code ...`;
  const indent = leadingWhitespace(view.slice(from, to).find((l) => l.new.trim() !== "")?.new ?? "");
  const newSide = view.flatMap((l, i) => (i === from ? [indent + marker] : i > from && i < to ? [] : l.role === "keep" || l.role === "add" ? [l.new] : []));
  const out: ViewLine[] = view.filter((l) => l.role === "ctx" && view.indexOf(l) < first);
  for (const text of quoted) out.push({ role: "del", old: text, new: "" });
  for (const text of newSide) out.push({ role: "add", old: "", new: text, touched: true });
  out.push(...view.slice(last + 1));
  return { view: out, onlyFormats: TWO_STRING_FORMATS, note: `${to - from} unchanged lines elided in the replacement with "${marker}", anchored` };
}

/**
 * The find text is exact; the replacement is re-indented against it. Two
 * readings, each by the rule 2:
 * - shifted as a whole: every non-blank line of the replacement (kept and
 *   added) one level deeper, none left at the find text's own level, no new
 *   line opening a block. No model means it: Correct = the intended edit.
 * - nested: the first line kept where it is, the rest one level deeper (the
 *   model wraps them). Written as sent: Correct = the literal replacement.
 * str_replace and SEARCH/REPLACE (a diff's kept lines are context, one text).
 */
function reindentWhole(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit } = input;
  const unit = file.indentUnit;
  const regionLines = view.filter((l) => l.role === "keep" || l.role === "add");
  if (regionLines.filter((l) => l.new.trim() !== "").length < 2) return undefined;
  const nested = rng.chance(0.5);
  if (!nested) {
    if (regionLines.some((l) => l.role === "add" && /[{([:]\s*$|=>\s*$/.test(l.new))) return undefined;
    for (const line of regionLines) {
      if (line.new.trim() === "") continue;
      line.new = unit + line.new;
      line.touched = true;
    }
    return { view, wholeShift: true, onlyFormats: TWO_STRING_FORMATS, note: "the whole replacement one level deeper than the exact find text (shift undone)" };
  }
  const firstText = regionLines.findIndex((l) => l.new.trim() !== "");
  if (regionLines[firstText]?.role !== "keep") return undefined;
  regionLines.forEach((line, k) => {
    if (k <= firstText || line.new.trim() === "") return;
    line.new = unit + line.new;
    line.touched = true;
  });
  // As sent: the region's replacement text spliced over the region's lines.
  const lines = file.lines;
  const expected = [...lines.slice(0, edit.start), ...regionNew(view), ...lines.slice(edit.end)].join("\n");
  return { view, expected, onlyFormats: TWO_STRING_FORMATS, note: "first line kept, the rest nested one level deeper (written as sent)" };
}

/** Whether line `at` opens a block: the next non-blank line is deeper. */
function opensBlock(lines: readonly string[], at: number): boolean {
  const depth = leadingWhitespace(lines[at] ?? "").length;
  for (let i = at + 1; i < lines.length; i++) if ((lines[i] ?? "").trim() !== "") return leadingWhitespace(lines[i] ?? "").length > depth;
  return false;
}

/**
 * Negative, V4A only: the chunk's `@@` line names the block header that
 * encloses the region (a unique line of the file, shallower than every
 * line of the chunk), and the chunk's old side (context included) is
 * copied right after the original, inside the same block. Both places are
 * in the anchor's scope and nothing tells them apart: a careful human
 * refuses (AMBIGUOUS), where Codex takes the first.
 */
function v4aTwoInScope(input: MistakeInput): MistakeOutput | undefined {
  const { view, file, edit } = input;
  const lines = file.lines;
  const before = view.findIndex(isRegion);
  const windowStart = edit.start - before;
  const old = view.filter((l) => l.role !== "add").map((l) => l.old);
  const windowEnd = windowStart + old.length;
  const depth = Math.min(...old.filter((l) => l.trim() !== "").map((l) => leadingWhitespace(l).length));
  let anchor = -1;
  for (let i = windowStart - 1; i >= 0; i--) {
    const l = lines[i] ?? "";
    if (l.trim() === "") continue;
    const d = leadingWhitespace(l).length;
    if (d < depth) {
      anchor = i;
      break;
    }
  }
  const header = lines[anchor] ?? "";
  if (anchor < 0 || !opensBlock(lines, anchor) || header.trim().length < 6) return undefined;
  if (lines.filter((l) => l.trim() === header.trim()).length !== 1) return undefined;
  // The block must run past the window, so the copy after it stays inside.
  const headerDepth = leadingWhitespace(header).length;
  let next = windowEnd;
  while (next < lines.length && (lines[next] ?? "").trim() === "") next++;
  if (next >= lines.length || leadingWhitespace(lines[next] ?? "").length <= headerDepth) return undefined;
  const copied = [...lines.slice(0, windowEnd), ...old, ...lines.slice(windowEnd)];
  return {
    view,
    content: copied.join("\n"),
    expected: null,
    anchor: header.trim(),
    onlyFormats: ["v4a"],
    note: `the chunk's old side stands twice inside the scope of "@@ ${header.trim()}" (copied right after the original)`,
  };
}

/**
 * A replacement-side slip (`make`) with a find-side one on top: trailing
 * blank space added to one or two quoted lines of the find text only, so
 * the find text is no longer exact and the engine's readings of the
 * replacement (whitespace kind, final break, numbers, escapes) decide
 * again: exact edits are literal (issue 32), these are not. What each rule
 * decides is measured on these kinds (docs/rules.md). Correct = the intended
 * edit, as for the slip alone.
 */
function withFindSlip(make: (input: MistakeInput, rng: Rng) => MistakeOutput | undefined) {
  return (input: MistakeInput, rng: Rng): MistakeOutput | undefined => {
    const out = make(input, rng);
    if (!out) return undefined;
    const quoted = out.view.flatMap((l, i) => ((l.role === "keep" || l.role === "del") && l.old.trim() !== "" ? [i] : []));
    if (quoted.length === 0) return undefined;
    for (const i of rng.shuffle(quoted).slice(0, rng.int(1, 2))) {
      const line = out.view[i] as ViewLine;
      line.old += rng.pick([" ", "  ", "\t"]);
      line.touched = true;
    }
    if (input.file.text.includes(regionOld(out.view).join("\n"))) return undefined;
    return { ...out, note: `${out.note}; trailing blank space added to the find text only` };
  };
}

/**
 * A final break on the find text only (final-break) with the find text, one
 * line, over-escaped (its break written `\\n`) and starting after the
 * line's indentation: a range match, not a line match, where the final
 * break decides whether the edited line stays a line. Trailing blank space
 * (withFindSlip) gives a line match, which keeps the file's lines anyway.
 * Correct = the intended edit.
 */
function finalBreakEscaped(input: MistakeInput): MistakeOutput | undefined {
  const out = finalBreak(input);
  const old = regionOld(input.view);
  // One line: a longer find text is read as whole lines once un-escaped, and the merge keeps them lines.
  if (!out || old.length !== 1) return undefined;
  // Quoted from after the first line's indentation, as agents do: the match starts inside a line.
  const first = out.view.find(isRegion);
  if (first?.role !== "keep" || leadingWhitespace(first.old) === "") return undefined;
  first.old = first.old.trimStart();
  first.new = first.new.trimStart();
  first.touched = true;
  return { ...out, escaped: "find", note: `${out.note}; the find text over-escaped onto one line, from after its first line's indentation` };
}

export const HELD_OUT_MISTAKES = {
  "replace-whitespace-slip": { minLines: 1, make: withFindSlip(replaceWhitespace) },
  "final-break-slip": { minLines: 1, maxLines: 1, make: (input: MistakeInput) => finalBreakEscaped(input) },
  "numbers-replace-slip": { minLines: 1, make: withFindSlip(numbersReplace) },
  "escaped-replace-slip": { minLines: 1, make: withFindSlip(escapedReplace) },
  "blank-forgotten-edge": { minLines: 3, make: blankForgottenEdge },
  "elided-replace-anchored": { minLines: 5, make: elidedReplaceAnchored },
  "reindent-whole": { minLines: 2, make: reindentWhole },
  "v4a-two-in-scope": { minLines: 1, make: v4aTwoInScope },
} satisfies Record<string, MistakeSpec>;
