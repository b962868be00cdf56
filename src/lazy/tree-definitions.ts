/**
 * Definitions matched through the syntax tree (a DefinitionsReader, loaded
 * before the merge: src/syntax/definitions-reader.ts). The text reader
 * (definitions.ts) finds every line that reads as a header of the name, so
 * a doctest's `>>> idiff(circ, y, x)` or a docstring's `subs(x, y) would`
 * counts as a second definition, and a bare method is refused wherever its
 * name is defined twice (bench:lazy: 157 such refusals, most of them
 * Python). The tree keeps the real definitions only; where several remain
 * (methods of one name in two classes, overloads, nested functions) the
 * snippet's own text tells them apart: the header as written, its
 * indentation, and the lines of the body it shares with each.
 */
import type { ReadDefinition } from "../syntax/definitions-reader.ts";
import type { DefinitionKind } from "../syntax/definitions.ts";
import { isTrivial, lineKey } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { DefinitionPlace, Header } from "./definitions.ts";

/** Tree kinds the text reader's kind stands for. */
function compatible(text: Header["kind"], tree: DefinitionKind): boolean {
  if (text === "function") return tree === "function" || tree === "method";
  return tree !== "function" && tree !== "method" && tree !== "rule";
}

/** The tree's definition of `def` named at file line `line`, if any. */
export function treeDefinitionAt(defs: readonly ReadDefinition[], line: number, def: Header): ReadDefinition | undefined {
  return defs.find((d) => d.nameLine === line && d.name === def.name && compatible(def.kind, d.kind));
}

/** Where a definition sits, for a refusal: "class Foo", "top level". */
export function whereLabel(d: ReadDefinition | undefined): string {
  return d === undefined ? "" : d.container === "" ? "top level" : `in ${d.container}`;
}

/** Non-blank line keys of `lines[from, to)`. */
function keys(lines: readonly string[], from: number, to: number): string[] {
  const out: string[] = [];
  for (let k = from; k < to; k++) if (!isBlank(lines[k] as string)) out.push(lineKey(lines[k] as string));
  return out;
}

/**
 * The file's definition (of the tree's, all of one name) a snippet's
 * definition is, told as for a bare one (choose); undefined when none or
 * several.
 */
export function chooseDefinition(candidates: readonly ReadDefinition[], unit: readonly string[], header: number, fileLines: readonly string[]): ReadDefinition | undefined {
  if (candidates.length <= 1) return candidates[0];
  const real = candidates.map((d) => ({ d, place: { header: d.nameLine, block: undefined, start: d.start, end: d.end } }));
  return choose(real, unit, header, fileLines)?.d;
}

export interface Narrowed {
  places: DefinitionPlace[];
  /** Per place, where the tree says it is ("in Foo", "top level"). */
  where: string[];
}

/**
 * The text reader's places for a definition, narrowed with the file's tree:
 * only real definitions of that name, then the one the snippet's text
 * points to. `unit` is the snippet's definition (its lines; `header` the
 * header line's index in them). Several places stay when nothing tells them
 * apart: the caller refuses, naming them.
 */
export function narrowDefinitions(found: readonly DefinitionPlace[], def: Header, unit: readonly string[], header: number, fileLines: readonly string[], defs: readonly ReadDefinition[]): Narrowed {
  const real: { place: DefinitionPlace; tree: ReadDefinition }[] = [];
  for (const place of found) {
    const tree = treeDefinitionAt(defs, place.header, def);
    if (tree) real.push({ place, tree });
  }
  // The tree knows no definition of the name at all: the text's were lines of prose or calls.
  if (real.length === 0) return defs.some((d) => d.name === def.name) ? { places: [...found], where: found.map(() => "") } : { places: [], where: [] };
  const pick = real.length === 1 ? real[0] : choose(real, unit, header, fileLines);
  if (pick) return { places: [pick.place], where: [whereLabel(pick.tree)] };
  return { places: real.map((r) => r.place), where: real.map((r) => whereLabel(r.tree)) };
}

/**
 * One of several real definitions of the name, told by the snippet: the one
 * whose header line reads the same at the same indentation, or the only one
 * at that indentation, provided no other has lines of the snippet that only
 * it has (an overload whose new header reads as another's old one); else the
 * one that alone has such lines, two at least (methods of one header in many
 * classes: the lines the snippet kept of the one it changes).
 */
function choose<T extends { place: DefinitionPlace }>(real: readonly T[], unit: readonly string[], header: number, fileLines: readonly string[]): T | undefined {
  const own = ownLines(
    unit,
    real.map((r) => r.place),
    fileLines,
  );
  const indent = indentWidth(unit[header] as string);
  const headKey = lineKey(unit[header] as string);
  const sameIndent = real.map((r) => indentWidth(fileLines[r.place.header] as string) === indent);
  const sameHead = real.map((r, k) => sameIndent[k] && lineKey(fileLines[r.place.header] as string) === headKey);
  const alone = (k: number) => own.every((n, j) => j === k || n === 0);
  for (const told of [sameHead, sameIndent]) {
    const idx = told.flatMap((t, k) => (t ? [k] : []));
    if (idx.length === 1) return alone(idx[0] as number) ? real[idx[0] as number] : undefined;
    if (idx.length > 1) break;
  }
  const k = own.findIndex((n) => n >= 2);
  return k >= 0 && alone(k) ? real[k] : undefined;
}

/** Per place, how many of the snippet's lines (not trivial ones: `}`, `return`) stand in it and in no other place. */
function ownLines(unit: readonly string[], places: readonly DefinitionPlace[], fileLines: readonly string[]): number[] {
  const sets = places.map((p) => new Set(keys(fileLines, p.start, p.end)));
  const wanted = new Set(keys(unit, 0, unit.length).filter((k) => !isTrivial(k)));
  return sets.map((set, k) => {
    let n = 0;
    for (const key of wanted) if (set.has(key) && sets.every((other, j) => j === k || !other.has(key))) n++;
    return n;
  });
}
