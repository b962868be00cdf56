/**
 * Which runs of lines occur only once in a text, each asked in O(1).
 *
 * createPatch grows a hunk until its old side is unique in the old text.
 * Searching for each grown window again (or filtering its occurrences one
 * step at a time) cost up to n per step on repetitive files: 100k repeated
 * lines took 34 s, and with every 1000th line changed still grew ×3.6 per
 * doubling. Sorting the suffixes of the line-id sequence answers every such
 * question at once: the suffixes that share a run's first L ids are
 * neighbours in sorted order, so the run [s, s + L) occurs elsewhere exactly
 * when L is at most the longer common prefix of suffix s with its two
 * neighbours. That length is computed once per position.
 *
 * Sorted by prefix doubling with counting sorts: round j ranks every
 * suffix by its first 2^j ids. Only runs up to `cap` ids are ever asked
 * about, so the doubling stops once 2^j reaches `cap` (ties past it stay in
 * any order, which runs that short cannot tell apart), or earlier when every
 * suffix is apart (one round for a file of distinct lines). Common prefixes
 * are then measured by the ranks of each round, largest block first
 * (O(log cap) per position). So O(n log cap) in all: linear for a bounded
 * cap, where 100k equal lines took 17 rounds to sort completely.
 */

/**
 * For each position, the length of the longest run starting there that also
 * starts somewhere else; `cap` when that is `cap` or more.
 */
export function repeatLengths(ids: Int32Array, cap = Number.POSITIVE_INFINITY): Int32Array {
  const n = ids.length;
  const repeat = new Int32Array(n);
  if (n < 2 || cap <= 0) return repeat;
  const { sa, ranks } = sortSuffixes(ids, cap);
  const limit = Math.min(cap, n);
  // Common prefix of suffixes a and b: whole blocks of 2^j ids, largest first.
  const common = (a: number, b: number): number => {
    let len = 0;
    for (let j = ranks.length - 1; j >= 0 && len < limit; j--) {
      const r = ranks[j] as Int32Array;
      if (a + len < n && b + len < n && r[a + len] === r[b + len]) len += 1 << j;
    }
    return Math.min(len, limit);
  };
  let previous = 0; // common prefix of sa[r - 1] and sa[r]
  for (let r = 0; r < n; r++) {
    const s = sa[r] as number;
    const next = r + 1 < n ? common(s, sa[r + 1] as number) : 0;
    repeat[s] = previous > next ? previous : next;
    previous = next;
  }
  return repeat;
}

/**
 * Suffixes of `ids` (non-negative integers) sorted by their first 2^J ids,
 * 2^J the first power of two at least `cap` (or fewer, once all are apart),
 * with the ranks of every round: ranks[j][i] orders suffix i by its first
 * 2^j ids (equal ranks: equal prefixes, a suffix too short to have one
 * ranking as itself).
 */
function sortSuffixes(ids: Int32Array, cap: number): { sa: Int32Array; ranks: Int32Array[] } {
  const n = ids.length;
  let classes = 0;
  for (let i = 0; i < n; i++) if ((ids[i] as number) >= classes) classes = (ids[i] as number) + 1;
  const sa = new Int32Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  countingSort(order, ids, classes, sa);
  // Ranks by the first id, numbered densely: `classes` counts the distinct ones (all apart: no round).
  let rank = new Int32Array(n);
  let distinct = 0;
  for (let r = 1; r < n; r++) {
    if (ids[sa[r] as number] !== ids[sa[r - 1] as number]) distinct++;
    rank[sa[r] as number] = distinct;
  }
  classes = distinct + 1;
  const ranks = [rank];
  for (let k = 1; classes < n && k < cap && k < n; k <<= 1) {
    // Sort by the first 2k ids: by the second half first (suffixes without one,
    // then sa shifted by k, already in order), then stably by the first half.
    let p = 0;
    for (let i = Math.max(0, n - k); i < n; i++) order[p++] = i;
    for (let r = 0; r < n; r++) {
      const s = sa[r] as number;
      if (s >= k) order[p++] = s - k;
    }
    countingSort(order, rank, classes, sa);
    const next = new Int32Array(n);
    let c = 0;
    next[sa[0] as number] = 0;
    for (let r = 1; r < n; r++) {
      const a = sa[r - 1] as number;
      const b = sa[r] as number;
      const ra = a + k < n ? (rank[a + k] as number) : -1;
      const rb = b + k < n ? (rank[b + k] as number) : -1;
      if (rank[a] !== rank[b] || ra !== rb) c++;
      next[b] = c;
    }
    rank = next;
    ranks.push(rank);
    classes = c + 1;
  }
  return { sa, ranks };
}

/** Stable counting sort of the positions in `order` by `key[position]` (keys in [0, classes)), into `out`. */
function countingSort(order: Int32Array, key: Int32Array, classes: number, out: Int32Array): void {
  const count = new Int32Array(classes + 1);
  for (let i = 0; i < order.length; i++) (count[(key[order[i] as number] as number) + 1] as number)++;
  for (let c = 0; c < classes; c++) count[c + 1] = (count[c + 1] as number) + (count[c] as number);
  for (let i = 0; i < order.length; i++) {
    const pos = order[i] as number;
    const c = key[pos] as number;
    out[count[c] as number] = pos;
    count[c] = (count[c] as number) + 1;
  }
}
