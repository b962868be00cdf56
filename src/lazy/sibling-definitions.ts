/**
 * A part that opens after a marker, holds no definition header of its own
 * and whose aligned lines all lie in one function's body, rewriting lines
 * there line for line (some changed, none added): when a sibling
 * function (a `def`/`function`/`fn`/`func` header at the same depth, in the
 * same parent) holds the part's first line and, in the same order, every
 * other line the part shares exactly with its place but exactly one, the part reads
 * as an edit of either function. Its place then rests on one line (a line a
 * model copies from one sibling into the other, an import), which is no
 * better a witness than the sibling's own shape: refused, naming the part's
 * first line and both functions (bench:lazy, sympy-24909: a `__truediv__`
 * rewritten after `__mul__`'s shape was merged into `__mul__`, which alone
 * had the copied import line). Measured: without "none added" and "exactly
 * one" the rule cost 2 right merges (a sibling holding every exact line, the
 * changed lines choosing; new lines after context both siblings have), and
 * without "some changed" 16 (pure insertions).
 */
import { EditError } from "../errors.ts";
import { type Alignment, isTrivial, lineKey } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine, segmentsOf } from "./merge.ts";

const HEADER = /^\s*(?:(?:export|pub|public|private|protected|static|async)\s+)*(?:def|function|fn|func)\s+[\w$]+/;

interface Body {
  header: number;
  /** 0-based file lines [from, to) of the body: deeper than the header, or blank. */
  from: number;
  to: number;
}

function bodyOf(fileLines: readonly string[], header: number): Body {
  const depth = indentWidth(fileLines[header] as string);
  let to = header + 1;
  let last = header;
  while (to < fileLines.length && (isBlank(fileLines[to] as string) || indentWidth(fileLines[to] as string) > depth)) {
    if (!isBlank(fileLines[to] as string)) last = to;
    to++;
  }
  return { header, from: header + 1, to: last + 1 };
}

/** The function whose body holds file line `f`: the nearest header above it at a shallower depth. */
function enclosing(fileLines: readonly string[], f: number): Body | undefined {
  let depth = indentWidth(fileLines[f] as string);
  for (let g = f - 1; g >= 0; g--) {
    const line = fileLines[g] as string;
    if (isBlank(line) || indentWidth(line) >= depth) continue;
    if (HEADER.test(line)) return bodyOf(fileLines, g);
    depth = indentWidth(line);
    if (depth === 0) return undefined;
  }
  return undefined;
}

/** The other function headers at `body`'s depth within its parent (no line shallower between). */
function siblings(fileLines: readonly string[], body: Body): number[] {
  const depth = indentWidth(fileLines[body.header] as string);
  const out: number[] = [];
  for (const dir of [-1, 1] as const) {
    for (let g = body.header + dir; g >= 0 && g < fileLines.length; g += dir) {
      const line = fileLines[g] as string;
      if (isBlank(line)) continue;
      const w = indentWidth(line);
      if (w < depth) break;
      if (w === depth && HEADER.test(line)) out.push(g);
    }
  }
  return out;
}

/** How many of `keys` stand in file lines [from, to) in order (greedy), and whether the first does. */
function inOrder(fileKeys: readonly string[], from: number, to: number, keys: readonly string[]): { found: number; first: boolean } {
  let g = from;
  let found = 0;
  let first = false;
  for (let k = 0; k < keys.length; k++) {
    let h = g;
    while (h < to && fileKeys[h] !== keys[k]) h++;
    if (h >= to) continue;
    found++;
    if (k === 0) first = true;
    g = h + 1;
  }
  return { found, first };
}

function nonBlank(lines: readonly string[], from: number, to: number): number {
  let n = 0;
  for (let g = from; g < to; g++) if (!isBlank(lines[g] as string)) n++;
  return n;
}

export function checkSiblingDefinitions(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], fileKeys: readonly string[]): void {
  for (const seg of segmentsOf(snip)) {
    if (seg.start === 0 || (snip[seg.start - 1] as SnippetLine).kind !== "marker") continue;
    const exact: number[] = [];
    let changed = 0;
    let added = 0;
    let header = false;
    let firstCode = -1;
    for (let s = seg.start; s < seg.end; s++) {
      const text = (snip[s] as SnippetLine).text;
      if (isBlank(text)) continue;
      if (firstCode < 0) firstCode = s;
      if (HEADER.test(text)) header = true;
      if ((al.fileLine[s] as number) >= 0 && !al.similar[s]) exact.push(s);
      if ((al.fileLine[s] as number) >= 0 && al.similar[s]) changed++;
      if ((al.fileLine[s] as number) < 0) added++;
    }
    // The part's first line must be one of the file's, exactly: the line the marker stops at.
    // A part that rewrites lines of its place, line for line (lines that add code fit wherever their context stands).
    if (header || firstCode < 0 || exact[0] !== firstCode || exact.length < 3 || changed === 0 || added > 0) continue;
    const body = enclosing(fileLines, al.fileLine[firstCode] as number);
    if (!body) continue;
    let inside = true;
    for (let s = seg.start; s < seg.end && inside; s++) {
      const f = al.fileLine[s] as number;
      if (f >= 0 && !isBlank((snip[s] as SnippetLine).text)) inside = f >= body.from && f < body.to;
    }
    if (!inside) continue;
    const keys = exact.map((s) => lineKey((snip[s] as SnippetLine).text));
    for (const other of siblings(fileLines, body)) {
      const ob = bodyOf(fileLines, other);
      const { found, first } = inOrder(fileKeys, ob.from, ob.to, keys);
      // Every exact line but one (the line the place rests on; with none missing the changed lines chose), the first among them, and two at least that are no `}` or `return;`.
      if (!first || found !== keys.length - 1 || keys.filter((k) => !isTrivial(k)).length - (keys.length - found) < 2) continue;
      // and the sibling has as many lines left for the changed ones to replace.
      if (nonBlank(fileLines, ob.from, ob.to) - found < changed) continue;
      const line = snip[firstCode] as SnippetLine;
      throw new EditError(
        "AMBIGUOUS",
        `The part at snippet line ${firstCode + 1} (${quoteLine(line.text)}) reads as an edit of the function at file line ${body.header + 1} (${quoteLine(fileLines[body.header] as string)}) and of its sibling at file line ${other + 1} (${quoteLine(fileLines[other] as string)}): its lines stand in both, all but one, so which one it changes is unclear. Include the function's def line above the part.`,
        {
          segment: firstCode + 1,
          candidates: [body, ob].map((b) => ({ startLine: b.header + 1, endLine: b.to })),
        },
      );
    }
  }
}
