import assert from "node:assert/strict";
import { test } from "node:test";
import { EditError } from "../src/errors.ts";
import { Budget, checkLimit, DEFAULT_LIMITS, type Limits } from "../src/limits.ts";
import { replace } from "../src/formats/str-replace.ts";
import { countingSignal } from "./helpers/counting-signal.ts";
import fc from "fast-check";
import { groupDigits } from "../src/limits.ts";

const limitCases: { name: string; limit: keyof Limits; value: number; limits?: Limits; throws: boolean; mentions?: RegExp[] }[] = [
  { name: "response at the limit passes", limit: "maxResponseSize", value: DEFAULT_LIMITS.maxResponseSize, throws: false },
  { name: "response one over the limit", limit: "maxResponseSize", value: DEFAULT_LIMITS.maxResponseSize + 1, throws: true, mentions: [/maxResponseSize/, /8,388,608/] },
  { name: "edits over the limit", limit: "maxEdits", value: 2_001, throws: true, mentions: [/2,001 edits/, /'maxEdits' option/] },
  { name: "find text over a raised limit", limit: "maxFindLength", value: 11, limits: { ...DEFAULT_LIMITS, maxFindLength: 10 }, throws: true, mentions: [/text to find/, /limit of 10/] },
  { name: "find text under a raised limit", limit: "maxFindLength", value: 2_000_000, limits: { ...DEFAULT_LIMITS, maxFindLength: 4_000_000 }, throws: false },
];
for (const c of limitCases) {
  test(`checkLimit: ${c.name}`, () => {
    const run = () => checkLimit(c.limit, c.value, c.limits);
    if (!c.throws) return assert.doesNotThrow(run);
    assert.throws(run, (e: unknown) => {
      assert.ok(e instanceof EditError);
      assert.equal(e.code, "TOO_LARGE");
      assert.equal(e.detail.limit, c.limit);
      for (const m of c.mentions ?? []) assert.match(e.message, m);
      return true;
    });
  });
}

test("checkLimit names the edit when given a label", () => {
  assert.throws(() => checkLimit("maxFindLength", 5, { ...DEFAULT_LIMITS, maxFindLength: 4 }, "block 3"), /text to find \(block 3\)/);
});

const budgetCases: { name: string; options: ConstructorParameters<typeof Budget>[0]; elapsed: number; abort?: boolean; code?: string; mentions?: RegExp }[] = [
  { name: "no budget never times out", options: {}, elapsed: 1e9 },
  { name: "within the budget", options: { timeoutMs: 100 }, elapsed: 100 },
  { name: "past the budget", options: { timeoutMs: 100 }, elapsed: 101, code: "TIMEOUT", mentions: /100 ms \(during hunk 2\).*'timeoutMs'/ },
  { name: "a zero budget fails at the first late check", options: { timeoutMs: 0 }, elapsed: 1, code: "TIMEOUT" },
  { name: "an aborted signal", options: {}, elapsed: 0, abort: true, code: "TIMEOUT", mentions: /aborted \(during hunk 2\)/ },
];
for (const c of budgetCases) {
  test(`Budget: ${c.name}`, () => {
    let clock = 1_000;
    const controller = new AbortController();
    const budget = new Budget({ ...c.options, ...(c.abort ? { signal: controller.signal } : {}) }, () => clock);
    clock += c.elapsed;
    if (c.abort) controller.abort();
    const run = () => budget.check("hunk 2");
    if (!c.code) return assert.doesNotThrow(run);
    assert.throws(run, (e: unknown) => e instanceof EditError && e.code === c.code && (!c.mentions || c.mentions.test(e.message)));
  });
}

for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "10" as unknown as number]) {
  test(`Budget: timeoutMs ${String(bad)} is INVALID_INPUT`, () => {
    assert.throws(() => new Budget({ timeoutMs: bad }), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
  });
}

// A periodic file: every strategy checks thousands of windows before its cap.
const periodic = "  value = compute(x);\n".repeat(30_000);
const periodicEdit = Array.from({ length: 12 }, (_, k) => (k === 6 ? "  value = compute(y);" : "  value = compute(x);")).join("\n");

test("the budget is checked inside the strategies' long loops, not only between strategies", () => {
  const { signal, reads } = countingSignal();
  assert.throws(() => replace(periodic, periodicEdit, "changed", { signal }), (e: unknown) => e instanceof EditError && e.code !== "TIMEOUT");
  // About 15 strategies: a check per strategy alone would read the signal a few dozen times.
  assert.ok(reads() > 200, `the signal was read ${reads()} times`);
});

test("a find text longer than the file, all one repeated line, is refused without running each of its lines over every hit", () => {
  // npm run fuzz's budget property: 8,002 lines of `x` on 8,000 such lines. The word-anchored
  // strategies proposed windows from each query line and every line of `x`, none fitting: ~0.9 s
  // of CPU (375,193 reads of the signal); now the loop stops once no window is left to propose.
  const { signal, reads } = countingSignal();
  const file = Array(8000).fill("x").join("\n");
  assert.throws(() => replace(file, Array(8002).fill("x").join("\n"), "y", { signal }), (e: unknown) => e instanceof EditError && e.code === "NOT_FOUND");
  assert.ok(reads() < 1000, `the signal was read ${reads()} times`);
});

test("a budget spent inside a strategy's loop stops the call with TIMEOUT, nothing decided", () => {
  const { signal } = countingSignal(99);
  assert.throws(() => replace(periodic, periodicEdit, "changed", { signal }), (e: unknown) => e instanceof EditError && e.code === "TIMEOUT" && /during the search/.test(e.message));
});

test("Budget.remainingMs: what is left of timeoutMs, 0 once spent, undefined without a limit", () => {
  let t = 1000;
  const budget = new Budget({ timeoutMs: 100 }, () => t);
  assert.equal(budget.remainingMs(), 100);
  t += 30;
  assert.equal(budget.remainingMs(), 70);
  t += 500;
  assert.equal(budget.remainingMs(), 0);
  assert.equal(new Budget({}, () => t).remainingMs(), undefined);
});

test("groupDigits writes a number as toLocaleString(\"en\") does, without building ICU's formatter", () => {
  for (const n of [0, -0, 7, 999, 1_000, -1_000, 1_200_000, -12_345_678, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, 2 ** 60]) {
    assert.equal(groupDigits(n), n.toLocaleString("en"), String(n));
  }
  fc.assert(fc.property(fc.maxSafeInteger(), (n) => groupDigits(n) === n.toLocaleString("en")));
});
