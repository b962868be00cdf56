/**
 * A snippet of whole functions or methods with markers (a kept signature
 * whose body is elided around the change, a class with its other methods
 * elided), merged within each definition's lines in the file: the syntax
 * tree (a DefinitionsReader) tells where the file defines it, and the
 * snippet's lines are aligned with those lines alone. Across the whole file
 * a `}`, `'',` or `return x` after a marker stands in many places (bench:lazy:
 * most signature-body refusals); within one function it mostly stands once.
 *
 * Tried only where the merge over the whole file refused, and only for a
 * snippet that is definitions and nothing else: markers, blank lines, the
 * header lines of the classes they sit in (as the file has them) and closing
 * brackets. Each definition is found by name (and class, when the snippet
 * shows it) among the tree's, told apart as for a bare definition
 * (tree-definitions.ts) when the name is defined more than once. The
 * definition's header line and closing line are pinned to the file's, so
 * that its body's lines are aligned between them.
 */
import type { ReadDefinition } from "../syntax/definitions-reader.ts";
import { alignSnippet, lineKey } from "./align.ts";
import { blockAt, indentWidth, isBlank } from "./blocks.ts";
import { readHeader } from "./definitions.ts";
import type { SnippetLine } from "./markers.ts";
import type { MergeStats } from "./merge.ts";
import { endsInsideBlock } from "./cut-definition.ts";
import { onlyFitting } from "./fitting-definition.ts";
import { chooseDefinition } from "./tree-definitions.ts";

/** The merge of a snippet into lines (the marker merge), throwing EditError when unsure. */
export type LinesMerge = (snip: readonly SnippetLine[], fileLines: readonly string[]) => { lines: string[]; stats: MergeStats };

interface Region {
  /** Snippet lines [start, end) of the definition; `start` is its header. */
  start: number;
  end: number;
  def: ReadDefinition;
  /** The file's definitions of that name the snippet's text does not tell apart (fitting-definition.ts); `def` is the first. */
  choices?: readonly ReadDefinition[];
}

// A line no file has: the pinned header and closing line stand as it on both sides, so they align.
const PIN = "\u0000fuzzpatch pinned line";
const CLOSING = /^[)\]}]+[;,]?$|^end$/;

/** The snippet's definitions, each matched with the file's; undefined when the snippet is not only that. */
function regionsOf(snip: readonly SnippetLine[], fileLines: readonly string[], defs: readonly ReadDefinition[]): Region[] | undefined {
  const texts = snip.map((l) => l.text);
  const regions: Region[] = [];
  /** Open containers of the snippet (class lines): their depth and the file's definition of them. */
  const containers: { depth: number; def: ReadDefinition }[] = [];
  let markerSince = true;
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    // A removal note may be a comment of the code the model meant to keep (`# Remove duplicate sets`): the whole-file merge decides.
    if (line.kind === "removal") return undefined;
    if (line.kind === "marker") {
      markerSince = true;
      continue;
    }
    if (isBlank(line.text)) continue;
    const depth = indentWidth(line.text);
    while (containers.length > 0 && (containers[containers.length - 1] as { depth: number }).depth >= depth) containers.pop();
    if (CLOSING.test(lineKey(line.text))) continue;
    const header = readHeader(line.text);
    if (header === undefined) return undefined;
    const container = containers[containers.length - 1]?.def;
    const inside = (d: ReadDefinition) => (container === undefined ? true : d.container === container.name && d.start >= container.start && d.end <= container.end);
    if (header.kind !== "function") {
      // A class line, as the file has it: the definitions below it are its own.
      const own = defs.filter((d) => d.name === header.name && d.kind !== "function" && d.kind !== "method" && inside(d) && lineKey(fileLines[d.nameLine] as string) === lineKey(line.text));
      if (own.length !== 1) return undefined;
      containers.push({ depth, def: own[0] as ReadDefinition });
      continue;
    }
    const block = blockAt(texts, s);
    // Two definitions with no marker between them say the file's lines between them go: the whole-file merge decides.
    if (block === undefined || !markerSince || snip.slice(s, block.end).some((l) => l.kind === "removal")) return undefined;
    const candidates = defs.filter((d) => d.name === header.name && (d.kind === "function" || d.kind === "method") && inside(d));
    const def = chooseDefinition(candidates, texts.slice(s, block.end), 0, fileLines);
    const last = regions[regions.length - 1];
    // Not told apart by the text: the ones after the previous definition, left to the merge within each.
    const choices = def === undefined ? candidates.filter((d) => !last || last.def.end <= d.nameLine) : [];
    if (def === undefined && choices.length < 2) return undefined;
    if (def !== undefined && last && last.def.end > def.nameLine) return undefined;
    regions.push({ start: s, end: block.end, def: def ?? (choices[0] as ReadDefinition), ...(def === undefined && { choices }) });
    markerSince = false;
    s = block.end - 1;
  }
  return regions.length > 0 ? regions : undefined;
}

/** The last non-blank line of `lines[from, to)`, or -1. */
function lastLine(lines: readonly string[], from: number, to: number): number {
  for (let k = to - 1; k >= from; k--) if (!isBlank(lines[k] as string)) return k;
  return -1;
}

