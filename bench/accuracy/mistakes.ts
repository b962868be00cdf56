/**
 * One function per mistake kind: how a model gets an edit slightly wrong.
 *
 * Each takes the intended edit and the exact model view (context, kept,
 * removed and added lines) and returns the view as the model writes it, plus,
 * for mistakes about the file rather than the edit, the file as the applier
 * sees it and the expected result. A function returns `undefined` when the
 * chosen region cannot carry the mistake (no blank line to drop, no quote to
 * curl); the generator then picks another region.
 *
 * The rule for all of them: a mistake changes the model's *recollection of
 * the file* — the lines it quotes (`old`, and for a kept line also its copy in
 * the new text, since the model recalls it the same way on both sides). The
 * lines the model adds are its own new content and stay as intended, except
 * for habits that affect everything it writes (re-indentation, over-escaping).
 * Each function's comment says what a careful human would do with such an
 * edit; that is what "correct" means for the kind.
 *
 * That rule is symmetric, and so is an engine built on it: it never sees the
 * find text and the replacement disagree. Models do make one-sided mistakes
 * (a SEARCH mis-indented under a REPLACE already right, a blank line dropped
 * from the find text only, an elision marker in the replacement only), so the
 * asymmetric kinds in mistakes-asymmetric.ts and the anchoring kinds in
 * mistakes-anchors.ts break it on purpose. They are written from what a
 * careful human would do, not from how the engine works. The history
 * kinds in mistakes-history.ts keep the edit exact and change the file
 * instead: the edit made already, or the file changed since it was read.
 */

import { dupHinted, elidedBeforeChange, elidedRepeat, elidedReplace, foreignMinus } from "./mistakes-anchors.ts";
import { HELD_OUT_MISTAKES } from "./mistakes-held-out.ts";
import { resent, staleHistory } from "./mistakes-history.ts";
import {
  blankForgottenFind,
  escapedFind,
  escapedReplace,
  finalBreak,
  inconsistentIndent,
  numbersReplace,
  reindentFind,
  reindentReplace,
  replaceOverlap,
  replaceWhitespace,
  smartFind,
  smartLiteral,
} from "./mistakes-asymmetric.ts";
import {
  applyEdit,
  countSquashed,
  copyRegionFar,
  curl,
  elisionMarker,
  fileLineOf,
  indentVariants,
  indicesOf,
  type MistakeInput,
  type MistakeOutput,
  type MistakeSpec,
  regionOld,
  sameRegionOld,
  setRecalled,
  withLines,
} from "./mistake-kit.ts";
import type { Rng } from "./random.ts";
import { identifiers, leadingWhitespace, makeAbsentLines, makeWord, misrememberName, renameOneIdentifier } from "./text-gen.ts";
import type { MistakeKind, ViewLine } from "./types.ts";

export { applyEdit, countSquashed, regionNew, regionOld } from "./mistake-kit.ts";
export type { MistakeInput, MistakeOutput, MistakeSpec } from "./mistake-kit.ts";

// ---------------------------------------------------------------------------

/** No mistake: the edit quotes the file exactly. A careful human applies it. */
function none(input: MistakeInput): MistakeOutput {
  return { view: input.view, note: "the edit quotes the file exactly" };
}

/**
 * The model re-indents everything it writes — old and new text alike, with
 * relative indentation kept: it drops the block's common indentation, shifts
 * it one level deeper, or writes tabs for spaces (or spaces for tabs).
 * A careful human finds the block by its content, sees the consistent offset,
 * and writes the new lines in the file's own indentation at the same offset.
 * Correct = the intended edit in the file's indentation.
 */
function reindent(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file } = input;
  for (const variant of rng.shuffle(indentVariants(view, file, rng))) {
    const out = view.map((l) => {
      const old = variant.apply(l.old);
      // Lines the shift changes must stay in a diff's hunk (a top-level line may not change).
      return { role: l.role, old, new: variant.apply(l.new), touched: old !== l.old };
    });
    if (!sameRegionOld(out, view)) return { view: out, note: `re-indented: ${variant.note}` };
  }
  return undefined;
}

