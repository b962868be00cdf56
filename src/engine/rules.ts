/**
 * The engine's rules that a measurement can switch off, read in one place
 * (docs/rules.md is the ledger: what each rule decides on bench:real and
 * bench:accuracy, measured by switching it off). For benchmarks only:
 * `FUZZPATCH_RULES_OFF=repeated-neighbours,rival npm run bench:real`. Read
 * once, at load; an unknown name is ignored. In a runtime without
 * `process`, every rule is on.
 */
export const RULES = [
  "exact-literal",
  "repeated-neighbours",
  "whitespace-kind",
  "final-break",
  "numbers-stripped",
  "escaped-replacement",
  "widen-to-lines",
  "rival",
  "merge-frame",
  "inline-merge",
  "carry-over",
  "already-applied",
] as const;

export type RuleName = (typeof RULES)[number];

const OFF: ReadonlySet<string> = new Set(
  ((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.FUZZPATCH_RULES_OFF ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== ""),
);

/** Whether a rule is on (every rule is, unless a benchmark switched it off). */
export function ruleOn(name: RuleName): boolean {
  return OFF.size === 0 || !OFF.has(name);
}
