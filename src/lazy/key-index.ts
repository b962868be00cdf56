/**
 * The file's lines looked up by the snippet's lines only: the merge asks
 * where a snippet line's key stands in the file, and whether its trimmed
 * text is a file line, never about the file's other lines. An index of every
 * line of a 100k-line file (a map of 100k keys, and a set of 100k trimmed
 * lines) cost more than the alignment it served.
 */
import { lineKey } from "./align.ts";

/** The 0-based file lines (ascending) of each of `keys` that the file has. */
export function keyPlaces(fileKeys: readonly string[], keys: Iterable<string>): Map<string, number[]> {
  const wanted = new Set(keys);
  const places = new Map<string, number[]>();
  for (let f = 0; f < fileKeys.length; f++) {
    const k = fileKeys[f] as string;
    if (!wanted.has(k)) continue;
    const list = places.get(k);
    if (list) list.push(f);
    else places.set(k, [f]);
  }
  return places;
}

/**
 * The trimmed snippet lines (and `...`) that are trimmed lines of the file:
 * what a set of every trimmed file line answers for them. A line trimmed
 * equal has the same key, so only the file lines of that key are compared.
 * `places`: keyPlaces of the snippet lines' keys and `...`.
 */
export function trimmedInFile(snippetLines: readonly string[], fileLines: readonly string[], places: ReadonlyMap<string, readonly number[]>): Set<string> {
  const asked = new Set(snippetLines.map((l) => l.trim()));
  asked.add("...");
  const found = new Set<string>();
  for (const t of asked) {
    for (const f of places.get(lineKey(t)) ?? []) {
      if ((fileLines[f] as string).trim() !== t) continue;
      found.add(t);
      break;
    }
  }
  return found;
}
