/**
 * The cascade loop shared by every format (engine/locate-op.ts runs it):
 * strategies strictest first, candidates deduplicated, the caller decides.
 */
import type { Candidate, MatchContext, Query, Strategy, StrategyName } from "./types.ts";

/** Distinct ranges, in document order. */
function distinct(cands: Candidate[]): Candidate[] {
  // Most strategies yield ranges already in order (exact: 250,000 replaceAll
  // places spent most of their time here in string keys and a sort).
  let ordered = true;
  for (let k = 1; k < cands.length && ordered; k++) {
    const a = cands[k - 1] as Candidate;
    const b = cands[k] as Candidate;
    ordered = a.start < b.start || (a.start === b.start && a.end < b.end);
  }
  if (ordered) return cands;
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const c of [...cands].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const key = `${c.start}:${c.end}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(c);
    }
  }
  return out;
}


/** What a caller makes of one strategy's candidates: the answer, or the candidates that stay ambiguous. */
export type Pick<T> = { found: T } | { ambiguous: Candidate[] };

export interface CascadeRun<T> {
  found?: { value: T; strategy: StrategyName };
  /** The first ambiguity met, when nothing was found. */
  ambiguous?: { strategy: StrategyName; cands: Candidate[] };
  tried: StrategyName[];
}

/**
 * The cascade loop shared by every format: strategies in order, each one's
 * candidates (deduplicated, then `filter`ed) handed to `pick`. The first
 * answer wins; an ambiguity stops the run when the preset says so (a looser
 * strategy never wins over it), else the next strategy is tried.
 */
export function runCascade<T>(
  ctx: MatchContext,
  q: Query,
  strategies: readonly Strategy[],
  stopOnAmbiguity: boolean,
  pick: (cands: Candidate[], strategy: StrategyName) => Pick<T>,
  filter: (cands: Candidate[]) => Candidate[] = (c) => c,
  /** Called before each strategy: the time budget's check (throws TIMEOUT). */
  beforeStrategy: (strategy: StrategyName) => void = () => {},
): CascadeRun<T> {
  const tried: StrategyName[] = [];
  let ambiguous: CascadeRun<T>["ambiguous"];
  for (const strategy of strategies) {
    beforeStrategy(strategy.name);
    tried.push(strategy.name);
    const cands = filter(distinct(strategy.find(ctx, q)));
    if (cands.length === 0) continue;
    const picked = pick(cands, strategy.name);
    if ("found" in picked) return { found: { value: picked.found, strategy: strategy.name }, tried };
    ambiguous ??= { strategy: strategy.name, cands: picked.ambiguous };
    if (stopOnAmbiguity) break;
  }
  return ambiguous ? { ambiguous, tried } : { tried };
}

