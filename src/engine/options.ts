/**
 * The core's options, resolved once: one frozen table of defaults, one
 * validation, one preset lookup. Every entry point (replace,
 * applySearchReplace, applyPatch, applyEdits) passes its options through
 * `resolveOptions`, so a value means the same everywhere and a bad value is
 * the same INVALID_INPUT error everywhere.
 */
import { describeValue, EditError } from "../errors.ts";
import { type Budget, type BudgetOptions, budgetOf, DEFAULT_LIMITS, type Limits } from "../limits.ts";
import { PRESETS, type Preset, type PresetName } from "../match/cascade.ts";
import type { StrategyOptions } from "../match/types.ts";
import { SEARCH_ALLOWANCE, SearchAllowance, type WithAllowance } from "./search-allowance.ts";
import type { SyntaxJudge } from "./syntax-decide.ts";

/** Options shared by every edit format. */
export interface EngineOptions extends BudgetOptions {
  /** Which matcher cascade locates the edits. @default "default" */
  preset?: PresetName;
  /**
   * Minimum similarity (0–1) for the similarity fallback (FuzzyBlock).
   * @default the preset's value: 0.9 for "default" (from the accuracy benchmark), 1 for "opencode"
   */
  fuzzyThreshold?: number;
  /** Lines around a line hint within which a candidate counts as near it. @default 40 */
  hintWindow?: number;
  /** Overrides of the preset's other thresholds, for measuring them (bench/accuracy/sweep.ts). @default {} */
  thresholds?: Partial<StrategyOptions>;
  /**
   * Places chosen for edits that were AMBIGUOUS (an interactive front end
   * asked the user): edit index (0-based, `detail.index` of the error) to
   * the 1-based line where the chosen place starts. @default {}
   */
  choices?: Readonly<Record<number, number>>;
  /** Limits checked before any work; each over-limit input is a TOO_LARGE EditError naming the limit. @default DEFAULT_LIMITS (src/limits.ts) */
  limits?: Partial<Limits>;
  /**
   * Breaks a tie between places of a non-exact edit by the code's syntax:
   * of several equally good places, the one whose result introduces no
   * syntax error while every other's does is taken (`resolvedBy: "syntax"`).
   * Never consulted for an exact match. The file layer (`applyEdits`) passes
   * one built from tree-sitter for files of a known language.
   * @default undefined (ties stay AMBIGUOUS)
   */
  syntaxJudge?: SyntaxJudge;
}

export interface ResolvedOptions {
  readonly preset: Preset;
  readonly strategy: Readonly<StrategyOptions>;
  readonly hintWindow: number;
  readonly choices: ReadonlyMap<number, number>;
  readonly limits: Readonly<Limits>;
  /** The call's time budget (`timeoutMs`, `signal`): checked between ops and strategies, and inside the strategies' long loops. */
  readonly budget: Budget;
  /** The caller's syntax judge (syntax-decide.ts), if any. */
  readonly judge?: SyntaxJudge;
  /** The work left for searches beyond exact text (search-allowance.ts): the call's own, or the response's that the file layer carries. */
  readonly allowance: SearchAllowance;
}

const DEFAULTS = Object.freeze({ preset: "default" as PresetName, hintWindow: 40 });

/** Keys of StrategyOptions that may be overridden, with their valid range. */
const THRESHOLD_KEYS: readonly (keyof StrategyOptions)[] = Object.freeze([
  "blockAnchorSingleThreshold",
  "blockAnchorMultipleThreshold",
  "blockAnchorSizeSlack",
  "contextAwareRatio",
  "contextAwareSimilarity",
  "fuzzyThreshold",
  "ambiguityMargin",
]);

const LIMIT_KEYS = Object.freeze(Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]);

function invalid(message: string): EditError {
  return new EditError("INVALID_INPUT", message);
}

