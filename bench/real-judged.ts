/**
 * Labels of the real-edits development set judged by hand (issue 32: "judge
 * the labels"). The labels were derived mechanically, and the set's README
 * warns that `medium` and `low` ones can be wrong. Each entry names the case,
 * the outcome a careful human expects, and why. `bench:real` scores with
 * these (and prints how many it overrode); `--raw` scores the labels as
 * shipped.
 *
 * - `no_change`: the block was sent again; its new text already stands.
 * - `literal`: the SEARCH text stands exactly once; the block's own REPLACE
 *   there, as written, is right (the str_replace contract).
 * - `refuse_or_no_change`: a stale block whose change already stands in the
 *   file: refusing it and reporting it applied (found through `--history`)
 *   are both right; any write is wrong.
 * - `unscored`: the label holds another edit (the model's changed retry, or
 *   aider's reading), and nothing shows what this block alone should give.
 * - `refuse`: the label applies what no careful human would (aider's pick
 *   among equal places, or the model's retry of another line).
 * - `refuse_or_apply`: refusing is right by the rules (a three-way merge's
 *   CONFLICT, a SEARCH whose text is not in the file) and the label's own
 *   note says refusing is acceptable; writing the label's text stays correct,
 *   any other write wrong.
 */
export interface Judged {
  outcome: "no_change" | "literal" | "refuse_or_no_change" | "unscored" | "refuse" | "refuse_or_apply";
  why: string;
}

const RESENT = "its new text already stands in the file: a block sent again (label calls it refuse)";
const STANDS = "stale (its SEARCH is an older version's); its REPLACE stands in the file, so through history it is a block sent again";
const RETRY = "low confidence: `after` is the model's retry, which changed the edit itself";
const REWRITE =
  "stale: the block rewrites lines the model's own earlier edit changed since the version its SEARCH quotes; both sides changed the same lines, a CONFLICT in any three-way merge (issue 32); the label's note says refusing is acceptable";

export const JUDGED: Readonly<Record<string, Judged>> = Object.freeze({
  "aider-swebench/sphinx-doc__sphinx-8506/try1/msg3/block0": { outcome: "no_change", why: RESENT },
  "aider-swebench/sympy__sympy-13471/try1/msg1/block1": { outcome: "no_change", why: `${RESENT} (\`long(\` -> \`int(\` already made)` },
  "aider-swebench/sympy__sympy-13647/try1/msg3/block3": { outcome: "no_change", why: RESENT },
  "aider-swebench/sympy__sympy-13971/try5/msg3/block4": { outcome: "no_change", why: RESENT },
  "aider-swebench/sympy__sympy-24102/try1/msg2/block0": { outcome: "no_change", why: RESENT },
  "aider-swebench/sympy__sympy-14817/try6/msg2/block0": { outcome: "no_change", why: "its one-line REPLACE stands verbatim once: sent again (label calls it hallucinated)" },
  "aider-swebench/sympy__sympy-12171/try2/msg2/block0": { outcome: "no_change", why: "the label's `after` differs from the file by one trailing space the REPLACE carries: the change stands" },
  "aider-swebench/sympy__sympy-11870/try6/msg3/block1": { outcome: "no_change", why: "an empty-SEARCH append of the lines that already end the file: sent again (aider appended them twice)" },
  "aider-swebench/sympy__sympy-13437/try3/msg2/block2": {
    outcome: "literal",
    why: "the SEARCH line stands exactly once (line 1066); the REPLACE stands only at another place, other indentation (1050): exact means literal",
  },
  "aider-swebench/sympy__sympy-12481/try6/msg3/block0": { outcome: "refuse_or_no_change", why: `${STANDS} (but for \`aform = args\`, which a later edit made \`list(args)\`)` },
  "aider-swebench/sympy__sympy-13773/try4/msg2/block3": { outcome: "refuse_or_no_change", why: STANDS },
  "aider-swebench/sympy__sympy-13773/try6/msg3/block1": { outcome: "refuse_or_no_change", why: STANDS },
  "aider-swebench/sympy__sympy-18057/try2/msg4/block0": { outcome: "refuse_or_no_change", why: STANDS },
  "aider-swebench/sympy__sympy-23191/try5/msg2/block5": { outcome: "refuse_or_no_change", why: STANDS },
  "aider-swebench/sympy__sympy-23191/try5/msg3/block0": { outcome: "refuse_or_no_change", why: STANDS },
  "aider-swebench/sphinx-doc__sphinx-10451/try6/msg1/block0": { outcome: "unscored", why: RETRY },
  "aider-swebench/sympy__sympy-16281/try4/msg1/block1": { outcome: "unscored", why: RETRY },
  "aider-swebench/sympy__sympy-16281/try6/msg2/block0": { outcome: "unscored", why: RETRY },
  "aider-swebench/sympy__sympy-16503/try5/msg1/block0": { outcome: "unscored", why: RETRY },
  "aider-swebench/sympy__sympy-18199/try2/msg1/block0": { outcome: "unscored", why: RETRY },
  "aider-swebench/sympy__sympy-17139/try3/msg2/block0": {
    outcome: "unscored",
    why: "the label is aider's uniform-shift reading, which nests the `if rv.exp.is_number ...` line inside the same line already above; the block's own change is written once",
  },
  "aider-swebench/sympy__sympy-21627/try1/msg1/block0": {
    outcome: "refuse",
    why: "the SEARCH (and the retry's) stands 4 times alike (four _eval_is_zero methods, lines 267, 716, 1214, 1461); aider took the first",
  },
  "aider-swebench/sympy__sympy-23191/try3/msg2/block1": {
    outcome: "refuse",
    why: "its SEARCH line (`def _print_Cross`) is gone, replaced by the model's own earlier edit; the label is the retry's other edit, which replaced `def _print_Curl` and lost that method's header",
  },
  "aider-swebench/sympy__sympy-14817/try6/msg0/block0": {
    outcome: "refuse_or_apply",
    why: "the SEARCH's 14 body lines are another version of _print_MatAdd (similarity 0.56 to the file's): code that is not there; the label's note says refusing is acceptable",
  },
  "aider-swebench/sympy__sympy-13915/try2/msg2/block0": { outcome: "refuse_or_apply", why: REWRITE },
  "aider-swebench/sympy__sympy-14317/try3/msg2/block0": { outcome: "refuse_or_apply", why: REWRITE },
  "aider-swebench/sympy__sympy-14317/try4/msg2/block0": { outcome: "refuse_or_apply", why: REWRITE },
  "aider-swebench/sympy__sympy-16503/try2/msg2/block0": { outcome: "refuse_or_apply", why: REWRITE },
  "aider-swebench/sphinx-doc__sphinx-8273/try1/msg2/block0": {
    outcome: "refuse_or_apply",
    why: "stale: the block inserts a line next to `from os import path`, which the model's own earlier edit changed since (`, makedirs`): a change next to a changed line, a CONFLICT in a three-way merge; the label's note says refusing is acceptable",
  },
  "aider-swebench/sympy__sympy-22005/try6/msg2/block0": {
    outcome: "unscored",
    why: "medium stale label; a three-way merge applies it cleanly (the lines it inserts stand already, its one changed line is written)",
  },
});
