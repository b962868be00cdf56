/**
 * A definition header of the snippet written over a file header of another
 * name (read as it changed, `def _print_Determinant(...)` for
 * `def _print_Abs(...)` with the same body, or new where the deletion
 * around it takes that header), when the file already binds the new name in the same block
 * (`_print_Determinant = _print_Abs`, or a `def` of it): a rename into a
 * name the scope already has is not what a model writes; the snippet more
 * likely shows a new definition for that name (its body a copy of the
 * other's), replacing the binding, and when its lines around fit there
 * as well the merge cannot tell which
 * (bench:lazy, sympy-16106: 8 wrong merges renamed the copied function and
 * kept or dropped the alias). Refused, naming both lines.
 */
import { EditError } from "../errors.ts";
import { type Alignment, lineKey } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import { readHeader } from "./definitions.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine } from "./merge.ts";

/** The file lines of the block holding line `f`: from after its opener (a shallower line above) to the next line as shallow as the opener. */
function enclosingRange(fileLines: readonly string[], f: number): [number, number] {
  const depth = indentWidth(fileLines[f] as string);
  let a = f;
  while (a > 0 && (isBlank(fileLines[a - 1] as string) || indentWidth(fileLines[a - 1] as string) >= depth)) a--;
  let b = f + 1;
  while (b < fileLines.length && (isBlank(fileLines[b] as string) || indentWidth(fileLines[b] as string) >= depth)) b++;
  return [a, b];
}

/** A line at `depth` that binds `name`: a definition of it, or an assignment to it. */
function binds(line: string, depth: number, name: string): boolean {
  if (isBlank(line) || indentWidth(line) !== depth) return false;
  if (readHeader(line)?.name === name) return true;
  const t = line.trim();
  return t.startsWith(name) && /^\s*(?::[^=]*)?=(?!=)/.test(t.slice(name.length));
}

/**
 * The file's header the snippet's header `s` is written over: its aligned
 * line when read as that line changed, or, when it is new, a header the
 * deletion around it takes (the aligned lines before and after it, with no
 * marker between, delete the file lines between them). -1 when none.
 */
function headerReplaced(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], s: number, name: string): number {
  const f = al.fileLine[s] as number;
  if (f >= 0) return al.similar[s] && readHeader(fileLines[f] as string) ? f : -1;
  const aligned = (dir: 1 | -1): number => {
    for (let k = s + dir; k >= 0 && k < snip.length; k += dir) {
      if ((snip[k] as SnippetLine).kind !== "code") return -1;
      if ((al.fileLine[k] as number) >= 0) return al.fileLine[k] as number;
    }
    return -1;
  };
  const [a, b] = [aligned(-1), aligned(1)];
  if (a < 0 || b < 0) return -1;
  for (let g = a + 1; g < b; g++) {
    const h = readHeader(fileLines[g] as string);
    if (h && h.name !== name) return g;
  }
  return -1;
}

/** The nearest non-blank file line from `g` in direction `dir`, or -1. */
function fileNeighbour(fileLines: readonly string[], g: number, dir: 1 | -1): number {
  let k = g + dir;
  while (k >= 0 && k < fileLines.length && isBlank(fileLines[k] as string)) k += dir;
  return k >= 0 && k < fileLines.length ? k : -1;
}

/**
 * Whether the snippet's definition at line `s` reads as well in place of
 * file line `g`: the snippet's line before it and its line after the
 * definition's body are the file's lines around `g` (a marker there fits
 * anything).
 */
function fitsAt(snip: readonly SnippetLine[], fileLines: readonly string[], s: number, g: number): boolean {
  const depth = indentWidth((snip[s] as SnippetLine).text);
  let before = s - 1;
  while (before >= 0 && (snip[before] as SnippetLine).kind === "code" && isBlank((snip[before] as SnippetLine).text)) before--;
  let after = s + 1;
  while (after < snip.length && (snip[after] as SnippetLine).kind === "code" && (isBlank((snip[after] as SnippetLine).text) || indentWidth((snip[after] as SnippetLine).text) > depth)) after++;
  const fits = (k: number, dir: 1 | -1) => {
    if (k < 0 || k >= snip.length || (snip[k] as SnippetLine).kind !== "code") return true;
    const n = fileNeighbour(fileLines, g, dir);
    return n >= 0 && lineKey(fileLines[n] as string) === lineKey((snip[k] as SnippetLine).text);
  };
  return fits(before, -1) && fits(after, 1);
}

export function checkRenameClash(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): void {
  for (let s = 0; s < snip.length; s++) {
    if ((snip[s] as SnippetLine).kind !== "code") continue;
    const mine = readHeader((snip[s] as SnippetLine).text);
    if (!mine) continue;
    const f = headerReplaced(snip, al, fileLines, s, mine.name);
    if (f < 0 || readHeader(fileLines[f] as string)?.name === mine.name) continue;
    const depth = indentWidth(fileLines[f] as string);
    const [a, b] = enclosingRange(fileLines, f);
    for (let g = a; g < b; g++) {
      if (g === f || !binds(fileLines[g] as string, depth, mine.name) || !fitsAt(snip, fileLines, s, g)) continue;
      throw new EditError(
        "AMBIGUOUS",
        `The header at snippet line ${s + 1} (${quoteLine((snip[s] as SnippetLine).text)}) would be written over file line ${f + 1} (${quoteLine(fileLines[f] as string)}), renaming it, but the file already has ${mine.name} at line ${g + 1} (${quoteLine(fileLines[g] as string)}): the snippet may be a new definition for it instead. Include the unchanged lines around it, or show the line it replaces.`,
        { segment: s + 1, candidates: [f, g].map((x) => ({ startLine: x + 1, endLine: x + 1 })) },
      );
    }
  }
}
