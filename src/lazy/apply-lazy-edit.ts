/**
 * `applyLazyEdit()`: a lazy snippet (the new code, unchanged parts elided by
 * `// ... existing code ...` markers, markers.ts) merged into the file
 * without a model: definitions by kind and name when the snippet is whole
 * definitions with no marker (definitions.ts), else the code lines aligned
 * with the file (align.ts) and the markers filled with the file's lines
 * between them (merge.ts). Refused with an EditError when a part's place is
 * not certain, a deletion no marker covers is large, or the merge unbalances
 * the file's brackets. With the file's syntax tree (the `definitions`
 * option, a reader loaded before the merge) definitions are matched in the
 * tree (tree-definitions.ts), and a snippet of whole functions that the
 * whole-file merge refuses is merged within each one's lines (scoped-merge.ts).
 * With its syntax checker (the `syntax` option) a merge that leaves a syntax
 * error where the file had none is refused (syntax-refusal.ts).
 */
import { EditError } from "../errors.ts";
import type { DefinitionsReader } from "../syntax/definitions-reader.ts";
import type { SyntaxChecker } from "../syntax/merge-checker.ts";
import { type Alignment, alignSnippet, lineKey } from "./align.ts";
import { bracketBalance, checksBalance, hashCommented } from "./balance.ts";
import { checkBlankHeads } from "./blank-head.ts";
import { checkBlankBoundDeletion } from "./blank-bound-deletion.ts";
import { type DefinitionPlace, endsLike, findDefinitions, splitUnits } from "./definitions.ts";
import { classifySnippet, type SnippetLine } from "./markers.ts";
import { checkMarkerBlock } from "./marker-block.ts";
import { markerEdgeLine, readFromEdge } from "./edge-reading.ts";
import { checkLoneChangedLine } from "./lone-changed-line.ts";
import { checkSegments, MAX_UNMARKED_DELETION, type MergeStats, markerLimits, quoteLine, segmentsOf, walkSnippet } from "./merge.ts";
import { keyPlaces, trimmedInFile } from "./key-index.ts";
import { readMorphInput } from "./morph-input.ts";
import { preferReading } from "./kept-copies.ts";
import { checkNewHeaders } from "./new-header.ts";
import { checkRenameClash } from "./rename-clash.ts";
import { checkRepeatedContext } from "./repeated-context.ts";
import { checkSiblingDefinitions } from "./sibling-definitions.ts";
import { placeQuotedRemovals } from "./quoted-removal.ts";
import { removalsAsComments } from "./removal-comments.ts";
import { checkMergedSyntax } from "./syntax-refusal.ts";
import { mergeWithinDefinitions } from "./scoped-merge.ts";
import { balanceMoved, sharedLines, spliceText } from "./splice-text.ts";
import { checkSplitDeletions } from "./split-deletions.ts";
import { narrowDefinitions } from "./tree-definitions.ts";
import { newCodeAfterBlankRun, pairBlankEdges } from "./blank-edges.ts";
import { checkChangedEdges, checkGapStructure, checkMarkerEdges, checkRepeatedEdges, checkSnippetEnds } from "./verify.ts";

export interface LazyEditOptions {
  /** The file's path: its extension tells the language (comment syntax, whether brackets must balance). @default undefined */
  path?: string;
  /** The file's language ("python", "typescript", ...), when the path does not tell. @default undefined */
  language?: string;
  /**
   * The file's definitions read from its syntax tree (`loadDefinitionsReader(path)` from
   * fuzzpatch's syntax layer, loaded before the merge): definitions are then matched by kind and
   * name in the tree, not by lines that read like headers. Without it the text alone is read.
   * @default undefined
   */
  definitions?: DefinitionsReader;
  /**
   * The file's syntax checker (`loadSyntaxChecker(path)` from fuzzpatch's syntax layer, loaded
   * before the merge): a merge whose result has a syntax error where the file had none is then
   * refused (CONFLICT, naming the error's line). Without it only bracket balance is checked.
   * @default undefined
   */
  syntax?: SyntaxChecker;
}

export interface LazyEditResult {
  content: string;
  /** How the snippet was placed: "definitions" (whole definitions by name) or "markers" (aligned lines and markers). */
  strategy: "definitions" | "markers";
  stats: MergeStats;
  /** 1-based inclusive range of the file's lines the merge changed (of the original content); undefined when nothing changed. */
  startLine?: number;
  endLine?: number;
}

interface Text {
  lines: string[];
  eol: "\n" | "\r\n";
  bom: boolean;
  finalNewline: boolean;
}

