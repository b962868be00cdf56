/**
 * What every mistake function shares: its input and output shapes, and small
 * helpers over the model's view of an edit (which lines it quotes, where they
 * are in the file, how often a line sequence occurs).
 */

import type { CorpusFile } from "./corpus.ts";
import type { Rng } from "./random.ts";
import { commentLeader, leadingWhitespace } from "./text-gen.ts";
import type { EscapedSide, Format, IntendedEdit, ViewLine } from "./types.ts";

export interface MistakeInput {
  file: CorpusFile;
  edit: IntendedEdit;
  /** The exact view (fresh copy; functions may modify it). */
  view: ViewLine[];
  /** Lines of the file, excluding the empty string after a final newline. */
  realLineCount: number;
}

export interface MistakeOutput {
  view: ViewLine[];
  note: string;
  /** A line hint to give; `null` forbids the random correct hint. */
  hint?: number | null;
  /** The start line the model writes in a numbered diff header. */
  diffStartLine?: number;
  /** The file as the applier sees it, when the mistake is about the file. */
  content?: string;
  /** The version the model read, handed to appliers as history (see BenchCase.history). */
  history?: string;
  /** Expected output when it is not the intended edit on the original file; `null` = must refuse. */
  expected?: string | null;
  /** 1-based first line of the region in `content`, when it moved. */
  startLine?: number;
  /** 1-based last line of the region in `content`, when the region grew. */
  endLine?: number;
  /** Only the hint tells the right place (see BenchCase.hintDecides). */
  hintDecides?: boolean;
  escaped?: EscapedSide;
  onlyFormats?: readonly Format[];
  finalBreak?: "find";
  anchor?: string;
  wholeShift?: boolean;
  overlap?: { before: string[]; after: string[] };
}

export interface MistakeSpec {
  /** Fewest region lines the mistake needs. */
  minLines: number;
  /** Most region lines the mistake can carry. @default MAX_REGION_LINES (cases.ts) */
  maxLines?: number;
  make(input: MistakeInput, rng: Rng): MistakeOutput | undefined;
}

/** Applies the intended edit to a file's lines. */
export function applyEdit(lines: readonly string[], edit: IntendedEdit): string[] {
  return [...lines.slice(0, edit.changeStart), ...edit.replacement, ...lines.slice(edit.changeEnd)];
}

export function isRegion(line: ViewLine): boolean {
  return line.role !== "ctx";
}

/** The region's old-side text as the model quotes it (what str_replace's oldString holds). */
export function regionOld(view: readonly ViewLine[]): string[] {
  return view.filter((l) => l.role === "keep" || l.role === "del").map((l) => l.old);
}

export function regionNew(view: readonly ViewLine[]): string[] {
  return view.filter((l) => l.role === "keep" || l.role === "add").map((l) => l.new);
}

/** Sets a line's recalled text; a kept or context line changes on both sides. */
export function setRecalled(line: ViewLine, text: string, touched = true): void {
  line.old = text;
  if (line.role !== "del") line.new = text;
  if (touched) line.touched = true;
}

export function sameRegionOld(a: readonly ViewLine[], b: readonly ViewLine[]): boolean {
  return regionOld(a).join("\n") === regionOld(b).join("\n");
}

/** How many places a line sequence occurs, ignoring whitespace and blank lines; `null` entries match any line. */
export function countSquashed(file: CorpusFile, lines: readonly (string | null)[]): number {
  const wanted = lines.filter((l) => l === null || l.trim() !== "").map((l) => (l === null ? null : l.replace(/\s+/g, "")));
  if (wanted.length === 0) return 0;
  const nonBlank: string[] = [];
  for (const s of file.squashed) if (s !== "") nonBlank.push(s);
  let count = 0;
  for (let p = 0; p + wanted.length <= nonBlank.length; p++) {
    let ok = true;
    for (let i = 0; i < wanted.length; i++) {
      const w = wanted[i];
      if (w !== null && w !== nonBlank[p + i]) {
        ok = false;
        break;
      }
    }
    if (ok) count++;
  }
  return count;
}

/** A CorpusFile view of modified lines (for uniqueness checks on a changed file). */
export function withLines(file: CorpusFile, lines: string[]): CorpusFile {
  return { ...file, lines, text: lines.join("\n"), squashed: lines.map((l) => l.replace(/\s+/g, "")) };
}

/** Indices of view lines with the given roles. */
export function indicesOf(view: readonly ViewLine[], roles: readonly ViewLine["role"][]): number[] {
  const out: number[] = [];
  view.forEach((line, i) => {
    if (roles.includes(line.role)) out.push(i);
  });
  return out;
}

