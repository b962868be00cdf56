/**
 * The code's syntax as the last word between readings of a non-exact edit
 * that text alone leaves tied (which of two look-alike places). The core
 * knows no parser: the caller hands in a synchronous judge (the file layer
 * builds one from tree-sitter, src/syntax/judge.ts), and without one the
 * engine decides exactly as before.
 *
 * The rule is one-sided and strict: a reading wins only when it is the one
 * that introduces no syntax error and every other reading introduces some.
 * Two readings that both parse (or both break) stay tied: syntax is evidence
 * against a reading, never a score. An exact match is never weighed here
 * (exact means literal: its text is what the model quoted, wherever it is).
 */

/**
 * How many syntax errors turning `before` into `after` introduces (0: the
 * edit leaves the code well-formed where it touched it); undefined when the
 * judge cannot tell (no grammar, a parser failure). Synchronous: the engine
 * weighs readings inside its own synchronous search.
 */
export type SyntaxJudge = ((before: string, after: string) => number | undefined) & {
  /**
   * Told of a tie no verdict can decide (one of its readings could not be
   * planned) instead of being called on the readings before that one: a
   * judge that has it is spared their parses (a 60 kB sympy file's tie in
   * the real edits parsed its first reading, ~20 ms of a ~600 ms pass,
   * before the second turned out unplannable). A judge without it is called
   * as it always was. Either way the tie stands.
   */
  readonly noteTie?: () => void;
};

/** Readings weighed at most: each costs a parse of the file (an ambiguity among more places is not a tie syntax breaks). */
export const MAX_JUDGED = 8;

/**
 * The index of the one reading whose text introduces no syntax error while
 * every other one's introduces some; undefined otherwise. A reading whose
 * text is undefined (it could not be planned) counts as unknown, so it
 * blocks a decision: the judge rules out readings, it never rules on
 * readings it could not see.
 */
export function pickBySyntax(before: string, texts: readonly (string | undefined)[], judge: SyntaxJudge): number | undefined {
  if (texts.length < 2 || texts.length > MAX_JUDGED) return undefined;
  // An unplannable reading after the first: no decision whatever the verdicts (the loop below
  // would weigh the readings before it and stop there), which `noteTie` stands for.
  if (judge.noteTie && texts.indexOf(undefined) > 0) {
    judge.noteTie();
    return undefined;
  }
  let clean: number | undefined;
  for (const [k, text] of texts.entries()) {
    if (text === undefined) return undefined;
    const introduced = judge(before, text);
    if (introduced === undefined) return undefined;
    if (introduced > 0) continue;
    if (clean !== undefined) return undefined;
    clean = k;
  }
  return clean;
}
