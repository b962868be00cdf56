/**
 * A call's allowance for searches beyond exact text (issue 39, item 6).
 *
 * An edit found exactly costs one search of the text (or a line-index
 * lookup); one that is not runs the looser strategies, ~0.5 ms on 1 MB of
 * code, and up to ~3 ms where BlockAnchor scores its 300 pairs (blocks
 * anchored on `}` lines that are every other line of the file). A response
 * of 1,000-2,000 such near misses took 2-3 s of CPU, over docs/speed.md's
 * 1 s for inputs up to 1 MB; each search is bounded, their number only by
 * `maxEdits`.
 *
 * So a call (one `applyEdits`, one `applySearchReplace`, ...: every edit of
 * a response) counts the work of those searches in the steps its strategies
 * count (`MatchContext.tick`: windows verified, pairs scored), plus
 * PER_EDIT for each edit so searched (its scans, which no step counts), and
 * stops starting them once `limits.maxFuzzySteps` is spent: a later edit
 * that the exact strategy does not place fails TOO_LARGE, naming the limit,
 * without that search. A search started runs to its end, so an input whose
 * searches fit in the allowance gets the answer it always got; the count is
 * of steps, not of time, so the same input gets the same answer on any
 * machine, and steps a memo may skip (listing a needle's hits, which an
 * earlier search of the same text may have done: a server's kept document)
 * are not counted, so also whatever came before it in the process. Measured (in-process, CPU): a `}` near miss ~22,000 steps (its pairs, and the `}` lines it walks and checks) and
 * 2-3 ms; a fuzzy `@@` hunk on a 1 MB file of code ~30 steps and ~0.5 ms.
 */
import { EditError, withoutStacks } from "../errors.ts";
import type { StrategyName } from "../match/types.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { groupDigits } from "../limits.ts";
import type { EditOp } from "./ops.ts";

/**
 * Steps charged for each edit searched beyond its exact text, besides one
 * step per SCAN_CHARS characters of the text searched: its scans, which no
 * step counts, each a pass over the whole text. ~55 `}` near misses
 * (~22,000 steps and 2-5 ms each, cold) fit in the default allowance.
 */
export const PER_EDIT = 500;

/**
 * Characters of the text searched per step charged for an edit's scans. A
 * near miss on 1 MB costs 0.5-1.4 ms of CPU cold (a one-line block with a
 * typo, a fuzzy `@@` hunk) and counts ~30 steps of its own: charged 500
 * steps flat, 2,000 one-line typo blocks on 1 MB fitted and took 2-3 s.
 * Charged by the text's length as well (~5,500 steps on 1 MB), ~220 fit,
 * about the search time of the ~55 `}` near misses that fit.
 */
export const SCAN_CHARS = 200;

/**
 * Steps per SCAN_CHARS characters charged for an edit of a response that the
 * file layer applied after a search beyond its exact text: the text it makes
 * is new, and the next edit reads it anew (a new 1 MB string, its line table,
 * indexes and hashes: ~13-15 ms). 501 two-line blocks with a typo, hinted, on
 * 1 MB: 234 applied fuzzily within the allowance, 3.3 s of CPU; charged so,
 * ~18 fit on 1 MB (~180 on 100 kB).
 */
export const REBUILD_STEPS = 12;

/** Carries one allowance through the engine calls of one response (the file layer applies each block as its own call). Not a public API. */
export const SEARCH_ALLOWANCE: unique symbol = Symbol("fuzzpatch.searchAllowance");

/** Engine options as the file layer passes them, with the allowance of the whole call. */
export interface WithAllowance {
  [SEARCH_ALLOWANCE]?: SearchAllowance;
}

export class SearchAllowance {
  private spent = 0;
  private maxText: string | undefined;
  /** The ops charged: an op whose readings or second try search again is charged once. */
  private readonly charged = new WeakSet<EditOp>();

  constructor(readonly max: number) {}

  /**
   * Called before `strategy` searches for `op` in a text of `textLength`
   * characters: nothing for the exact strategy or an op already charged;
   * else PER_EDIT and the text's scans, or the refusal once the allowance
   * is spent.
   */
  enter(op: EditOp, strategy: StrategyName, find: string, textLength: number): void {
    if (strategy === "exact" || this.charged.has(op)) return;
    if (this.spent >= this.max) throw this.refusal(find);
    this.charged.add(op);
    this.spent += PER_EDIT + Math.ceil(textLength / SCAN_CHARS);
  }

  /** The refusal of an op that would search beyond its exact text once the allowance is spent. */
  private refusal(find: string): EditError {
    // Formatted once: a spent allowance refuses up to 2,000 blocks.
    this.maxText ??= groupDigits(this.max);
    const lines = countBreaks(find, 0, find.length) + 1;
    // Without a stack: 2,000 refusals' stacks were 15-30 ms of a cold call, and the refusal is an answer to the model, never a fault to trace.
    return withoutStacks(
      () =>
        new EditError(
          "TOO_LARGE",
          `It is not in the file exactly as written (${lines === 1 ? "1 line" : `${lines} lines`}), and this call has already spent its allowance for searching edits beyond their exact text (${this.maxText} steps, the 'maxFuzzySteps' limit), so it was not searched further and nothing of it was applied. Send it again in a smaller call, with the file's exact text, or raise the 'maxFuzzySteps' limit if this many near misses are expected.`,
          { limit: "maxFuzzySteps", max: this.max, reason: "fuzzy-allowance" },
        ),
    );
  }

  /** Whether no search beyond exact text will start any more. */
  get spentAll(): boolean {
    return this.spent >= this.max;
  }

  /** Charges the text of `length` characters that an edit found beyond its exact text made: the next edit reads it anew. */
  rebuilt(length: number): void {
    this.spent += REBUILD_STEPS * Math.ceil(length / SCAN_CHARS);
  }

  /** Adds the steps a search of `op` took, when it was charged. */
  add(op: EditOp, steps: number): void {
    if (this.charged.has(op)) this.spent += steps;
  }
}

/** An allowance that starts no search beyond exact text: the file layer's try of a block on the text before the blocks pending (carried-text.ts), which keeps only exact results. */
export const EXACT_ONLY = new SearchAllowance(0);

/** Whether `error` is this allowance's refusal (the op was not placed by the exact strategy). */
export function isAllowanceRefusal(error: unknown): boolean {
  return error instanceof EditError && error.code === "TOO_LARGE" && error.detail.reason === "fuzzy-allowance";
}