/** 0-based file line of each old-side view line (undefined for added lines). */
export function fileLineOf(view: readonly ViewLine[], edit: IntendedEdit): (number | undefined)[] {
  const before = view.findIndex(isRegion);
  let line = edit.start - before;
  return view.map((l) => (l.role === "add" ? undefined : line++));
}

export interface IndentVariant {
  note: string;
  apply: (line: string) => string;
}

/**
 * Ways a model re-indents text it writes, relative indentation kept: the
 * block's common indentation dropped, one or two levels deeper, tabs written
 * as spaces or spaces as tabs. `view` gives the common indentation.
 */
export function indentVariants(view: readonly ViewLine[], file: CorpusFile, rng: Rng): IndentVariant[] {
  const texts = view.flatMap((l) => [l.old, l.new]).filter((t) => t.trim() !== "");
  let common = leadingWhitespace(texts[0] ?? "");
  for (const t of texts) {
    const lead = leadingWhitespace(t);
    let i = 0;
    while (i < common.length && i < lead.length && common[i] === lead[i]) i++;
    common = common.slice(0, i);
  }
  const unit = file.indentUnit;
  const variants: IndentVariant[] = [];
  if (common !== "") {
    variants.push({ note: "common indentation dropped", apply: (l) => (l.startsWith(common) ? l.slice(common.length) : l) });
  }
  const shiftBy = rng.chance(0.7) ? unit : unit + unit;
  variants.push({ note: "shifted one or two levels deeper", apply: (l) => (l.trim() === "" ? l : shiftBy + l) });
  if (unit === "\t") {
    const width = rng.pick(["  ", "    "]);
    variants.push({
      note: `tabs written as ${width.length} spaces`,
      apply: (l) => {
        const lead = leadingWhitespace(l);
        return lead.replaceAll("\t", width) + l.slice(lead.length);
      },
    });
  } else {
    variants.push({
      note: "spaces written as tabs",
      apply: (l) => {
        const lead = leadingWhitespace(l);
        const units = Math.floor(lead.length / unit.length);
        if (lead.includes("\t") || units === 0) return l;
        return "\t".repeat(units) + lead.slice(units * unit.length) + l.slice(lead.length);
      },
    });
  }
  return variants;
}

export function curl(text: string): string {
  let doubleOpen = true;
  let out = text.replace(/"/g, () => {
    const q = doubleOpen ? "\u201c" : "\u201d";
    doubleOpen = !doubleOpen;
    return q;
  });
  out = out.replace(/(^|[\s([{])'/g, "$1\u2018").replace(/'/g, "\u2019");
  return out.replace(/ -- /g, " \u2014 ").replace(/--/g, "\u2014").replace(/ - /g, " \u2013 ");
}

export function elisionMarker(file: CorpusFile): string {
  if (file.language === "md") return "<!-- ... existing content ... -->";
  const leader = commentLeader(file) || "//";
  return `${leader} ... existing code ...`;
}

/** The file with the target region, and its full diff context, copied 20+ lines away to a blank line. */
export interface RegionCopy {
  /** The file's lines with the copy inserted. */
  lines: string[];
  /** 0-based line where the copy was inserted. */
  q: number;
  /** Lines the original region moved down by (the copy's size when it went above). */
  shift: number;
  /** Context lines before the region in the view. */
  before: number;
}

/**
 * Copies the region with three or more context lines on each side (a diff
 * cut short by the file's edge says where it belongs, so such a region has
 * one right place) to a blank-line boundary at least 20 lines away.
 */
export function copyRegionFar(input: MistakeInput, rng: Rng): RegionCopy | undefined {
  const { view, file, edit, realLineCount } = input;
  const before = view.findIndex(isRegion);
  let lastRegion = view.length - 1;
  while (lastRegion >= 0 && !isRegion(view[lastRegion] as ViewLine)) lastRegion--;
  const after = view.length - 1 - lastRegion;
  if (before < 3 || after < 3) return undefined;
  const windowStart = edit.start - before;
  const windowEnd = edit.end + after;
  const far: number[] = [];
  for (let q = 0; q <= realLineCount; q++) {
    if ((q <= windowStart - 20 || q >= windowEnd + 20) && (q === 0 || file.lines[q - 1]?.trim() === "")) far.push(q);
  }
  if (far.length === 0) return undefined;
  const q = rng.pick(far);
  const lines = [...file.lines.slice(0, q), ...file.lines.slice(windowStart, windowEnd), ...file.lines.slice(q)];
  return { lines, q, shift: q <= windowStart ? windowEnd - windowStart : 0, before };
}
