/**
 * A diff in which some elements are anchors: the anchors are diffed first,
 * and the others only between the pairs that gives. Blank lines must not
 * pair in place of a line of text, nor a quote or a space in place of a word:
 * one diff over everything may keep the filler and re-add the text beside it.
 */
import { diffLinesBounded } from "../text/line-diff.ts";

export interface DiffPart {
  count: number;
  added?: boolean;
  removed?: boolean;
}

export function anchoredDiff(a: readonly string[], b: readonly string[], isAnchor: (x: string) => boolean): DiffPart[] {
  return simpleDiff(a, b, isAnchor) ?? fullAnchoredDiff(a, b, isAnchor);
}

/**
 * The diff of elements that are all anchors when what differs, between the
 * common start and end, is elements on one side only or one on each: the
 * full diff strips the same start and end and has nothing left to pair.
 * Most hunks and blocks (a line changed, lines added) are this, and the full
 * diff cost them ~20 µs each. (With fillers the full diff may pair an anchor
 * of the common end earlier: `a` against `"", a, a`.)
 */
function simpleDiff(a: readonly string[], b: readonly string[], isAnchor: (x: string) => boolean): DiffPart[] | undefined {
  if (!a.every(isAnchor) || !b.every(isAnchor)) return undefined;
  const n = Math.min(a.length, b.length);
  let head = 0;
  while (head < n && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < n - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.length - head - tail;
  const added = b.length - head - tail;
  if (removed > 0 && added > 0 && (removed > 1 || added > 1)) return undefined;
  const out: DiffPart[] = [];
  if (head > 0) out.push({ count: head });
  if (removed > 0) out.push({ count: removed, removed: true });
  if (added > 0) out.push({ count: added, added: true });
  if (tail > 0) out.push({ count: tail });
  return out;
}

/** The diff without the shortcut (exported for the test that both give the same parts). */
export function fullAnchoredDiff(a: readonly string[], b: readonly string[], isAnchor: (x: string) => boolean): DiffPart[] {
  const ai = a.flatMap((x, i) => (isAnchor(x) ? [i] : []));
  const bi = b.flatMap((x, i) => (isAnchor(x) ? [i] : []));
  const pairs: [number, number][] = [];
  let x = 0;
  let y = 0;
  // Bounded diffs: jsdiff's unbounded one made a 4,000-line rewrite hunk cost 4.6 s (quadratic).
  for (const part of diffLinesBounded(
    ai.map((i) => a[i] ?? ""),
    bi.map((i) => b[i] ?? ""),
  )) {
    const count = part.count ?? part.value.length;
    if (part.removed) x += count;
    else if (part.added) y += count;
    else for (let n = 0; n < count; n++) pairs.push([ai[x++] as number, bi[y++] as number]);
  }
  pairs.push([a.length, b.length]);
  const out: DiffPart[] = [];
  const push = (p: DiffPart) => {
    const last = out[out.length - 1];
    if (last && !!last.added === !!p.added && !!last.removed === !!p.removed) last.count += p.count;
    else if (p.count > 0) out.push(p);
  };
  let pa = 0;
  let pb = 0;
  for (const [na, nb] of pairs) {
    const sa = a.slice(pa, na);
    const sb = b.slice(pb, nb);
    const filler = (e: string) => !isAnchor(e);
    if (!sa.some(filler) || !sb.some(filler)) {
      // Between two anchor pairs no anchors are equal, so without filler on both sides nothing pairs
      // (and a rewritten block costs no second diff).
      push({ count: sa.length, removed: true });
      push({ count: sb.length, added: true });
    } else {
      for (const part of diffLinesBounded(sa, sb)) {
        const count = part.count ?? part.value.length;
        push(part.added ? { count, added: true } : part.removed ? { count, removed: true } : { count });
      }
    }
    if (na < a.length) push({ count: 1 });
    pa = na + 1;
    pb = nb + 1;
  }
  return out;
}
