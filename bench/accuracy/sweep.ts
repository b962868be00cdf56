/**
 * Threshold sweep for the default preset: the same generated cases as the
 * accuracy benchmark, applied through replace() with one threshold changed
 * at a time. Prints correct / wrong / refused per setting, the evidence for
 * the values in src/match/cascade.ts (see the README, "Presets").
 *
 * Usage: npm run bench:sweep -- [--cases N] [--seed N]
 */
import { EditError, replace } from "../../src/index.ts";
import type { StrategyOptions } from "../../src/match/types.ts";
import { generateCases } from "./cases.ts";
import { findCorpus } from "./corpus.ts";
import { renderCase } from "./render.ts";

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const settings: [string, Partial<StrategyOptions>][] = [
  ["default", {}],
  ["fuzzyThreshold 0.8", { fuzzyThreshold: 0.8 }],
  ["fuzzyThreshold 0.85", { fuzzyThreshold: 0.85 }],
  ["fuzzyThreshold 0.95", { fuzzyThreshold: 0.95 }],
  ["fuzzy off (1.01)", { fuzzyThreshold: 1.01 }],
  ["blockAnchor 0.6", { blockAnchorSingleThreshold: 0.6, blockAnchorMultipleThreshold: 0.6 }],
  ["blockAnchor 0.7", { blockAnchorSingleThreshold: 0.7, blockAnchorMultipleThreshold: 0.7 }],
  ["blockAnchor 0.9", { blockAnchorSingleThreshold: 0.9, blockAnchorMultipleThreshold: 0.9 }],
  ["blockAnchor 0.0 (opencode)", { blockAnchorSingleThreshold: 0, blockAnchorMultipleThreshold: 0.3 }],
  ["contextAware similarity 0 (opencode)", { contextAwareSimilarity: 0 }],
  ["ambiguityMargin 0 (best wins)", { ambiguityMargin: 0 }],
  ["ambiguityMargin 0.05", { ambiguityMargin: 0.05 }],
];

const cases = generateCases(findCorpus({}), arg("--seed", 1), arg("--cases", 1000));
console.log(`Default-preset threshold sweep, str_replace, ${cases.length} cases (seed ${arg("--seed", 1)})\n`);
console.log("| setting | correct | wrong | refused | correct refusals | wrong (applied a negative) |");
console.log("|---|--:|--:|--:|--:|--:|");
for (const [name, thresholds] of settings) {
  let correct = 0;
  let wrong = 0;
  let refused = 0;
  let correctRefusals = 0;
  let wrongApplied = 0;
  for (const c of cases) {
    const edit = renderCase(c, "str_replace");
    let output: string | undefined;
    try {
      output = replace(c.content, edit.oldString, edit.newString, {
        thresholds,
        ...(edit.startLine === undefined ? {} : { startLine: edit.startLine }),
      }).content;
    } catch (e) {
      if (!(e instanceof EditError)) throw e;
    }
    if (c.expected === undefined) {
      if (output === undefined) correctRefusals++;
      else wrongApplied++;
    } else if (output === undefined) refused++;
    else if (output === c.expected) correct++;
    else wrong++;
  }
  console.log(`| ${name} | ${correct} | ${wrong} | ${refused} | ${correctRefusals} | ${wrongApplied} |`);
}