function splitText(content: string): Text {
  const bom = content.startsWith("\uFEFF");
  const body = bom ? content.slice(1) : content;
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const lf = body.replace(/\r\n/g, "\n");
  const finalNewline = lf.endsWith("\n");
  const lines = lf === "" ? [] : (finalNewline ? lf.slice(0, -1) : lf).split("\n");
  return { lines, eol, bom, finalNewline };
}

function joinText(t: Text, lines: readonly string[]): string {
  const body = lines.join("\n") + (t.finalNewline && lines.length > 0 ? "\n" : "");
  return (t.bom ? "\uFEFF" : "") + (t.eol === "\n" ? body : body.replace(/\n/g, "\r\n"));
}

/** The snippet's lines: LF, the fence a model may leave around it removed, blank lines at its ends dropped. */
function snippetLines(snippet: string): string[] {
  let lines = snippet.replace(/\r\n/g, "\n").split("\n");
  if (/^\s*(```|~~~)/.test(lines[0] ?? "") && lines.length > 1) {
    lines = lines.slice(1);
    let close = lines.length - 1;
    while (close >= 0 && !/^\s*(```|~~~)\s*$/.test(lines[close] as string)) close--;
    if (close !== -1) lines = lines.slice(0, close);
  }
  let a = 0;
  let b = lines.length;
  while (a < b && (lines[a] as string).trim() === "") a++;
  while (b > a && (lines[b - 1] as string).trim() === "") b--;
  return lines.slice(a, b);
}

export function applyLazyEdit(content: string, snippet: string, options: LazyEditOptions = {}): LazyEditResult {
  if (typeof content !== "string") throw new EditError("INVALID_INPUT", "content must be a string.");
  if (typeof snippet !== "string") throw new EditError("INVALID_INPUT", "snippet must be a string.");
  if (options === null || typeof options !== "object") throw new EditError("INVALID_INPUT", "options must be an object.");
  const { path, language } = options;
  if (path !== undefined && typeof path !== "string") throw new EditError("INVALID_INPUT", "path must be a string.");
  if (language !== undefined && typeof language !== "string") throw new EditError("INVALID_INPUT", "language must be a string.");
  if (options.definitions !== undefined && typeof options.definitions !== "function") throw new EditError("INVALID_INPUT", "definitions must be a definitions reader (loadDefinitionsReader).");
  if (options.syntax !== undefined && typeof options.syntax !== "function") throw new EditError("INVALID_INPUT", "syntax must be a syntax checker (loadSyntaxChecker).");
  const text = splitText(content);
  const lines = snippetLines(readMorphInput(snippet)?.update ?? snippet);
  if (lines.length === 0) throw new EditError("INVALID_INPUT", "The snippet is empty: send the changed code, with the unchanged parts as // ... existing code ... markers.");
  if (text.lines.length === 0) throw new EditError("NOT_FOUND", "The file is empty, so a lazy snippet has nothing to merge into: send the whole file.");
  const fileKeys = text.lines.map(lineKey);
  // Where the file has each snippet line's key (the only lines looked up), and `...`.
  const places = keyPlaces(fileKeys, [...lines.map(lineKey), "..."]);
  // A `...` line may be a marker even where the file has such lines: told before either merge.
  const classified = classifySnippet(lines, trimmedInFile(lines, text.lines, places));
  const read = ellipsesAsMarkers(classified, text.lines, fileKeys);
  // A removal-like comment over new code is code to the marker merge, but routes the snippet as a note did.
  const snip = removalsAsComments(read, places);
  let merged: Merged;
  try {
    merged = (read.every((l) => l.kind === "code") && mergeDefinitions(snip, text.lines, options.definitions)) || mergeOrScope(snip, text.lines, fileKeys, places, options.definitions);
  } catch (error) {
    // A line next to a marker left unplaced: the snippet read again from that line (edge-reading.ts).
    const edge = markerEdgeLine(error);
    const again = edge === undefined ? undefined : readFromEdge(snip, fileKeys, text.lines, places, edge, (banned) => {
      // Its `...` lines told again: whether one is a marker rests on the lines aligned around it.
      const other = removalsAsComments(ellipsesAsMarkers(classified, text.lines, fileKeys, banned), places);
      const m = mergeByMarkers(other, text.lines, fileKeys, places, banned);
      return { fileLine: m.fileLine as Int32Array, result: finishMerge(content, text, other, m, options) };
    }, (r) => r.content);
    if (again) return again;
    throw error;
  }
  return finishMerge(content, text, snip, merged, options);
}

