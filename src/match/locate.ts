/**
 * Runs a preset's cascade and turns its candidates into one answer: a
 * unique range, all ranges for replaceAll, or an EditError (AMBIGUOUS with
 * every candidate, NOT_FOUND with the closest text).
 */
import { EditError } from "../errors.ts";
import type { Document } from "../text/document.ts";
import { createContext } from "./anchors.ts";
import { PRESETS, type PresetName } from "./cascade.ts";
import { createQuery } from "./query.ts";
import { ambiguityError, notFoundError } from "./report.ts";
import { findRival } from "./rival.ts";
import type { Candidate, MatchContext, Query, Strategy, StrategyName, StrategyOptions } from "./types.ts";

export interface LocateOptions {
  /** Which cascade to run. @default "default" */
  preset?: PresetName;
  /** Return every occurrence found by the first exact-after-normalisation strategy that finds any. @default false */
  replaceAll?: boolean;
  /** 1-based line where the model believes the text starts; chooses between equal candidates when one is clearly nearest. @default undefined */
  startLine?: number;
  /** Lines around `startLine` within which a candidate counts as near. @default 40 */
  hintWindow?: number;
  /** Minimum similarity for the similarity fallback (FuzzyBlock). @default preset's value (0.9 for default) */
  fuzzyThreshold?: number;
  /** Overrides of the preset's other thresholds, for measuring them (bench/accuracy/sweep.ts). @default {} */
  thresholds?: Partial<StrategyOptions>;
}

export interface Located {
  /** One candidate, or every occurrence under replaceAll. */
  candidates: Candidate[];
  strategy: StrategyName;
  /** Strategies run, in order, up to the one that matched. */
  tried: StrategyName[];
}

const DEFAULT_HINT_WINDOW = 40;

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

/**
 * The candidate nearest to the hinted line, when it is clearly the nearest:
 * within the window, and every other candidate at least twice the window
 * (and four times as far) away. Otherwise undefined: the hint does not decide.
 */
export function pickByHint(cands: readonly Candidate[], startLine: number, window = DEFAULT_HINT_WINDOW): Candidate | undefined {
  const byDistance = cands
    .map((c) => ({ c, d: Math.abs(c.startLine + 1 - startLine) }))
    .sort((a, b) => a.d - b.d);
  const [near, next] = byDistance;
  if (!near || near.d > window) return undefined;
  if (next && next.d < Math.max(2 * window, 4 * near.d)) return undefined;
  return near.c;
}

function nonOverlapping(cands: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  let end = -1;
  for (const c of cands) {
    if (c.start < end) continue;
    out.push(c);
    end = c.end;
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
): CascadeRun<T> {
  const tried: StrategyName[] = [];
  let ambiguous: CascadeRun<T>["ambiguous"];
  for (const strategy of strategies) {
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

export function locate(doc: Document, find: string, options: LocateOptions = {}): Located {
  const preset = PRESETS[options.preset ?? "default"];
  if (!preset) throw new EditError("INVALID_INPUT", `Unknown preset "${String(options.preset)}". Use "default" or "opencode".`);
  const strategyOptions: StrategyOptions = { ...preset.options, ...options.thresholds };
  if (options.fuzzyThreshold !== undefined) strategyOptions.fuzzyThreshold = options.fuzzyThreshold;
  const ctx = createContext(doc, strategyOptions);
  const q = createQuery(find);
  const replaceAll = options.replaceAll ?? false;
  // replaceAll needs exact-after-normalisation strategies; MultiOccurrence serves only it.
  const strategies = preset.strategies.filter((s) => (replaceAll ? s.exact : s.name !== "multi-occurrence"));
  const run = runCascade<Candidate[]>(ctx, q, strategies, preset.stopOnAmbiguity, (cands) => {
    if (replaceAll) return { found: nonOverlapping(cands) };
    const [only] = cands;
    if (cands.length === 1 && only) {
      const rival = preset.stopOnAmbiguity ? findRival(ctx, q, only) : undefined;
      return rival ? { ambiguous: [only, rival].sort((a, b) => a.start - b.start) } : { found: cands };
    }
    const hinted = options.startLine === undefined ? undefined : pickByHint(cands, options.startLine, options.hintWindow);
    return hinted ? { found: [hinted] } : { ambiguous: cands };
  });
  if (run.found) return { candidates: run.found.value, strategy: run.found.strategy, tried: run.tried };
  if (run.ambiguous) {
    const { strategy, cands } = run.ambiguous;
    // replaceAll helps only when the places hold the same text (not a rival reading).
    throw ambiguityError(doc, strategy, cands, cands.every((c) => c.strategy === strategy));
  }
  throw notFoundError(ctx, q, run.tried);
}
