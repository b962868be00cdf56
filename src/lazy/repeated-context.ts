/**
 * The lines next to a marker that stand before a deletion (the aligned lines
 * after them, with or without new lines between, delete the file's code
 * between): the marker keeps the file up to those lines, so where they stand
 * tells how much is deleted. When the same lines (two or more that are not
 * trivial), in the same order, stand again within the marker's reach (between the aligned line on the marker's
 * other side and their place), the snippet reads as well with the marker
 * ending there and the deletion starting earlier (a block the file has
 * twice, `for item in items:` and its body), the deletion staying within
 * one block and short enough to be made without a note, as the merge's. The merge took the nearest,
 * the smallest deletion; the snippet does not say which (bench:lazy,
 * sympy-16106: 4 wrong merges deleted the second copy's last line where the
 * model deleted the whole second copy). Refused, naming the lines and both
 * places. The mirror for lines before a marker, after a deletion.
 */
import { EditError } from "../errors.ts";
import { type Alignment, isTrivial, lineKey } from "./align.ts";
import { indentWidth, isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";
import { MAX_UNMARKED_DELETION, quoteLine } from "./merge.ts";

const aligned = (snip: readonly SnippetLine[], al: Alignment, k: number): number => (k >= 0 && k < snip.length && (snip[k] as SnippetLine).kind === "code" ? (al.fileLine[k] as number) : -1);

/** The nearest aligned code line's file line from snippet line `k` in direction `dir`, crossing markers, or undefined. */
function boundFrom(snip: readonly SnippetLine[], al: Alignment, k: number, dir: 1 | -1): number | undefined {
  for (let j = k; j >= 0 && j < snip.length; j += dir) if (aligned(snip, al, j) >= 0) return al.fileLine[j] as number;
  return undefined;
}

/** Whether file lines [f, f + keys.length) have these keys. */
function standsAt(fileKeys: readonly string[], keys: readonly string[], f: number): boolean {
  for (let k = 0; k < keys.length; k++) if (fileKeys[f + k] !== keys[k]) return false;
  return true;
}

export function checkRepeatedContext(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], fileKeys: readonly string[], fileIndex: ReadonlyMap<string, number[]>): void {
  for (let m = 0; m < snip.length; m++) {
    if ((snip[m] as SnippetLine).kind !== "marker") continue;
    for (const dir of [1, -1] as const) {
      // The run of aligned lines from the marker on, on consecutive file lines.
      let s = m + dir;
      while (aligned(snip, al, s) < 0 && s >= 0 && s < snip.length && (snip[s] as SnippetLine).kind === "code" && isBlank((snip[s] as SnippetLine).text)) s += dir;
      if (aligned(snip, al, s) < 0) continue;
      let e = s;
      while (aligned(snip, al, e + dir) === aligned(snip, al, e) + dir) e += dir;
      // Beyond it: new lines, then an aligned line that leaves a gap of the file's code (a deletion).
      let t = e + dir;
      while (t >= 0 && t < snip.length && (snip[t] as SnippetLine).kind === "code" && (al.fileLine[t] as number) < 0) t += dir;
      const ft = aligned(snip, al, t);
      if (ft < 0) continue;
      const fe = al.fileLine[e] as number;
      let deleted = false;
      for (let g = Math.min(fe, ft) + 1; g < Math.max(fe, ft) && !deleted; g++) deleted = !isBlank(fileLines[g] as string);
      if (!deleted) continue;
      const [a, b] = dir === 1 ? [s, e] : [e, s];
      const keys: string[] = [];
      for (let k = a; k <= b; k++) keys.push(lineKey((snip[k] as SnippetLine).text));
      // A block the file has twice: two lines at least that are no `}` or `return this;`.
      if (keys.filter((k) => k !== "" && !isTrivial(k)).length < 2) continue;
      const first = keys.findIndex((k) => k !== "");
      const at = al.fileLine[a] as number;
      // The marker's reach: to the aligned line on its other side.
      const bound = boundFrom(snip, al, m - dir, -dir as 1 | -1);
      const lo = dir === 1 ? (bound ?? -1) : at + keys.length - 1;
      const hi = dir === 1 ? at : (bound ?? fileLines.length);
      // The deletion the other place would make stays within one block (no shallower line in it), as the merge's does.
      let depth = isBlank(fileLines[ft] as string) ? Number.POSITIVE_INFINITY : indentWidth(fileLines[ft] as string);
      for (let k = 0; k < keys.length; k++) if (keys[k] !== "") depth = Math.min(depth, indentWidth(fileLines[at + k] as string));
      // and is one the merge would make (no longer than an unmarked deletion may be).
      const within = (q: number) => {
        const [x, y] = dir === 1 ? [q + keys.length, ft] : [ft + 1, q];
        let code = 0;
        for (let g = x; g < y; g++) {
          if (isBlank(fileLines[g] as string)) continue;
          if (indentWidth(fileLines[g] as string) < depth || ++code > MAX_UNMARKED_DELETION) return false;
        }
        return true;
      };
      const other = (fileIndex.get(keys[first] as string) ?? []).map((p) => p - first).find((q) => q > lo && q + keys.length - 1 < hi && q !== at && standsAt(fileKeys, keys, q) && within(q));
      if (other === undefined) continue;
      const line = snip[a + first] as SnippetLine;
      throw new EditError(
        "AMBIGUOUS",
        `The lines at snippet line ${a + first + 1} (${quoteLine(line.text)}), next to the marker at snippet line ${m + 1}, stand at file lines ${at + first + 1} and ${other + first + 1}, and the code the snippet deletes ${dir === 1 ? "after" : "before"} them starts at one or the other: the marker may keep up to either. Include more unchanged lines around them, copied exactly.`,
        { segment: a + first + 1, candidates: [at, other].map((x) => ({ startLine: x + first + 1, endLine: x + keys.length })) },
      );
    }
  }
}
