/**
 * A snippet's definition whose name the file defines several times, with
 * nothing in the snippet's text that tells them apart by itself (the same
 * header in many classes, no body line that only one has): the merge within
 * each definition's lines (scoped-merge.ts) is the test. Where the snippet's
 * body, markers and all, merges into exactly one of them (changing it), and
 * the merge refuses (or changes nothing) in every other, that one is the
 * definition the snippet shows: its kept lines stand there in the order and
 * company the snippet gives them, and nowhere else. A merge that writes a
 * line the file has (not `}` or `return`) as new does not count: the
 * snippet's kept lines were read as a change there, so they are another
 * definition's (bench:lazy: the 3 wrong merges this test made without that
 * check all wrote such lines). Two or more that take the snippet cleanly
 * leave it refused.
 */
import { EditError } from "../errors.ts";
import { isTrivial, lineKey } from "./align.ts";
import type { ReadDefinition } from "../syntax/definitions-reader.ts";

/** A merge within one definition: its lines, replacing the file's from the definition's name line up to `end`. */
export interface RegionMerge<S> {
  lines: string[];
  stats: S;
  end: number;
}

/** The one definition of `choices` the snippet merges into cleanly (a change, no line of the file written as new), and that merge; undefined when none or several. */
export function onlyFitting<S>(choices: readonly ReadDefinition[], mergeInto: (def: ReadDefinition) => RegionMerge<S> | undefined, fileLines: readonly string[]): { def: ReadDefinition; merged: RegionMerge<S> } | undefined {
  let found: { def: ReadDefinition; merged: RegionMerge<S> } | undefined;
  // The file's keys, built once and only if a merge has more of a line than its definition had.
  let keys: Set<string> | undefined;
  const inFile = (k: string) => {
    keys ??= new Set(fileLines.map(lineKey));
    return keys.has(k);
  };
  for (const def of choices) {
    let merged: RegionMerge<S> | undefined;
    try {
      merged = mergeInto(def);
    } catch (error) {
      if (error instanceof EditError) continue;
      throw error;
    }
    if (merged === undefined || unchanged(merged, def.nameLine, fileLines) || writesFileLines(merged, def.nameLine, fileLines, inFile)) continue;
    if (found) return undefined;
    found = { def, merged };
  }
  return found;
}

function unchanged<S>(m: RegionMerge<S>, from: number, fileLines: readonly string[]): boolean {
  if (m.lines.length !== m.end - from) return false;
  return m.lines.every((l, k) => l === fileLines[from + k]);
}

/** Whether the merge has more of a non-trivial line than the definition had, the file having that line somewhere. */
function writesFileLines<S>(m: RegionMerge<S>, from: number, fileLines: readonly string[], inFile: (key: string) => boolean): boolean {
  const count = new Map<string, number>();
  for (const l of m.lines) {
    const k = lineKey(l);
    if (k !== "" && !isTrivial(k)) count.set(k, (count.get(k) ?? 0) + 1);
  }
  for (let f = from; f < m.end; f++) {
    const k = lineKey(fileLines[f] as string);
    const n = count.get(k);
    if (n !== undefined) count.set(k, n - 1);
  }
  for (const [k, n] of count) if (n > 0 && inFile(k)) return true;
  return false;
}

