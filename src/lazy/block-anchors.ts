/**
 * A segment none of whose lines is unique in the file (`return None`,
 * `x = self.dom.createElement('mfenced')`, `}`) has no anchor for the
 * patience alignment, yet its lines may still say where it goes: its runs
 * of file lines, each a block of consecutive lines, stand in the file in
 * the segment's order, close together, in one place only. A careful reader
 * places it so: the run before the change, then the run after it a few
 * lines on. Each run's places are found as blocks, and the places chained
 * in order with gaps no larger than the new lines between them allow; a
 * single chain pins the runs, and any other count leaves the segment to be
 * refused as before.
 */
import { isTrivial } from "./align.ts";
import type { SnippetLine } from "./markers.ts";
import { alignedAfter, alignedBefore, forEachUnplacedSegment } from "./unplaced-segments.ts";

// Chains are counted with a gap to the next run of up to twice the new lines between them plus
// SEEN (so another place nearby makes the segment ambiguous), and the one chain is taken only when
// its gaps exceed the new lines by at most TAKEN. bench:lazy: counting with the narrow gap made a
// wrong place unique (the right one's deletion was longer), and taking a wide gap let common runs
// (`x = ...('apply')`, `return x`) chain across whole methods.
export const SEEN = 40;
export const TAKEN = 3;
// More places than this for one run: the chains are not counted (the segment stays unplaced).
export const MAX_PLACES = 64;

interface Run {
  /** Snippet lines [start, end). */
  start: number;
  end: number;
  places: number[];
}

/** File lines where keys [start, end) of the snippet stand as consecutive lines, within [lo, hi). */
function blockPlaces(sKeys: readonly string[], fileKeys: readonly string[], start: number, end: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  const first = sKeys[start] as string;
  for (let f = lo; f + (end - start) <= hi; f++) {
    if (fileKeys[f] !== first) continue;
    let k = 1;
    while (k < end - start && fileKeys[f + k] === sKeys[start + k]) k++;
    if (k === end - start) out.push(f);
    if (out.length > MAX_PLACES) break;
  }
  return out;
}

/** The segment's runs of lines the file has (blank lines inside a run kept, at its ends dropped). */
function runsOf(snip: readonly SnippetLine[], sKeys: readonly string[], known: ReadonlySet<string>, s0: number, s1: number): Run[] | undefined {
  const runs: Run[] = [];
  let s = s0;
  while (s < s1) {
    while (s < s1 && (sKeys[s] === "" || !known.has(sKeys[s] as string))) s++;
    if (s >= s1) break;
    const start = s;
    let end = s;
    while (s < s1 && snip[s]?.kind === "code" && (sKeys[s] === "" || known.has(sKeys[s] as string))) {
      if (sKeys[s] !== "") end = s + 1;
      s++;
    }
    runs.push({ start, end, places: [] });
  }
  return runs.length > 0 ? runs : undefined;
}

/** The chains of one place per run, in order, each gap within reach; stops counting past 2. */
function chains(runs: readonly Run[], k: number, after: number, budget: { n: number; found: number[][] }, path: number[]): void {
  if (budget.found.length > 1 || budget.n-- <= 0) return;
  if (k === runs.length) {
    budget.found.push([...path]);
    return;
  }
  const run = runs[k] as Run;
  const prev = runs[k - 1];
  const reach = prev ? (run.start - prev.end) * 2 + SEEN : Number.POSITIVE_INFINITY;
  for (const f of run.places) {
    if (f < after || f - after > reach) continue;
    path.push(f);
    chains(runs, k + 1, f + (run.end - run.start), budget, path);
    path.pop();
  }
}

/**
 * Pins the runs of each segment that has no aligned line, where they chain
 * in one way only between the aligned lines around the segment.
 */
export function anchorBlocks(snip: readonly SnippetLine[], sKeys: readonly string[], fileKeys: readonly string[], out: Int32Array): void {
  let known: Set<string> | undefined;
  forEachUnplacedSegment(snip, out, (s, e) => {
    known ??= new Set(fileKeys);
    pinSegment(snip, sKeys, fileKeys, out, known, s, e);
  });
}

function pinSegment(snip: readonly SnippetLine[], sKeys: readonly string[], fileKeys: readonly string[], out: Int32Array, known: ReadonlySet<string>, s: number, e: number): void {
  const runs = runsOf(snip, sKeys, known, s, e);
  if (!runs) return;
  // One run alone is no evidence of a place: lines adjacent in the snippet may have had lines between
  // them in the file (a deletion), and the run then matches where they happen to stand together.
  if (runs.length < 2) return;
  const lo = alignedBefore(out, s);
  const hi = alignedAfter(out, e, fileKeys.length);
  for (const r of runs) {
    // A run of `}` and `return;` lines stands everywhere: no evidence (bench:lazy: Rust `}` runs chained).
    if (!sKeys.slice(r.start, r.end).some((k) => k !== "" && !isTrivial(k))) return;
    r.places = blockPlaces(sKeys, fileKeys, r.start, r.end, lo, hi);
    if (r.places.length === 0 || r.places.length > MAX_PLACES) return;
  }
  const budget = { n: 20_000, found: [] as number[][] };
  chains(runs, 0, lo, budget, []);
  if (budget.found.length !== 1 || budget.n <= 0) return;
  const chain = budget.found[0] as number[];
  for (let k = 1; k < runs.length; k++) {
    const [a, b] = [runs[k - 1] as Run, runs[k] as Run];
    if ((chain[k] as number) - ((chain[k - 1] as number) + (a.end - a.start)) > b.start - a.end + TAKEN) return;
  }
  runs.forEach((r, k) => {
    for (let t = r.start; t < r.end; t++) out[t] = (chain[k] as number) + (t - r.start);
  });
}