/** The merged lines checked (balance, a change made, syntax) and written in the file's line ends. */
function finishMerge(content: string, text: Text, snip: readonly SnippetLine[], merged: Merged, options: LazyEditOptions): LazyEditResult {
  const { path, language } = options;
  const shared = sharedLines(text.lines, merged.lines);
  // The file with its changed lines swapped (LF files), checked for balance about those lines only.
  const spliced = spliceText(content, text.lines, text.bom, text.finalNewline, merged.lines, shared);
  if (checksBalance(path, language) && (!spliced || balanceMoved(content, spliced, hashCommented(path, language)))) checkBalance(content, merged.lines, path, language, snip, text.lines);
  const out = spliced ? spliced.content : joinText(text, merged.lines);
  // Compared by lines where spliced: comparing the texts would copy the spliced rope whole.
  if (spliced ? shared.head === text.lines.length && shared.head === merged.lines.length : out === content) {
    throw new EditError("ALREADY_APPLIED", "already applied: merging the snippet leaves the file as it is (its code already stands there); nothing to do.");
  }
  const range = changedRange(text.lines, merged.lines, shared);
  if (options.syntax) checkMergedSyntax(options.syntax, content, out, merged.lines, snip, range);
  return { content: out, strategy: merged.strategy, stats: merged.stats, ...range };
}

interface Merged {
  lines: string[];
  strategy: "definitions" | "markers";
  stats: MergeStats;
  /** The marker merge's file line of each snippet line (-1: none). */
  fileLine?: Int32Array;
}

/**
 * A bare `...` line is code where the file has such lines (a Python stub's
 * body, a doctest), but only where it aligns with one of them and a line
 * next to it aligns next to that one: any other is a marker after all (sympy's docstrings hold `...` lines,
 * and a model's `...` was written into the file as code), unless it is the
 * body of a new block (the line before it ends with `:` and is not the file's).
 */
function ellipsesAsMarkers(snip: readonly SnippetLine[], fileLines: readonly string[], fileKeys: readonly string[], banned: ReadonlySet<number> = new Set()): readonly SnippetLine[] {
  const bare = (l: SnippetLine) => l.kind === "code" && (l.text.trim() === "..." || l.text.trim() === "…");
  if (!snip.some(bare)) return snip;
  const al = alignSnippet(snip, fileKeys, fileLines, banned);
  let changed = false;
  const out = snip.map((l, s) => {
    if (!bare(l) || confirmed(snip, al, fileLines, s)) return l;
    let p = s - 1;
    while (p >= 0 && (snip[p] as SnippetLine).text.trim() === "") p--;
    // The body of a new block (a stub); after a header the file has, it stands for the body left out.
    if (p >= 0 && (snip[p] as SnippetLine).kind === "code" && (al.fileLine[p] as number) < 0 && (snip[p] as SnippetLine).text.trimEnd().endsWith(":")) return l;
    changed = true;
    return { ...l, kind: "marker" as const };
  });
  return changed ? out : snip;
}

/** Whether snippet line `s` is aligned, and a non-blank neighbour of it is aligned with the file line next to its own. */
function confirmed(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], s: number): boolean {
  const f = al.fileLine[s] as number;
  if (f < 0) return false;
  for (const dir of [-1, 1] as const) {
    let k = s + dir;
    while (k >= 0 && k < snip.length && (snip[k] as SnippetLine).kind === "code" && (snip[k] as SnippetLine).text.trim() === "") k += dir;
    if (k < 0 || k >= snip.length || (snip[k] as SnippetLine).kind !== "code") continue;
    let g = f + dir;
    while (g >= 0 && g < fileLines.length && (fileLines[g] as string).trim() === "") g += dir;
    if (al.fileLine[k] === g) return true;
  }
  return false;
}

/**
 * The marker merge; where it refuses, and the file's tree is at hand, the
 * snippet merged within the definitions it shows (scoped-merge.ts). That
 * merge's own refusal is not the one reported: the whole-file merge's is.
 */