/**
 * Trailing whitespace differs: the model drops the file's trailing spaces, or
 * adds some to a few quoted lines. Invisible in most views, so a careful human
 * ignores it when matching; unchanged lines keep the file's bytes (their
 * trailing whitespace included) and added lines are written as given.
 */
function trailingWhitespace(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  const quoted = indicesOf(view, ["keep", "del"]);
  const withTrailing = quoted.filter((i) => /[ \t]$/.test(view[i]?.old ?? ""));
  if (withTrailing.length > 0) {
    for (const i of withTrailing) {
      const line = view[i] as ViewLine;
      setRecalled(line, line.old.trimEnd());
    }
    return { view, note: `trailing whitespace dropped from ${withTrailing.length} line(s)` };
  }
  const chosen = rng.shuffle(quoted).slice(0, rng.int(1, 3));
  for (const i of chosen) {
    const line = view[i] as ViewLine;
    setRecalled(line, line.old + rng.pick([" ", "  ", "\t", "    "]));
  }
  return chosen.length > 0 ? { view, note: `trailing whitespace added to ${chosen.length} line(s)` } : undefined;
}

const SPACE_EDITS: { note: string; apply: (body: string, rng: Rng) => string }[] = [
  { note: "aligned spaces collapsed", apply: (b) => b.replace(/(\S) {2,}/g, "$1 ") },
  { note: "space after comma dropped", apply: (b) => b.replace(/, (?=\S)/g, ",") },
  { note: "spaces around = dropped", apply: (b) => b.replace(/ = /g, "=") },
  { note: "spaces added inside parentheses", apply: (b) => b.replace(/\((?=[^\s)])/g, "( ").replace(/(?<=[^\s(])\)/g, " )") },
  { note: "space added after comma", apply: (b) => b.replace(/,(?=\S)/g, ", ") },
  {
    note: "one space doubled",
    apply: (b, rng) => {
      const spaces = [...b.matchAll(/(?<=\S) (?=\S)/g)].map((m) => m.index ?? 0);
      if (spaces.length === 0) return b;
      const at = rng.pick(spaces);
      return `${b.slice(0, at)}  ${b.slice(at + 1)}`;
    },
  },
];

/**
 * Spaces collapsed or added inside one or two quoted lines (`a = b` -> `a=b`,
 * `f(a, b)` -> `f( a, b )`). Leading indentation is untouched. A careful human
 * matches with inner whitespace runs ignored; unchanged lines keep the file's
 * spacing, added lines are written as given.
 */
function innerSpaces(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  const notes: string[] = [];
  const wanted = rng.int(1, 2);
  for (const i of rng.shuffle(indicesOf(view, ["keep", "del"]))) {
    if (notes.length >= wanted) break;
    const line = view[i] as ViewLine;
    const lead = leadingWhitespace(line.old);
    const body = line.old.slice(lead.length);
    for (const edit of rng.shuffle(SPACE_EDITS)) {
      const changed = edit.apply(body, rng);
      if (changed !== body) {
        setRecalled(line, lead + changed);
        notes.push(edit.note);
        break;
      }
    }
  }
  return notes.length > 0 ? { view, note: `inner spaces: ${notes.join("; ")}` } : undefined;
}

/**
 * A blank line inside the quoted text is missing, or an extra one appears
 * between two quoted lines (on both sides, as the model recalls the block
 * that way), always between lines the edit keeps. A careful human treats blank lines as layout: matches without
 * them and keeps the file's blank lines where the edit does not change text.
 */
function blankLine(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  // Only next to kept lines: a blank line missing (or extra) right beside an
  // inserted line leaves even a careful human unsure on which side it goes.
  const calm = (i: number): boolean => view[i - 1]?.role === "keep" && view[i + 1]?.role === "keep";
  const blanks = indicesOf(view, ["keep"]).filter((i) => view[i]?.old.trim() === "" && calm(i));
  if (blanks.length > 0 && rng.chance(0.5)) {
    const i = rng.pick(blanks);
    view.splice(i, 1);
    for (const neighbour of [view[i - 1], view[i]]) if (neighbour) neighbour.touched = true;
    return { view, note: "a blank line of the file is missing from the quoted text" };
  }
  const slots: number[] = [];
  for (let i = 1; i < view.length; i++) {
    const a = view[i - 1] as ViewLine;
    const b = view[i] as ViewLine;
    if (a.role === "keep" && b.role === "keep" && a.old.trim() !== "" && b.old.trim() !== "") {
      slots.push(i);
    }
  }
  if (slots.length === 0) return undefined;
  view.splice(rng.pick(slots), 0, { role: "keep", old: "", new: "", touched: true });
  return { view, note: "an extra blank line appears in the quoted text" };
}

