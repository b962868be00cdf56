/**
 * A comment that reads as a removal note (`# Remove duplicated *args`,
 * `// delete the cache entry`) but is followed by new code is a comment
 * over that code, not a note: models write such comments above the code
 * that does what they say, and a note stands for lines taken out between
 * two lines of the file. Read as a note, it deleted the file's lines up to
 * the next line of the file, or to the file's end when none followed
 * (bench:lazy: 5 wrong merges, one of them deleting 1,550 lines). Over:
 * on the line just above a line the file does not have at all (a `}`
 * after a note is the file's; a note, then a blank line, then a new
 * function is a note).
 */
import { lineKey } from "./align.ts";
import { isBlank } from "./blocks.ts";
import type { SnippetLine } from "./markers.ts";

/** `places`: where the file has each snippet line's key (key-index.ts keyPlaces): no set of every file line is built. */
export function removalsAsComments(snip: readonly SnippetLine[], places: ReadonlyMap<string, readonly number[]>): readonly SnippetLine[] {
  if (!snip.some((l) => l.kind === "removal")) return snip;
  let changed = false;
  const out = snip.map((l, s) => {
    if (l.kind !== "removal") return l;
    const next = snip[s + 1];
    if (next === undefined || next.kind !== "code" || isBlank(next.text) || places.has(lineKey(next.text))) return l;
    changed = true;
    return { ...l, kind: "code" as const };
  });
  return changed ? out : snip;
}
