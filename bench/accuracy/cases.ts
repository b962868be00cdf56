/**
 * Case generation: pick a file and a target region, make an intended edit in
 * the file's own conventions, then let one mistake kind distort how the model
 * writes it.
 *
 * Region rules: 1–15 lines, not starting or ending on a blank line, unique in
 * the file both exactly and with all whitespace ignored (so a careful human
 * could always find it again through whitespace mistakes), no line that looks
 * like a SEARCH/REPLACE marker. The mistake kind is chosen round-robin by case
 * index, so every kind gets the same share of cases.
 */

import type { Corpus, CorpusFile } from "./corpus.ts";
import { applyEdit, countSquashed, MISTAKES } from "./mistakes.ts";
import { createRng, hashSeed, type Rng } from "./random.ts";
import { identifiers, leadingWhitespace, makeLine, makeWord } from "./text-gen.ts";
import type { BenchCase, EditKind, Format, IntendedEdit, ViewLine } from "./types.ts";
import { FORMATS, isNegativeKind, MISTAKE_KINDS, runsIn } from "./types.ts";

const MAX_REGION_LINES = 15;
const CONTEXT_LINES = 3;
const MARKER_LINE = /^(<{7}|={7}|>{7}|-{7})/;

/** Lines that are real file lines (the "" after a final newline is not one). */
export function realLineCount(file: CorpusFile): number {
  return file.text.endsWith("\n") ? file.lines.length - 1 : file.lines.length;
}

