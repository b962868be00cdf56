/**
 * A rendering that does not decide its merge: the same snippet is also the
 * rendering, in the same style, of another after file, the change moved to
 * another place of the before file where the lines it replaces and the
 * lines around them are the same (a function or a block the file has
 * twice). No merge can be right for both, so bench:lazy scores such a
 * snippet as a case to refuse, not as a merge to make. The check is the
 * renderer run again on the other file, not a guess: a snippet counts only
 * when it comes out byte for byte the same.
 */
import { structuredPatch } from "diff";
import { type Lang, renderSnippet, type Style } from "./render.ts";

interface Hunk {
  /** 0-based line of the before file where the hunk's old lines start (or where it inserts). */
  at: number;
  removed: string[];
  added: string[];
}

// Other places tried per hunk: more would only cost time (a place must match the hunk's lines and both neighbours).
const MAX_PLACES = 30;

function hunksOf(before: string, after: string): Hunk[] {
  return structuredPatch("a", "b", before, after, "", "", { context: 0 }).hunks.map((h) => ({
    at: h.oldStart - 1,
    removed: h.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1)),
    added: h.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1)),
  }));
}

function applyHunks(old: readonly string[], hunks: readonly Hunk[]): string {
  const out: string[] = [];
  let cursor = 0;
  for (const h of [...hunks].sort((a, b) => a.at - b.at)) {
    for (; cursor < h.at; cursor++) out.push(old[cursor] as string);
    for (const l of h.added) out.push(l);
    cursor = h.at + h.removed.length;
  }
  for (; cursor < old.length; cursor++) out.push(old[cursor] as string);
  return out.join("\n");
}

function sameAt(old: readonly string[], lines: readonly string[], at: number): boolean {
  for (let k = 0; k < lines.length; k++) if (old[at + k] !== lines[k]) return false;
  return true;
}

/** Whether another after file (one hunk moved to an equal place) renders to the same snippet. */
export function undecided(before: string, after: string, lang: Lang, style: Style, snippet: string): boolean {
  const old = before.split("\n");
  const hunks = hunksOf(before, after);
  // A patch read back differently (a missing final newline) claims nothing.
  if (applyHunks(old, hunks) !== after) return false;
  for (const [i, h] of hunks.entries()) {
    const n = h.removed.length;
    const others = hunks.filter((_, j) => j !== i);
    let tried = 0;
    for (let q = 0; q + n <= old.length && tried < MAX_PLACES; q++) {
      if (q === h.at || old[q - 1] !== old[h.at - 1] || old[q + n] !== old[h.at + n] || !sameAt(old, h.removed, q)) continue;
      if (others.some((o) => q + n >= o.at - 1 && q <= o.at + o.removed.length + 1)) continue;
      tried++;
      const alt = applyHunks(old, [...others, { ...h, at: q }]);
      if (alt !== after && renderSnippet(before, alt, lang, style) === snippet) return true;
    }
  }
  return false;
}