/**
 * The model over-escapes everything it writes, one level, as if its text
 * went through JSON twice: line breaks as literal `\n`, quotes as `\"`,
 * backslashes doubled, tabs as `\t` (diffs keep their line structure and
 * escape each line). A careful human unescapes both the old and the new text
 * once and applies the result. Only regions holding a `"` are used, so every
 * format is affected.
 */
function overEscaped(input: MistakeInput): MistakeOutput | undefined {
  if (!regionOld(input.view).some((l) => l.includes('"'))) return undefined;
  // Keep a quoted line in a diff's hunk, where per-line escaping shows.
  for (const line of input.view) if (line.role !== "ctx" && /["\\\t]/.test(line.old + line.new)) line.touched = true;
  return { view: input.view, escaped: "both", note: 'old and new text over-escaped (\\n, \\", \\\\ literally)' };
}

/**
 * The model's quoted text has typographic quotes and dashes (“ ” ‘ ’ — –)
 * where the file has ASCII ones, as text that went through a chat renderer.
 * A careful human reads them as the ASCII characters; unchanged lines keep
 * the file's ASCII, added lines are written as given (in ASCII).
 */
function smartPunctuation(input: MistakeInput): MistakeOutput | undefined {
  const view = input.view;
  for (const line of view) {
    if (line.role === "add") continue;
    // Every quoted line is recalled this way; the ones it changes must stay in a diff's hunk.
    const curled = curl(line.old);
    setRecalled(line, curled, curled !== line.old);
  }
  return view.some((l) => l.role !== "add" && l.role !== "ctx" && /[\u2018\u2019\u201c\u201d\u2013\u2014]/.test(l.old))
    ? { view, note: "quotes and dashes written typographically" }
    : undefined;
}

/**
 * Line-number prefixes pasted from a numbered view (`12 | code`,
 * `    12→code`, `12\tcode`) on every quoted line; in half the cases also on
 * the new text, numbered as the new file would be. A careful human strips
 * them (they are on every line, so they are not content) and applies the rest.
 */
function lineNumbers(input: MistakeInput, rng: Rng): MistakeOutput {
  const view = input.view;
  const style = rng.pick([
    { note: "`N | `", add: (n: number, l: string) => `${n} | ${l}` },
    { note: "`N→` (cat -n with arrow)", add: (n: number, l: string) => `${String(n).padStart(6)}\u2192${l}` },
    { note: "`N<tab>`", add: (n: number, l: string) => `${n}\t${l}` },
  ]);
  const numbers = fileLineOf(view, input.edit);
  const alsoNew = rng.chance(0.5);
  let newNumber = input.edit.start + 1;
  view.forEach((line, i) => {
    const n = numbers[i];
    if (n !== undefined) line.old = style.add(n + 1, line.old);
    if (line.role === "ctx") line.new = line.old;
    else if (line.role !== "del") {
      if (alsoNew) line.new = style.add(newNumber, line.new);
      newNumber++;
    }
  });
  return { view, note: `line-number prefixes ${style.note} on the old text${alsoNew ? " and the new text" : ""}` };
}

/**
 * The model elides an unchanged middle of a long block with
 * `// ... existing code ...` in both the old and the new text. A careful human
 * locates the quoted lines before and after the marker (each side occurs once
 * in the file), takes the marker to stand for the file's
 * lines between them, unchanged, and applies the edit to the quoted lines.
 */
function elidedMiddle(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  // The marker must sit between quoted lines on both sides: a marker that
  // ends the old text would leave nothing after it to anchor on.
  const quoted = indicesOf(view, ["keep", "del"]);
  const first = quoted[0] ?? 0;
  const last = quoted[quoted.length - 1] ?? 0;
  // Runs of kept lines strictly between the first and last quoted lines.
  const runs: [number, number][] = [];
  let runStart = -1;
  for (let i = first + 1; i < last; i++) {
    if (view[i]?.role === "keep") {
      if (runStart < 0) runStart = i;
    } else if (runStart >= 0) {
      runs.push([runStart, i]);
      runStart = -1;
    }
  }
  if (runStart >= 0) runs.push([runStart, last]);
  const usable = runs.filter(([a, b]) => b - a >= 3);
  if (usable.length === 0) return undefined;
  const [a, b] = rng.pick(usable);
  const from = a + (b - a > 4 ? rng.int(0, 1) : 0);
  const to = b - (b - from > 4 ? rng.int(0, 1) : 0);
  const indent = leadingWhitespace(view.slice(from, to).find((l) => l.old.trim() !== "")?.old ?? "");
  const marker = indent + elisionMarker(input.file);
  const before = view.slice(first, from).filter((l) => l.role !== "add").map((l) => l.old);
  const after = view.slice(to, last + 1).filter((l) => l.role !== "add").map((l) => l.old);
  // Both sides must be unique: the marker stands for an unknown number of
  // lines, so a repeated tail (`],`) would leave the end of the block open.
  if (countSquashed(input.file, before) !== 1 || countSquashed(input.file, after) !== 1) return undefined;
  view.splice(from, to - from, { role: "keep", old: marker, new: marker, touched: true });
  return { view, note: `${to - from} unchanged lines elided with "${elisionMarker(input.file)}"` };
}

/**
 * One identifier in ONE unchanged quoted line is misremembered (`options` as
 * `opts`, a plural, a capital), on both sides. The other lines still match
 * one place exactly, so a careful human recognises the differing line as the
 * same line and keeps the file's real one, since the edit does not change it.
 */
function misrememberedToken(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit } = input;
  const numbers = fileLineOf(view, edit);
  const kept = indicesOf(view, ["keep"]).filter((i) => identifiers(view[i]?.old ?? "").length > 0);
  const quoted = regionOld(view).filter((l) => l.trim() !== "");
  if (kept.length === 0 || quoted.length < 3) return undefined;
  const i = rng.pick(kept);
  const line = view[i] as ViewLine;
  const changed = renameOneIdentifier(line.old, rng, (name) => misrememberName(name, rng));
  if (changed === undefined) return undefined;
  const fileLine = numbers[i] as number;
  const pattern = file.lines.slice(edit.start, edit.end).map((l, k) => (edit.start + k === fileLine ? null : l));
  if (countSquashed(file, pattern) !== 1) return undefined;
  setRecalled(line, changed);
  return { view, note: `line ${fileLine + 1} quoted with one token misremembered` };
}

/**
 * The file changed near the target since the model read it: a line inside the
 * region that the edit does not change, or one just outside it, was edited
 * (a rename, an added comment). The model's text is its stale view. A careful
 * human sees every other line match, applies the edit's changes, and keeps the
 * concurrent change. Correct = the intended edit applied to the changed file.
 */
function fileChanged(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit, realLineCount } = input;
  const numbers = fileLineOf(view, edit);
  const inside = indicesOf(view, ["keep"])
    .map((i) => numbers[i] as number)
    .filter((n) => file.lines[n]?.trim() !== "");
  const outside = [edit.start - 2, edit.start - 1, edit.end, edit.end + 1].filter(
    (n) => n >= 0 && n < realLineCount && file.lines[n]?.trim() !== "",
  );
  const pool = inside.length > 0 && (outside.length === 0 || rng.chance(0.6)) ? inside : outside;
  if (pool.length === 0) return undefined;
  const target = rng.pick(pool);
  const original = file.lines[target] ?? "";
  let changed: string | undefined;
  if ((file.language === "js" || file.language === "ts") && rng.chance(0.4) && !original.includes("//")) {
    changed = `${original} // ${makeWord(rng)}`;
  } else {
    const suffix = rng.pick(["Next", "Resolved", "Local", "Value"]);
    changed = renameOneIdentifier(original, rng, (name) => name + suffix);
  }
  if (changed === undefined || changed === original) return undefined;
  const stale = view[numbers.indexOf(target)];
  if (stale) stale.touched = true;
  const lines = file.lines.slice();
  lines[target] = changed;
  const changedFile = withLines(file, lines);
  if (target >= edit.start && target < edit.end) {
    if (countSquashed(changedFile, lines.slice(edit.start, edit.end).map((l, k) => (edit.start + k === target ? null : l))) !== 1) {
      return undefined;
    }
  }
  return {
    view,
    content: lines.join("\n"),
    expected: applyEdit(lines, edit).join("\n"),
    note: `line ${target + 1} (${target >= edit.start && target < edit.end ? "inside" : "next to"} the region) changed since the model read the file`,
  };
}

