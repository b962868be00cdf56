/**
 * Which runs of lines occur only once in a text, each asked in O(1).
 *
 * createPatch grows a hunk until its old side is unique in the old text.
 * Searching for each grown window again (or filtering its occurrences one
 * step at a time) cost up to n per step on repetitive files: 100k repeated
 * lines took 34 s, and with every 1000th line changed still grew ×3.6 per
 * doubling. A suffix array of the line ids answers every such question at
 * once: the run [s, e) occurs elsewhere exactly when some other suffix shares
 * its first e - s ids with the suffix at s, and the longest prefix a suffix
 * shares with any other is the larger LCP with its two neighbours in
 * suffix order. So `repeatLength(s)` is computed once per position, and
 * [s, e) is unique iff e - s > repeatLength(s).
 *
 * Built by prefix doubling with counting sorts (O(n log r), r the longest
 * repeat: one round for a file of distinct lines, 17 for 100k equal ones)
 * and Kasai's LCP pass (O(n)); four Int32Arrays of n.
 */

/** For each position, the length of the longest run starting there that also starts somewhere else. */
export function repeatLengths(ids: Int32Array): Int32Array {
  const n = ids.length;
  const repeat = new Int32Array(n);
  if (n < 2) return repeat;
  const sa = suffixArray(ids);
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i++) rank[sa[i] as number] = i;
  // Kasai: the LCP of suffix i with the one before it in suffix order drops by at most one from i to i + 1.
  const lcp = new Int32Array(n); // lcp[r]: common prefix of sa[r - 1] and sa[r]
  let h = 0;
  for (let i = 0; i < n; i++) {
    const r = rank[i] as number;
    if (r === 0) {
      h = 0;
      continue;
    }
    const j = sa[r - 1] as number;
    while (i + h < n && j + h < n && ids[i + h] === ids[j + h]) h++;
    lcp[r] = h;
    if (h > 0) h--;
  }
  for (let i = 0; i < n; i++) {
    const r = rank[i] as number;
    const before = lcp[r] as number;
    const after = r + 1 < n ? (lcp[r + 1] as number) : 0;
    repeat[i] = before > after ? before : after;
  }
  return repeat;
}

/** Suffix array of `ids` (non-negative integers), by prefix doubling with counting sorts. */
function suffixArray(ids: Int32Array): Int32Array {
  const n = ids.length;
  let classes = 0;
  for (let i = 0; i < n; i++) if ((ids[i] as number) >= classes) classes = (ids[i] as number) + 1;
  // rank: the class of each suffix's first k ids, numbered in sorted order (ids themselves for k = 1).
  let rank = Int32Array.from(ids);
  let next = new Int32Array(n);
  const sa = new Int32Array(n);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  countingSort(order, rank, classes, sa);
  for (let k = 1; classes < n && k < n; k <<= 1) {
    // Sort by the first 2k ids: by the second half first (suffixes without one,
    // then sa shifted by k, already in order), then stably by the first half.
    let p = 0;
    for (let i = Math.max(0, n - k); i < n; i++) order[p++] = i;
    for (let r = 0; r < n; r++) {
      const s = sa[r] as number;
      if (s >= k) order[p++] = s - k;
    }
    countingSort(order, rank, classes, sa);
    next[sa[0] as number] = 0;
    let c = 0;
    for (let r = 1; r < n; r++) {
      const a = sa[r - 1] as number;
      const b = sa[r] as number;
      const ra = a + k < n ? (rank[a + k] as number) : -1;
      const rb = b + k < n ? (rank[b + k] as number) : -1;
      if (rank[a] !== rank[b] || ra !== rb) c++;
      next[b] = c;
    }
    [rank, next] = [next, rank];
    classes = c + 1;
  }
  return sa;
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
