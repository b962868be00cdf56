import assert from "node:assert/strict";
import { test } from "node:test";
import { limiter } from "../src/fs/limiter.ts";

test("limiter: never more than max tasks under way, started in the order given, each result its own, a failure frees its slot", async () => {
  const limit = limiter(3);
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const task = (k: number) => async () => {
    started.push(k);
    running++;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, (k * 7) % 5));
    running--;
    if (k === 4) throw new Error("four");
    return k * 10;
  };
  const results = await Promise.allSettled(Array.from({ length: 12 }, (_, k) => limit(task(k))));
  assert.equal(peak, 3);
  assert.deepEqual(started, Array.from({ length: 12 }, (_, k) => k));
  assert.deepEqual(
    results.map((r) => (r.status === "fulfilled" ? r.value : "failed")),
    [0, 10, 20, 30, "failed", 50, 60, 70, 80, 90, 100, 110],
  );
  assert.equal(await limit(async () => "after"), "after");
});