/**
 * The file uses CRLF; the model writes LF text. A careful human treats line
 * endings as not part of the text and writes the new lines with CRLF like the
 * rest of the file. Correct = the intended edit with CRLF everywhere.
 */
function crlfFile(input: MistakeInput): MistakeOutput {
  const content = input.file.text.replaceAll("\n", "\r\n");
  return {
    view: input.view,
    content,
    expected: applyEdit(input.file.lines, input.edit).join("\r\n"),
    note: "the file has CRLF line endings, the edit LF",
  };
}

/**
 * The line hint (`:start_line:`, a diff header, `startLine`) is 5–60 lines
 * off. The quoted text is unique, so a careful human ignores the hint: it is
 * only a tie-breaker.
 */
function wrongLineHint(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const start = input.edit.start + 1;
  const offset = rng.int(5, 60) * (rng.chance(0.5) ? 1 : -1);
  for (const hint of [start + offset, start - offset]) {
    if (hint >= 1 && hint <= input.realLineCount) {
      return { view: input.view, hint, diffStartLine: hint, note: `line hint ${hint}, ${Math.abs(hint - start)} lines off` };
    }
  }
  return undefined;
}

/**
 * Negative: the old text is absent — every quoted line (context included) is
 * generated and occurs nowhere in the file, even ignoring whitespace, as when
 * the model confuses files. A careful human refuses.
 */
