/**
 * What the syntax check says about the accuracy benchmark's cases, for
 * `bench:syntax` (`--accuracy N`): the cases of `bench:accuracy` (edits cut
 * from the installed dependencies' files, with a model's mistakes), each in
 * every format, applied by every applier as bench:accuracy applies them.
 * Of each applier's writes to a file of a known language: how many correct
 * writes the check flags (and of those, how many are the case's own: the
 * expected file, checked against the file before, is flagged too, as when
 * the region cut ends inside a construct), and how many wrong writes it
 * flags (and of those, how many in a case whose intended edit breaks the
 * syntax too: the case's text may be what the check saw). With `verify: "syntax"` a write is refused exactly when the check
 * flags it (fs/syntax-check.ts checkTargets), so the flagged counts are the
 * refused ones: wrong -> refused, correct -> refused.
 */
import { type Applier, loadAppliers, runCase } from "./accuracy/appliers.ts";
import { casesByFormat } from "./accuracy/cases.ts";
import { findCorpus } from "./accuracy/corpus.ts";
import { expectedFor, renderCase } from "./accuracy/render.ts";
import { checkSyntax } from "../src/syntax/index.ts";

interface Tally {
  correct: number;
  correctFlagged: number;
  casesOwn: number;
  wrong: number;
  wrongFlagged: number;
  /** Wrong writes flagged where the intended edit introduces an error too (the case's text, not the wrong place, may be what breaks). */
  wrongCasesOwn: number;
  /** Writes to files of no known language (not checked). */
  unchecked: number;
}

const empty = (): Tally => ({ correct: 0, correctFlagged: 0, casesOwn: 0, wrong: 0, wrongFlagged: 0, wrongCasesOwn: 0, unchecked: 0 });

async function introduced(path: string, before: string, after: string): Promise<number | undefined> {
  return (await checkSyntax(path, before, after))?.introduced.length;
}

/** Tallies one applier's write (content differs from the file before) into `t`. */
async function tallyWrite(t: Tally, path: string, before: string, after: string, expected: string | undefined): Promise<void> {
  const n = await introduced(path, before, after);
  if (n === undefined) {
    t.unchecked++;
    return;
  }
  if (after === expected) {
    t.correct++;
    if (n > 0) {
      t.correctFlagged++;
      if (((await introduced(path, before, expected)) ?? 0) > 0) t.casesOwn++;
    }
  } else {
    t.wrong++;
    if (n > 0) {
      t.wrongFlagged++;
      if (expected !== undefined && ((await introduced(path, before, expected)) ?? 0) > 0) t.wrongCasesOwn++;
    }
  }
}

export async function accuracyFigures(count: number, seed = 1): Promise<void> {
  const corpus = findCorpus({ projectRoot: process.cwd() });
  const { appliers } = await loadAppliers();
  const tallies = new Map<string, Tally>();
  const byFormat = new Map<string, Tally>();
  try {
    for (const { c, format } of casesByFormat(corpus, seed, count)) {
      const edit = renderCase(c, format);
      for (const applier of appliers.filter((a: Applier) => a.formats.includes(format))) {
        const outcome = await runCase(applier, edit, c);
        if (outcome.status !== "applied" || outcome.content === undefined || outcome.content === c.content) continue;
        const t = tallies.get(applier.name) ?? empty();
        tallies.set(applier.name, t);
        const expected = expectedFor(c, format);
        await tallyWrite(t, c.file, c.content, outcome.content, expected);
        if (applier.name === "fuzzpatch") {
          const f = byFormat.get(format) ?? empty();
          byFormat.set(format, f);
          await tallyWrite(f, c.file, c.content, outcome.content, expected);
        }
      }
    }
  } finally {
    for (const a of appliers) a.dispose?.();
  }
  console.log(`accuracy cases (${count}, seed ${seed}), writes to files of a known language; with verify: "syntax" the flagged ones are refused:`);
  const row = (name: string, t: Tally) =>
    console.log(
      `  ${name.padEnd(22)} correct ${t.correct}, flagged ${t.correctFlagged} (the case's own ${t.casesOwn}, false flags ${t.correctFlagged - t.casesOwn}); wrong ${t.wrong}, flagged ${t.wrongFlagged} (where the intended edit breaks too ${t.wrongCasesOwn}); unchecked ${t.unchecked}`,
    );
  for (const [name, t] of tallies) row(name, t);
  for (const [format, t] of byFormat) row(`fuzzpatch ${format}`, t);
}