function mergeOrScope(snip: readonly SnippetLine[], fileLines: readonly string[], fileKeys: readonly string[], places: Map<string, number[]>, reader: DefinitionsReader | undefined): Merged {
  try {
    return mergeByMarkers(snip, fileLines, fileKeys, places);
  } catch (error) {
    // Not where a line next to a marker is the file's but fits none of its places (verify.ts checkMarkerEdges): which lines the marker keeps is unclear within a definition too.
    const retry = error instanceof EditError && (error.code === "AMBIGUOUS" || error.code === "CONFLICT") && !/fits none of them/.test(error.message);
    const defs = reader && retry ? reader(fileLines.join("\n")) : undefined;
    if (!defs) throw error;
    let scoped: ReturnType<typeof mergeWithinDefinitions>;
    try {
      scoped = mergeWithinDefinitions(snip, fileLines, defs, (s, f) => {
        const keys = f.map(lineKey);
        return mergeByMarkers(s, f, keys, keyPlaces(keys, keys));
      });
    } catch (inner) {
      if (inner instanceof EditError) throw error;
      throw inner;
    }
    // Nothing changed within the definitions: the snippet's change lies elsewhere, and the whole-file merge's refusal says where.
    if (!scoped || (scoped.lines.length === fileLines.length && scoped.lines.every((l, k) => l === fileLines[k]))) throw error;
    return { ...scoped, strategy: "markers" };
  }
}

/** `banned`: snippet lines never to anchor (edge-reading.ts: the snippet read again from a marker's edge). */
function mergeByMarkers(snip: readonly SnippetLine[], fileLines: readonly string[], fileKeys: readonly string[], index: Map<string, number[]>, banned: ReadonlySet<number> = new Set()): Merged {
  const al = preferReading(snip, alignSnippet(snip, fileKeys, fileLines, banned), fileKeys, fileLines, banned);
  pairBlankEdges(snip, al, fileLines);
  newCodeAfterBlankRun(snip, al, fileLines);
  const stops = placeQuotedRemovals(snip, al, fileLines);
  const limits = markerLimits(snip, al, fileLines);
  for (const [m, q] of stops) limits.set(m, Math.min(limits.get(m) ?? q, q));
  checkSegments(snip, al, fileLines, index, limits);
  checkLoneChangedLine(snip, al, fileLines);
  checkMarkerEdges(snip, al, index);
  checkRepeatedEdges(snip, al, fileLines, index);
  checkChangedEdges(snip, al, fileLines);
  checkSnippetEnds(snip, al, fileLines);
  checkBlankHeads(snip, al, fileLines);
  checkGapStructure(snip, al, fileLines);
  checkNewHeaders(snip, al, fileLines);
  checkRenameClash(snip, al, fileLines);
  checkMarkerBlock(snip, al, fileLines);
  checkSplitDeletions(snip, al, fileLines);
  checkBlankBoundDeletion(snip, al, fileLines);
  checkRepeatedContext(snip, al, fileLines, fileKeys, index);
  checkSiblingDefinitions(snip, al, fileLines, fileKeys);
  const { lines, stats } = walkSnippet(snip, al, fileLines, limits);
  return { lines, strategy: "markers", stats, fileLine: al.fileLine };
}

/**
 * Whole definitions without markers, each replacing the file's definition of
 * the same kind and name; a new one goes after the one before it in the
 * snippet. Undefined (the marker merge decides) unless every definition
 * found its place, at least one was in the file, and each ends as the
 * file's does (a whole definition, not its first lines).
 */