function countExact(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** A region `[start, end)` satisfying the rules above, or undefined after a few tries. */
export function pickRegion(file: CorpusFile, rng: Rng, minLines: number, maxLines = MAX_REGION_LINES): [number, number] | undefined {
  const real = realLineCount(file);
  // Keep clear of the last lines when the file has no final newline, so no
  // diff needs a "\ No newline at end of file" marker.
  const limit = file.text.endsWith("\n") ? real : real - CONTEXT_LINES - 1;
  for (let attempt = 0; attempt < 40; attempt++) {
    const length = Math.min(maxLines, rng.int(minLines, rng.chance(0.6) ? Math.max(minLines, 8) : MAX_REGION_LINES));
    if (length > limit) return undefined;
    const start = rng.int(0, limit - length);
    const end = start + length;
    const lines = file.lines.slice(start, end);
    if (lines[0]?.trim() === "" || lines[lines.length - 1]?.trim() === "") continue;
    if (lines.some((l) => MARKER_LINE.test(l))) continue;
    if (lines.join("").replace(/\s+/g, "").length < 12) continue;
    if (countExact(file.text, lines.join("\n")) !== 1) continue;
    if (countSquashed(file, lines) !== 1) continue;
    return [start, end];
  }
  return undefined;
}

/** A changed version of a line in the file's style: a renamed name, a new number, an appended phrase. */
function modifyLine(line: string, file: CorpusFile, rng: Rng): string {
  const lead = leadingWhitespace(line);
  const body = line.slice(lead.length);
  const ids = identifiers(body);
  const numbers = [...body.matchAll(/\b\d+\b/g)];
  const options: (() => string)[] = [];
  if (ids.length > 0) {
    options.push(() => {
      const id = rng.pick(ids);
      const suffix = rng.pick(["Next", "Value", "Count", "List", "Result", "Async"]);
      return lead + body.slice(0, id.index) + id.text + suffix + body.slice(id.index + id.text.length);
    });
  }
  if (numbers.length > 0) {
    options.push(() => {
      const m = rng.pick(numbers);
      const at = m.index ?? 0;
      return `${lead}${body.slice(0, at)}${Number(m[0]) + rng.int(1, 9)}${body.slice(at + m[0].length)}`;
    });
  }
  if (file.language === "md" || options.length === 0) {
    options.push(() => `${lead}${body} ${makeWord(rng)} ${makeWord(rng)}`);
  }
  return rng.pick(options)();
}

/** Indentation for a line inserted after `previous`: one level deeper after an opener. */
function insertIndent(previous: string, unit: string): string {
  const lead = leadingWhitespace(previous);
  return /[{([]\s*$|=>\s*$|:\s*$/.test(previous) ? lead + unit : lead;
}

/** An intended edit on region `[start, end)`: modify, insert, delete or replace a block. */
export function makeEdit(file: CorpusFile, start: number, end: number, rng: Rng): IntendedEdit | undefined {
  const lines = file.lines;
  const length = end - start;
  const roll = rng.next();
  let kind: EditKind = roll < 0.35 ? "modify" : roll < 0.6 ? "insert" : roll < 0.75 ? "delete" : "replace";
  if (length === 1 && (kind === "delete" || kind === "replace")) kind = "modify";
  const nonBlank = (i: number): boolean => (lines[i] ?? "").trim() !== "";
  let changeStart: number;
  let changeEnd: number;
  let replacement: string[];
  switch (kind) {
    case "modify": {
      const candidates = [];
      for (let i = start; i < end; i++) if (nonBlank(i)) candidates.push(i);
      changeStart = rng.pick(candidates);
      changeEnd = changeStart + 1;
      replacement = [modifyLine(lines[changeStart] ?? "", file, rng)];
      break;
    }
    case "insert": {
      // Insert after a region line, so at least one quoted line anchors it.
      changeStart = rng.int(start + 1, end);
      changeEnd = changeStart;
      let previous = start;
      for (let i = changeStart - 1; i >= start; i--) {
        if (nonBlank(i)) {
          previous = i;
          break;
        }
      }
      const indent = insertIndent(lines[previous] ?? "", file.indentUnit);
      replacement = Array.from({ length: rng.int(1, 3) }, () => indent + makeLine(file, rng));
      break;
    }
    case "delete": {
      const count = rng.int(1, Math.min(3, length - 1));
      changeStart = rng.int(start, end - count);
      changeEnd = changeStart + count;
      replacement = [];
      break;
    }
    default: {
      const count = rng.int(1, Math.min(4, length - 1));
      changeStart = rng.int(start, end - count);
      changeEnd = changeStart + count;
      const block = lines.slice(changeStart, changeEnd);
      const indent = leadingWhitespace(block.find((l) => l.trim() !== "") ?? "");
      replacement = Array.from({ length: rng.int(1, 4) }, (_, k) => {
        const source = block[k];
        return source !== undefined && source.trim() !== "" && rng.chance(0.6)
          ? modifyLine(source, file, rng)
          : indent + makeLine(file, rng);
      });
    }
  }
  const edit: IntendedEdit = { kind, start, end, changeStart, changeEnd, replacement };
  const before = lines.slice(changeStart, changeEnd).join("\n");
  if (before === replacement.join("\n")) return undefined;
  // The deleted block must hold text, or the "edit" is only layout.
  if (kind === "delete" && !lines.slice(changeStart, changeEnd).some((l) => l.trim() !== "")) return undefined;
  return edit;
}

/** The exact model view: up to 3 context lines, kept, deleted and added lines. */
export function buildView(file: CorpusFile, edit: IntendedEdit): ViewLine[] {
  const lines = file.lines;
  const real = realLineCount(file);
  const same = (role: ViewLine["role"], text: string): ViewLine => ({ role, old: text, new: text });
  const view: ViewLine[] = [];
  for (let i = Math.max(0, edit.start - CONTEXT_LINES); i < edit.start; i++) view.push(same("ctx", lines[i] ?? ""));
  for (let i = edit.start; i < edit.changeStart; i++) view.push(same("keep", lines[i] ?? ""));
  for (let i = edit.changeStart; i < edit.changeEnd; i++) view.push({ role: "del", old: lines[i] ?? "", new: "" });
  for (const text of edit.replacement) view.push({ role: "add", old: "", new: text });
  for (let i = edit.changeEnd; i < edit.end; i++) view.push(same("keep", lines[i] ?? ""));
  for (let i = edit.end; i < Math.min(real, edit.end + CONTEXT_LINES); i++) view.push(same("ctx", lines[i] ?? ""));
  return view;
}

/** The mistake kind of case `index` (round-robin, so kinds get equal shares). */
export function kindOfCase(index: number): (typeof MISTAKE_KINDS)[number] {
  return MISTAKE_KINDS[index % MISTAKE_KINDS.length] as (typeof MISTAKE_KINDS)[number];
}

/** Case `index` of a run with `seed`; undefined when no file can carry its mistake. */
export function generateCase(corpus: Corpus, seed: number, index: number): BenchCase | undefined {
  const kind = kindOfCase(index);
  const spec = MISTAKES[kind];
  const rng = createRng(hashSeed(seed, index));
  for (let attempt = 0; attempt < 100; attempt++) {
    const file = corpus.pick(rng);
    const region = pickRegion(file, rng, spec.minLines, spec.maxLines);
    if (!region) continue;
    const edit = makeEdit(file, region[0], region[1], rng);
    if (!edit) continue;
    const out = spec.make({ file, edit, view: buildView(file, edit), realLineCount: realLineCount(file) }, rng);
    if (!out) continue;
    // A correct hint half the time: tools like SEARCH/REPLACE usually carry one.
    const hint = out.hint === null ? undefined : (out.hint ?? (rng.chance(0.5) ? edit.start + 1 : undefined));
    const startLine = out.startLine ?? edit.start + 1;
    // A positive kind may still want a refusal for one case (`stale-history` near the edit): `expected: null`.
    const negative = isNegativeKind(kind) || out.expected === null;
    const expected = negative ? undefined : (out.expected ?? applyEdit(file.lines, edit).join("\n"));
    return {
      index,
      seed,
      kind,
      editKind: edit.kind,
      file: file.path,
      content: out.content ?? file.text,
      expected,
      view: out.view,
      hint,
      diffStartLine: out.diffStartLine ?? hint ?? startLine,
      escaped: out.escaped ?? false,
      ...(out.onlyFormats && { onlyFormats: out.onlyFormats }),
      ...(out.finalBreak && { finalBreak: out.finalBreak }),
      ...(out.overlap && { overlap: out.overlap }),
      ...(out.anchor !== undefined && { anchor: out.anchor }),
      ...(out.wholeShift && { wholeShift: true }),
      ...(out.history !== undefined && { history: out.history }),
      startLine,
      endLine: out.endLine ?? startLine + (edit.end - edit.start) - 1,
      note: out.note,
      hintDecides: out.hintDecides ?? false,
    };
  }
  return undefined;
}

/** Cases 0..count-1 of a run (skipping the rare index no file can carry). */
export function generateCases(corpus: Corpus, seed: number, count: number): BenchCase[] {
  const out: BenchCase[] = [];
  for (let i = 0; i < count; i++) {
    const c = generateCase(corpus, seed, i);
    if (c) out.push(c);
  }
  return out;
}

/** Each case 0..count-1 of a run in each format it runs in (the benches that run every applier loop over these). */
export function* casesByFormat(corpus: Corpus, seed: number, count: number): Generator<{ index: number; c: BenchCase; format: Format }> {
  for (let index = 0; index < count; index++) {
    const c = generateCase(corpus, seed, index);
    if (!c) continue;
    for (const format of FORMATS) if (runsIn(c, format)) yield { index, c, format };
  }
}