/** The options object itself: absent, or a plain object. */
export function optionsObject<T extends object>(options: unknown, name = "options"): Partial<T> {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw invalid(`${name} must be an object, got ${Array.isArray(options) ? "an array" : typeof options}.`);
  }
  return options as Partial<T>;
}

/** Looks a preset up by own property only: "toString" or "__proto__" are not presets. */
export function presetByName(name: unknown): Preset {
  if (typeof name === "string" && Object.hasOwn(PRESETS, name)) return PRESETS[name as PresetName];
  throw invalid(`Unknown preset ${JSON.stringify(describeValue(name))}. Use ${Object.keys(PRESETS).map((k) => `"${k}"`).join(" or ")}.`);
}

/** A finite number in [min, max], or undefined when absent. */
export function checkNumber(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `at least ${min}` : `from ${min} to ${max}`;
    throw invalid(`${name} must be a number ${range}, got ${describeValue(value)}.`);
  }
  return value;
}

/** A 1-based line hint: a positive whole number, or none (0 is "unknown", as in `:start_line:0`). */
export function checkLine(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === 0) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(`${name} must be a positive whole line number, got ${describeValue(value)}.`);
  }
  return value;
}

export function checkFlag(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw invalid(`${name} must be true or false, got ${describeValue(value)}.`);
  return value;
}

export function resolveOptions(options: EngineOptions): ResolvedOptions {
  const preset = presetByName(options.preset ?? DEFAULTS.preset);
  const strategy: StrategyOptions = { ...preset.options };
  const thresholds = optionsObject<StrategyOptions>(options.thresholds, "thresholds");
  // An absent value is skipped before its name is built: the file layer resolves options once per block (2,000 a call).
  for (const key of THRESHOLD_KEYS) {
    if (thresholds[key] === undefined) continue;
    const value = checkNumber(thresholds[key], `thresholds.${key}`, 0, key === "blockAnchorSizeSlack" ? Number.POSITIVE_INFINITY : 1);
    if (value !== undefined) strategy[key] = value;
  }
  const fuzzy = checkNumber(options.fuzzyThreshold, "fuzzyThreshold", 0, 1);
  // 0 would accept any text as "similar enough": a threshold must demand something.
  if (fuzzy === 0) throw invalid("fuzzyThreshold must be above 0 (and at most 1), got 0.");
  if (fuzzy !== undefined) strategy.fuzzyThreshold = fuzzy;
  const hintWindow = checkNumber(options.hintWindow, "hintWindow", 0, Number.MAX_SAFE_INTEGER) ?? DEFAULTS.hintWindow;
  if (!Number.isInteger(hintWindow)) throw invalid(`hintWindow must be a whole number of lines, got ${hintWindow}.`);
  const choices = new Map<number, number>();
  for (const [key, line] of Object.entries(optionsObject<Record<string, number>>(options.choices, "choices"))) {
    const index = Number(key);
    const at = checkLine(line, `choices[${key}]`);
    if (Number.isSafeInteger(index) && index >= 0 && at !== undefined) choices.set(index, at);
  }
  const given = optionsObject<Limits>(options.limits, "limits");
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const key of LIMIT_KEYS) {
    if (given[key] === undefined) continue;
    const value = checkNumber(given[key], `limits.${key}`, 1, Number.MAX_SAFE_INTEGER);
    if (value !== undefined) limits[key] = value;
  }
  const budget = budgetOf(options);
  const judge = options.syntaxJudge;
  if (judge !== undefined && typeof judge !== "function") throw invalid(`syntaxJudge must be a function, got ${describeValue(judge)}.`);
  const carried = (options as WithAllowance)[SEARCH_ALLOWANCE];
  const allowance = carried instanceof SearchAllowance ? carried : new SearchAllowance(limits.maxFuzzySteps);
  return Object.freeze({ preset, strategy: Object.freeze(strategy), hintWindow, choices, limits: Object.freeze(limits), budget, allowance, ...(judge && { judge }) });
}