function mergeDefinitions(snip: readonly SnippetLine[], fileLines: readonly string[], reader: DefinitionsReader | undefined): Merged | undefined {
  const texts = snip.map((l) => l.text);
  const units = splitUnits(texts);
  if (!units) return undefined;
  const places: ({ start: number; end: number; header: number } | undefined)[] = [];
  // The file's tree, read once, on the first definition the text finds.
  let tree: ReturnType<DefinitionsReader> | null = null;
  for (const u of units) {
    const unit = texts.slice(u.start, u.end);
    const byText = findDefinitions(fileLines, u.def, u.header > u.start);
    if (byText.length > 0 && reader) tree ??= reader(fileLines.join("\n"));
    const byTree = byText.length > 0 && tree ? narrowDefinitions(byText, u.def, unit, u.header - u.start, fileLines, tree) : undefined;
    // The tree's place stands when it is one the definition can replace; else the text decides, as without the tree.
    const usable = (p: DefinitionPlace) => endsLike(unit, fileLines, p) && nonBlank(fileLines, p.start, p.end) - nonBlank(texts, u.start, u.end) <= MAX_UNMARKED_DELETION;
    const { places: found, where } = byTree && byTree.places.length > 0 && (byTree.places.length > 1 || usable(byTree.places[0] as DefinitionPlace)) ? byTree : { places: byText, where: [] as string[] };
    if (found.length > 1) {
      throw new EditError(
        "AMBIGUOUS",
        `The ${u.def.kind} ${u.def.name} (snippet line ${u.header + 1}, ${quoteLine(texts[u.header] as string)}) is defined ${found.length} times in the file (lines ${found.map((p, k) => `${p.header + 1}${where[k] ? ` ${where[k]}` : ""}`).join(", ")}). Include the lines around it, with "// ... existing code ..." for the rest, so its place is clear.`,
        { segment: u.header + 1, candidates: found.map((p) => ({ startLine: p.start + 1, endLine: p.end })) },
      );
    }
    const place = found[0];
    // A definition that ends unlike the file's, or much longer in the file than in the snippet: its end was misread, or the model cut it short.
    if (place && !usable(place)) return undefined;
    places.push(place);
  }
  if (places.every((p) => p === undefined)) return undefined;
  // One shift for every unit (they sit at the snippet's one depth): the first found one's.
  const firstFound = places.findIndex((p) => p !== undefined);
  const fi = leading(fileLines[(places[firstFound] as { header: number }).header] as string);
  const si = leading(texts[(units[firstFound] as { header: number }).header] as string);
  const out: string[] = [];
  let cursor = 0;
  let added = 0;
  let deleted = 0;
  for (let k = 0; k < units.length; k++) {
    const u = units[k] as (typeof units)[number];
    const place = places[k];
    // A new definition goes after the previous one, or before the first found one when it comes first.
    const start = place ? place.start : k < firstFound ? (places[firstFound] as { start: number }).start : cursor;
    const end = place ? place.end : start;
    if (start < cursor) return undefined;
    for (; cursor < start; cursor++) out.push(fileLines[cursor] as string);
    if (!place && k > firstFound) out.push("");
    for (let s = u.start; s < u.end; s++) out.push(reindent(texts[s] as string, si, fi));
    if (!place && k < firstFound) out.push("");
    added += u.end - u.start;
    deleted += end - start;
    cursor = end;
  }
  for (; cursor < fileLines.length; cursor++) out.push(fileLines[cursor] as string);
  return { lines: out, strategy: "definitions", stats: { aligned: 0, added, kept: fileLines.length - deleted, deleted, markers: 0 } };
}

function nonBlank(lines: readonly string[], from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if ((lines[k] as string).trim() !== "") n++;
  return n;
}

function leading(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

function reindent(line: string, from: string, to: string): string {
  if (from === to) return line;
  if (line.trim() === "") return "";
  const ind = leading(line);
  if (ind.startsWith(from)) return to + ind.slice(from.length) + line.trimStart();
  return to.slice(0, Math.max(0, to.length - (from.length - ind.length))) + line.trimStart();
}

function checkBalance(content: string, merged: readonly string[], path: string | undefined, language: string | undefined, snip: readonly SnippetLine[], fileLines: readonly string[]): void {
  const hash = hashCommented(path, language);
  const before = bracketBalance(content.replace(/\r\n/g, "\n"), hash);
  const after = bracketBalance(merged.join("\n"), hash);
  const names = ["parentheses", "square brackets", "braces"];
  for (let k = 0; k < 3; k++) {
    if (before[k] === after[k]) continue;
    const d = (after[k] as number) - (before[k] as number);
    // The part to blame: the first run of code between markers that is itself unbalanced that way.
    const seg = segmentsOf(snip).find((g) => Math.sign(bracketBalance(snip.slice(g.start, g.end).map((l) => l.text).join("\n"), hash)[k] as number) === Math.sign(d)) ?? segmentsOf(snip)[0];
    const first = seg ? (snip.slice(seg.start, seg.end).find((l) => l.text.trim() !== "") ?? snip[seg.start]) : undefined;
    const range = changedRange(fileLines, merged);
    throw new EditError(
      "CONFLICT",
      `The merged file would have ${Math.abs(d)} more ${d > 0 ? "opening" : "closing"} ${names[k]} than the file had${first ? `, from the part at snippet line ${first.index + 1} (${quoteLine(first.text)})` : ""}, merged into file lines ${range.startLine ?? 1}-${range.endLine ?? fileLines.length}: a marker or a block's first or last line is not where the snippet shows it. Show the whole block you change (its first and last lines), with "// ... existing code ..." only for whole lines left out.`,
      { balance: { before, after }, ...(first && { segment: first.index + 1 }), candidates: [{ startLine: range.startLine ?? 1, endLine: range.endLine ?? fileLines.length }] },
    );
  }
}

/** 1-based range of original lines between the common prefix and suffix. */
function changedRange(before: readonly string[], after: readonly string[], shared = sharedLines(before, after)): { startLine?: number; endLine?: number } {
  const { head: a, tail: b } = shared;
  if (a === before.length && a === after.length) return {};
  return { startLine: a + 1, endLine: Math.max(a + 1, before.length - b) };
}
