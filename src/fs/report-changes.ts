/**
 * Whether a file's report diff may be made from its changed ranges past
 * MAX_CHANGES of them (issue 39, item 6). Up to MAX_CHANGES the parts' diff
 * is taken (createPatchOfChanges: the whole texts' diff wherever the lines
 * between the parts pair only with each other); past it the file layer diffed
 * the whole texts, and keeps those bytes unless the parts give the same:
 * every line of the old text is unique, and every line the changes leave is
 * in no other place of the new text nor of the old. Then the lines both
 * texts share are unique in both, in the same order, and pair one to one in
 * the whole texts' diff as in each part's; what differs is each change's own
 * lines, removed and added: the same regions, the same hunks.
 *
 * Why: 1,995 one-line blocks on 1 MB (`bench:budget`'s "many tiny edits")
 * spent ~160 ms warm, ~450 ms cold, diffing the whole texts; the parts take
 * ~40 ms warm, and this check ~5 ms.
 */
import type { TextChange } from "../text/common-ends.ts";

/** True when the parts' diff of `changes` (sorted ranges of `oldText`, apart) is the whole texts' diff, as argued above. */
export function partsDiffIsWhole(oldText: string, changes: readonly TextChange[]): boolean {
  const lines = new Set<string>();
  let count = 0;
  for (let at = 0; ; ) {
    const end = oldText.indexOf("\n", at);
    lines.add(oldText.slice(at, end === -1 ? oldText.length : end));
    count++;
    if (end === -1) break;
    at = end + 1;
  }
  if (lines.size !== count) return false;
  const added = new Set<string>();
  for (const c of changes) {
    // The new text's lines the change touches: from the line start before it to the line end after it.
    const from = c.start === 0 ? 0 : oldText.lastIndexOf("\n", c.start - 1) + 1;
    const next = oldText.indexOf("\n", c.end);
    const to = next === -1 ? oldText.length : next;
    for (const line of (oldText.slice(from, c.start) + c.text + oldText.slice(c.end, to)).split("\n")) {
      if (lines.has(line) || added.has(line)) return false;
      added.add(line);
    }
  }
  return true;
}