function absent(input: MistakeInput, rng: Rng): MistakeOutput {
  const view = input.view;
  const quoted = view.filter((l) => l.role !== "add");
  const fresh = makeAbsentLines(
    input.file,
    quoted.map((l) => leadingWhitespace(l.old)),
    rng,
  );
  quoted.forEach((line, k) => {
    setRecalled(line, fresh[k] ?? "");
  });
  return { view, expected: null, note: "the quoted text occurs nowhere in the file" };
}

/**
 * Negative: the target region (with its diff context) is copied to a second
 * place in the file first, so the file really has two equal places and
 * nothing in the edit tells them apart; a numbered diff header points midway
 * between them. A careful human refuses and lists both.
 */
function twoPlaces(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, edit } = input;
  const copy = copyRegionFar(input, rng);
  if (!copy) return undefined;
  const { lines, q, shift, before } = copy;
  const start = edit.start + shift + 1;
  // The copy's region starts `before` lines into the copy, wherever it went.
  const other = q + before + 1;
  return {
    view,
    content: lines.join("\n"),
    expected: null,
    hint: null,
    startLine: start,
    diffStartLine: Math.round((start + other) / 2),
    note: `the region is also at line ${other} (copied there), two equal places`,
  };
}

/**
 * Negative: the first and last quoted lines are real, the middle (at least
 * three lines) exists nowhere in the file — the model edits a version of the
 * code that is not there. Anchoring on the ends alone would overwrite lines
 * the model never saw, so a careful human refuses.
 */
function middleNowhere(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const view = input.view;
  const quoted = indicesOf(view, ["keep", "del"]);
  const middle = quoted.slice(1, -1);
  if (middle.length < 3) return undefined;
  const fresh = makeAbsentLines(
    input.file,
    middle.map((i) => leadingWhitespace(view[i]?.old ?? "")),
    rng,
  );
  middle.forEach((i, k) => {
    setRecalled(view[i] as ViewLine, fresh[k] ?? "");
  });
  return { view, expected: null, note: `first and last quoted lines are real, the ${middle.length} between them exist nowhere` };
}

