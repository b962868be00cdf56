/**
 * Limits checked before any work, and a time budget checked during it: the
 * last line of defence once fuzzpatch answers a tool server, where one slow
 * input is a denial of service (issue 14). Pure: no I/O, no timers; the
 * budget reads the clock only when asked.
 *
 * Wiring into each entry point's options is left to option resolution;
 * this module is the checks and their errors.
 */
import { describeValue, EditError } from "./errors.ts";

export interface Limits {
  /** Largest model response (or patch / diff text) accepted, in characters. @default 8_388_608 (8 Mi) */
  maxResponseSize: number;
  /** Most edits (blocks, hunks, str_replace calls) in one call. @default 2_000 */
  maxEdits: number;
  /** Longest text to find (old string, SEARCH section, a hunk's old side), in characters. @default 1_048_576 (1 Mi) */
  maxFindLength: number;
  /**
   * Work one call may spend searching for edits beyond their exact text, in
   * the matcher's counted steps (engine/search-allowance.ts: 500 for each
   * edit so searched and one per 200 characters of the text it searches,
   * plus 32 for each pair of blocks scored and 1 for each window or place
   * its strategies examine). Once it is spent, an edit not
   * found exactly fails TOO_LARGE without that search; edits found exactly
   * are not counted. @default 1_200_000
   */
  maxFuzzySteps: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxResponseSize: 8 * 1024 * 1024,
  maxEdits: 2_000,
  maxFindLength: 1024 * 1024,
  maxFuzzySteps: 1_200_000,
});

const DESCRIBED: Readonly<Record<keyof Limits, { what: string; unit: string }>> = Object.freeze({
  maxResponseSize: { what: "The edit text (response, patch or diff)", unit: "characters" },
  maxEdits: { what: "The number of edits in one call", unit: "edits" },
  maxFindLength: { what: "The text to find", unit: "characters" },
  maxFuzzySteps: { what: "The search beyond exact text", unit: "steps" },
});

function tooLarge(limit: keyof Limits, actual: number, max: number, label?: string): EditError {
  const { what, unit } = DESCRIBED[limit];
  const subject = label ? `${what} (${label})` : what;
  return new EditError(
    "TOO_LARGE",
    `${subject} is ${groupDigits(actual)} ${unit}, over the limit of ${groupDigits(max)}. Send smaller edits (split the change), or raise the '${limit}' option if this size is expected.`,
    { limit, actual, max },
  );
}

/** The TOO_LARGE error when `value` is over `limits[limit]`, else undefined. `label` names the edit in the message ("block 3"). */
export function overLimit(limit: keyof Limits, value: number, limits: Readonly<Limits> = DEFAULT_LIMITS, label?: string): EditError | undefined {
  const max = limits[limit];
  return value > max ? tooLarge(limit, value, max, label) : undefined;
}

/** Throws TOO_LARGE when `value` is over `limits[limit]`. */
export function checkLimit(limit: keyof Limits, value: number, limits: Readonly<Limits> = DEFAULT_LIMITS, label?: string): void {
  const error = overLimit(limit, value, limits, label);
  if (error) throw error;
}

/**
 * The time budget the command line gives an edit when `--timeout` does not
 * say: a guard against an input no benchmark foresaw, far above what the
 * benchmarks measure (docs/speed.md: 1 s of CPU at most for inputs up to 1 MB).
 */
export const DEFAULT_CLI_TIMEOUT_MS = 30_000;

/**
 * The time budget of a tool call (`runTool`, the MCP server) when its
 * options do not say: the engine runs on the server's one thread, so a slow
 * call holds every other call (a concurrent read_file) until it ends.
 */
export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;

/** What a caller may pass to bound a call's time. */
export interface BudgetOptions {
  /** Milliseconds the call may take; past it the call fails with TIMEOUT and writes nothing. @default undefined (no limit) */
  timeoutMs?: number;
  /** Aborting it fails the call with TIMEOUT at the next check. @default undefined */
  signal?: AbortSignal;
}

function timedOut(timeoutMs: number, at: string, detail: EditError["detail"] = {}): EditError {
  return new EditError(
    "TIMEOUT",
    `The call took longer than its time budget of ${timeoutMs} ms${at}; nothing was written. Send a smaller edit with text that occurs rarely in the file, or raise the 'timeoutMs' option.`,
    { ...detail, reason: "timeout", timeoutMs },
  );
}

/**
 * A deadline and an abort signal, checked by long loops between units of
 * work (a strategy, a block, a hunk). `check` costs one clock read.
 */
export class Budget {
  private readonly deadline: number;
  private readonly timeoutMs: number | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly now: () => number;

  constructor(options: BudgetOptions = {}, now: () => number = () => performance.now()) {
    const { timeoutMs, signal } = options;
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs >= 0 && Number.isFinite(timeoutMs))) {
      throw new EditError("INVALID_INPUT", `Option 'timeoutMs' must be a finite number of milliseconds (0 or more), got ${describeValue(timeoutMs)}.`);
    }
    this.now = now;
    this.timeoutMs = timeoutMs;
    this.signal = signal;
    this.deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : now() + timeoutMs;
  }

  /** Throws TIMEOUT when the signal was aborted or the deadline has passed. `where` names the step in the message. */
  check(where?: string): void {
    const at = where ? ` (during ${where})` : "";
    if (this.signal?.aborted) {
      throw new EditError("TIMEOUT", `The call was aborted${at}; nothing was written.`, { reason: "aborted" });
    }
    if (this.timeoutMs !== undefined && this.now() > this.deadline) throw timedOut(this.timeoutMs, at);
  }

  /**
   * A TIMEOUT of a part of this call, told with this call's budget: the file
   * layer gives each edit's engine run only the time left, so its message
   * named that ("a time budget of 0 ms" once earlier edits had spent the rest).
   */
  asOwnTimeout(error: EditError): EditError {
    if (error.code !== "TIMEOUT" || error.detail.reason !== "timeout" || this.timeoutMs === undefined) return error;
    const at = /\(during [^)]*\)/.exec(error.message)?.[0];
    return timedOut(this.timeoutMs, at ? ` ${at}` : "", error.detail);
  }

  /** Milliseconds left (0 once spent); undefined without a time limit. */
  remainingMs(): number | undefined {
    return this.timeoutMs === undefined ? undefined : Math.max(0, this.deadline - this.now());
  }
}

/**
 * The budget of a call's `timeoutMs` and `signal` options, checked the same
 * way by every entry point (a `signal` that is not an AbortSignal is
 * INVALID_INPUT; `who` names the call in that message).
 */
export function budgetOf(options: { timeoutMs?: unknown; signal?: unknown }, who?: string): Budget {
  const { timeoutMs, signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new EditError("INVALID_INPUT", who ? `${who}: option 'signal' must be an AbortSignal.` : "signal must be an AbortSignal.");
  }
  return new Budget({ ...(timeoutMs !== undefined && { timeoutMs: timeoutMs as number }), ...(signal !== undefined && { signal }) });
}

/**
 * An integer written with commas between groups of three digits, as
 * `toLocaleString("en")` writes it: `1,200,000`. Not that call: its first use
 * in a process builds ICU's number formatter, ~30 ms of CPU, paid by a
 * command line whose call refuses blocks past its search allowance (issue 39).
 */
export function groupDigits(n: number): string {
  // Past the exactly written integers (and for fractions and -0), the formatter's own answer.
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let k = out.length; k < digits.length; k += 3) out += `,${digits.slice(k, k + 3)}`;
  return n < 0 ? `-${out}` : out;
}