function leading(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

/**
 * Whether each marker of a definition's snippet stands for a line of the
 * definition: between the lines aligned around it lies one at least. A
 * marker that would keep nothing says the lines next to it are not the
 * ones aligned (a line the model added that repeats the one after the
 * header, a `return x` written before the old one), or (a marker after the
 * last code, deeper than the body) that a block ends elsewhere. Measured on
 * bench:lazy: most wrong merges within definitions had such a marker.
 */
function everyMarkerKeeps(snip: readonly SnippetLine[], fileLines: readonly string[]): boolean {
  const al = alignSnippet(snip, fileLines.map(lineKey), fileLines);
  let body = Number.POSITIVE_INFINITY;
  for (const l of snip) if (l.kind === "code" && !isBlank(l.text) && !l.text.includes(PIN)) body = Math.min(body, indentWidth(l.text));
  let before = -1;
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    if (line.kind === "code") {
      if ((al.fileLine[s] as number) >= 0) before = al.fileLine[s] as number;
      continue;
    }
    let after = -1;
    for (let k = s + 1; k < snip.length && after < 0; k++) if ((al.fileLine[k] as number) >= 0) after = al.fileLine[k] as number;
    // A marker after the definition's last code, at its body's depth, stands for what follows it; deeper, for the rest of a block in it.
    if (after < 0 && indentWidth(line.text) <= body) continue;
    if (after < 0) after = fileLines.length;
    let kept = false;
    for (let f = before + 1; f < after && !kept; f++) kept = !isBlank(fileLines[f] as string) && !(fileLines[f] as string).includes(PIN);
    if (!kept) return false;
  }
  return true;
}

/** One region merged within its definition's lines: header (and closing line) pinned; undefined when a marker keeps nothing. */
function mergeRegion(snip: readonly SnippetLine[], fileLines: readonly string[], r: Region, merge: LinesMerge): { lines: string[]; stats: MergeStats; end: number } | undefined {
  const fs = r.def.nameLine;
  if (endsInsideBlock(fileLines, r.def)) return undefined;
  // The blank lines after the definition go with it: the snippet's blank lines before a marker align with them.
  let fe = r.def.end;
  while (fe < fileLines.length && isBlank(fileLines[fe] as string)) fe++;
  const fl = lastLine(fileLines, fs + 1, fe);
  const sl = lastLine(
    snip.map((l) => l.text),
    r.start + 1,
    r.end,
  );
  const headerLine = snip[r.start] as SnippetLine;
  const fileHeader = fileLines[fs] as string;
  const closes = fl > fs && sl > r.start && (snip[sl] as SnippetLine).kind === "code" && CLOSING.test(lineKey(fileLines[fl] as string)) && lineKey(fileLines[fl] as string) === lineKey((snip[sl] as SnippetLine).text);
  const subFile = [leading(fileHeader) + PIN, ...fileLines.slice(fs + 1, closes ? fl : fe)];
  const subSnip: SnippetLine[] = [{ kind: "code", text: headerLine.indent + PIN, indent: headerLine.indent, index: 0 }];
  for (let s = r.start + 1; s < (closes ? sl : r.end); s++) subSnip.push({ ...(snip[s] as SnippetLine), index: subSnip.length });
  if (closes) {
    subFile.push(`${leading(fileLines[fl] as string)}${PIN} end`);
    subSnip.push({ kind: "code", text: `${(snip[sl] as SnippetLine).indent}${PIN} end`, indent: (snip[sl] as SnippetLine).indent, index: subSnip.length });
    // Blank lines the definition's range has after its closing line stay.
    subFile.push(...fileLines.slice(fl + 1, fe));
  }
  // The header changed: the snippet's, at the file's indentation; else the file's bytes.
  const header = lineKey(headerLine.text) === lineKey(fileHeader) ? fileHeader : leading(fileHeader) + headerLine.text.trimStart();
  const onlyMarkers = subSnip.every((l) => l.kind !== "code" || isBlank(l.text) || l.text.includes(PIN));
  if (!onlyMarkers && !everyMarkerKeeps(subSnip, subFile)) return undefined;
  const merged = onlyMarkers ? { lines: subFile, stats: { aligned: 1, added: 0, kept: subFile.length - 1, deleted: 0, markers: 1 } } : merge(subSnip, subFile);
  const lines = merged.lines.map((l) => (l.endsWith(`${PIN} end`) ? (fileLines[fl] as string) : l.endsWith(PIN) ? header : l));
  return { lines, stats: merged.stats, end: fe };
}

/**
 * The merged lines, or undefined when the snippet is not whole definitions
 * the tree places. Throws the marker merge's EditError when a definition's
 * body cannot be placed within it either.
 */
export function mergeWithinDefinitions(snip: readonly SnippetLine[], fileLines: readonly string[], defs: readonly ReadDefinition[], merge: LinesMerge): { lines: string[]; stats: MergeStats } | undefined {
  const regions = regionsOf(snip, fileLines, defs);
  if (regions === undefined) return undefined;
  const out: string[] = [];
  const stats: MergeStats = { aligned: 0, added: 0, kept: 0, deleted: 0, markers: 0 };
  let cursor = 0;
  for (const r of regions) {
    const fit = r.choices ? onlyFitting(r.choices.filter((d) => d.nameLine >= cursor), (def) => mergeRegion(snip, fileLines, { ...r, def }, merge), fileLines) : undefined;
    if (r.choices && !fit) return undefined;
    for (; cursor < (fit?.def ?? r.def).nameLine; cursor++) out.push(fileLines[cursor] as string);
    const m = fit ? fit.merged : mergeRegion(snip, fileLines, r, merge);
    if (m === undefined) return undefined;
    out.push(...m.lines);
    for (const k of ["aligned", "added", "kept", "deleted", "markers"] as const) stats[k] += m.stats[k];
    cursor = m.end;
  }
  for (; cursor < fileLines.length; cursor++) out.push(fileLines[cursor] as string);
  return { lines: out, stats };
}
