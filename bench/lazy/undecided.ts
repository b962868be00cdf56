/**
 * A rendering that does not decide its merge: the same snippet is also the
 * rendering, in the same style, of another after file, the change moved to
 * another place of the before file where the lines it replaces and the
 * lines around them are the same (a function or a block the file has
 * twice), or, for a hunk that only deletes, a deletion of other lines
 * between the same lines of context (the snippet shows what stays, never
 * what went). No merge can be right for both, so bench:lazy scores such a
 * snippet as a case to refuse, not as a merge to make. The check is the
 * renderer run again on the other file, not a guess: a snippet counts only
 * when it comes out byte for byte the same.
 */
import { structuredPatch } from "diff";
import { MAX_UNMARKED_DELETION } from "../../src/lazy/merge.ts";
import { CONTEXT, type Lang, renderSnippet, type Style } from "./render.ts";

interface Hunk {
  /** 0-based line of the before file where the hunk's old lines start (or where it inserts). */
  at: number;
  removed: string[];
  added: string[];
}

// Other places tried per hunk: more would only cost time (a place must match the hunk's lines and both neighbours).
const MAX_PLACES = 30;
// Longest other deletion tried for a hunk that only deletes: a longer one is not rendered as a gap (MAX_UNMARKED_DELETION).
const MAX_OTHER_DELETION = 2 * MAX_UNMARKED_DELETION;

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
    const others = hunks.filter((_, j) => j !== i);
    for (const alt of otherPlaces(old, h, others, Math.max(1, CONTEXT[style]))) {
      const text = applyHunks(old, [...others, alt]);
      if (text !== after && renderSnippet(before, text, lang, style) === snippet) return true;
    }
  }
  return false;
}

/**
 * The hunk moved to other places of the file, clear of the other hunks: where
 * its old lines and both neighbours are the same; and, for a hunk that only
 * deletes, also a deletion of other lines between the same two neighbours
 * (`a; x; b` and `a; y; b` both read `a; b` once their middle line is
 * deleted: the snippet shows the lines kept, never the ones that went).
 */
function* otherPlaces(old: readonly string[], h: Hunk, others: readonly Hunk[], context: number): Generator<Hunk> {
  const n = h.removed.length;
  const clear = (q: number, m: number) => !others.some((o) => q + m >= o.at - 1 && q <= o.at + o.removed.length + 1);
  let tried = 0;
  for (let q = 0; q + n <= old.length && tried < MAX_PLACES; q++) {
    if (q === h.at || old[q - 1] !== old[h.at - 1] || old[q + n] !== old[h.at + n] || !sameAt(old, h.removed, q) || !clear(q, n)) continue;
    tried++;
    yield { ...h, at: q };
  }
  if (h.added.length > 0 || n === 0) return;
  // The lines the snippet shows around the deletion must stand around the other one too (checked before rendering).
  const head = old.slice(Math.max(0, h.at - context), h.at);
  const tail = old.slice(h.at + n, h.at + n + context);
  if (head.length === 0 || tail.length === 0) return;
  tried = 0;
  for (let q = head.length; q < old.length && tried < MAX_PLACES; q++) {
    if (!sameAt(old, head, q - head.length)) continue;
    for (let m = 1; m <= MAX_OTHER_DELETION && q + m + tail.length <= old.length && tried < MAX_PLACES; m++) {
      // Another place: one overlapping the deletion's own lines tells only where its edge lies.
      if (q <= h.at + n && q + m >= h.at) continue;
      if ((m === n && sameAt(old, h.removed, q)) || !sameAt(old, tail, q + m) || !clear(q, m)) continue;
      tried++;
      yield { at: q, removed: old.slice(q, q + m), added: [] };
    }
  }
}