/** The slips `compound` combines, in the order a model makes them (numbers last: they prefix the line as written). */
const COMPOUNDABLE: { name: string; make: (input: MistakeInput, rng: Rng) => MistakeOutput | undefined }[] = [
  { name: "misremembered-token", make: misrememberedToken },
  { name: "inner-spaces", make: innerSpaces },
  { name: "trailing-whitespace", make: trailingWhitespace },
  { name: "smart-punctuation", make: smartPunctuation },
  { name: "blank-line", make: blankLine },
  { name: "reindent", make: reindent },
  { name: "line-numbers", make: lineNumbers },
];

/**
 * Two or three of the known slips at once (wrong indentation and a typo and
 * line numbers, ...), each on the view the one before left. A careful human
 * undoes each as for the kind alone. Correct = the intended edit. Blank
 * lines and line numbers are not combined (the numbers count file lines).
 * A region must keep a unique squashed text without the misremembered line.
 */
function compound(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const count = rng.chance(0.6) ? 2 : 3;
  const picked = rng.shuffle(COMPOUNDABLE).slice(0, count);
  if (picked.some((p) => p.name === "blank-line") && picked.some((p) => p.name === "line-numbers")) return undefined;
  const ordered = COMPOUNDABLE.filter((p) => picked.includes(p));
  let view = input.view;
  const notes: string[] = [];
  for (const slip of ordered) {
    const out = slip.make({ ...input, view }, rng);
    if (!out) return undefined;
    view = out.view;
    notes.push(out.note);
  }
  return { view, note: `compound: ${notes.join("; ")}` };
}

export const MISTAKES: Record<MistakeKind, MistakeSpec> = {
  ...HELD_OUT_MISTAKES,
  compound: { minLines: 3, make: compound },
  none: { minLines: 1, make: none },
  reindent: { minLines: 1, make: reindent },
  "trailing-whitespace": { minLines: 1, make: trailingWhitespace },
  "inner-spaces": { minLines: 1, make: innerSpaces },
  "blank-line": { minLines: 2, make: blankLine },
  "over-escaped": { minLines: 1, make: overEscaped },
  "smart-punctuation": { minLines: 1, make: smartPunctuation },
  "line-numbers": { minLines: 1, make: lineNumbers },
  "elided-middle": { minLines: 8, make: elidedMiddle },
  "misremembered-token": { minLines: 3, make: misrememberedToken },
  "file-changed": { minLines: 2, make: fileChanged },
  "crlf-file": { minLines: 1, make: crlfFile },
  "wrong-line-hint": { minLines: 1, make: wrongLineHint },
  "reindent-find": { minLines: 1, make: reindentFind },
  "reindent-replace": { minLines: 1, make: reindentReplace },
  "inconsistent-indent": { minLines: 2, make: inconsistentIndent },
  "blank-forgotten-find": { minLines: 3, make: blankForgottenFind },
  "elided-replace": { minLines: 5, make: elidedReplace },
  "elided-before-change": { minLines: 4, make: elidedBeforeChange },
  "elided-repeat": { minLines: 8, make: elidedRepeat },
  "smart-find": { minLines: 1, make: smartFind },
  "smart-literal": { minLines: 1, make: smartLiteral },
  "dup-hinted": { minLines: 2, make: dupHinted },
  "escaped-find": { minLines: 1, make: escapedFind },
  "escaped-replace": { minLines: 1, make: escapedReplace },
  "numbers-replace": { minLines: 1, make: numbersReplace },
  "final-break": { minLines: 1, make: finalBreak },
  "replace-whitespace": { minLines: 1, make: replaceWhitespace },
  "replace-overlap": { minLines: 1, make: replaceOverlap },
  resent: { minLines: 1, make: resent },
  "stale-history": { minLines: 1, make: staleHistory },
  absent: { minLines: 1, make: absent },
  "two-places": { minLines: 2, make: twoPlaces },
  "middle-nowhere": { minLines: 5, make: middleNowhere },
  "foreign-minus": { minLines: 1, make: foreignMinus },
};
