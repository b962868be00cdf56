/**
 * Streaming apply: the same result as `applyEdits` on the whole response,
 * however the response is cut into chunks, through every format; each edit
 * started once and completed once with the report the whole response gives
 * it; a final `located` agrees with that report (an early refusal is never
 * an edit that applies).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import test from "node:test";
import fc from "fast-check";
import { EditError } from "../src/errors.ts";
import { applyEdits } from "../src/fs/apply-edits.ts";
import type { StreamEvent } from "../src/stream/events.ts";
import { createStreamingApply } from "../src/stream/streaming-apply.ts";
import { BIN, runCli, TSX } from "./helpers/cli-run.ts";
import { editArb, filesArb, render } from "./helpers/edit-responses.ts";
import { makeTree } from "./helpers/temp-tree.ts";

/** The response cut at these offsets, pushed chunk by chunk, sometimes letting readings run in between. */
async function stream(target: string | Record<string, string>, response: string, cuts: number[], pauses: boolean[]) {
  const s = createStreamingApply(target);
  const events: StreamEvent[] = [];
  const listened: StreamEvent[] = [];
  s.on((e) => listened.push(e));
  const iterated = (async () => {
    for await (const e of s) events.push(e);
  })();
  const points = [...new Set(cuts.map((c) => c % (response.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const [k, at] of [...points, response.length].entries()) {
    s.push(response.slice(from, at));
    from = at;
    if (pauses[k % pauses.length]) await new Promise((r) => setImmediate(r));
  }
  const result = await s.end();
  await iterated;
  assert.deepEqual(listened, events, "listeners and the iterator see the same events");
  return { result, events };
}

/** What a result says, without what differs between two roots (nothing does: paths are relative). */
function summary(result: Awaited<ReturnType<typeof applyEdits>>) {
  return JSON.parse(JSON.stringify({ ...result, texts: undefined }));
}

function checkEvents(events: StreamEvent[], result: Awaited<ReturnType<typeof applyEdits>>): void {
  const reports = result.files.flatMap((f) => f.edits);
  const indexes = [...new Set(reports.map((r) => r.index))].sort((a, b) => a - b);
  const started = events.filter((e) => e.type === "edit-started").map((e) => e.index);
  const completed = events.filter((e) => e.type === "edit-complete");
  assert.deepEqual([...started].sort((a, b) => a - b), indexes, "every edit started once");
  assert.deepEqual(completed.map((e) => e.index).sort((a, b) => a - b), indexes, "every edit completed once");
  for (const c of completed) {
    assert.ok(events.findIndex((e) => e.type === "edit-started" && e.index === c.index) < events.indexOf(c), "started before complete");
    const want = reports.filter((r) => r.index === c.index);
    assert.deepEqual(JSON.parse(JSON.stringify(c.edits)), JSON.parse(JSON.stringify(want)), `edit ${c.index}: the report the whole response gives`);
  }
  for (const e of events) {
    if (e.type !== "located" || !e.final) continue;
    const ops = reports.filter((r) => r.index === e.index);
    const failed = ops.some((r) => r.status === "failed");
    if (e.status !== "unique") assert.ok(failed || ops.every((r) => r.status === "already-applied"), `an early ${e.status} of edit ${e.index} never applies`);
    else if (!failed) {
      const op = ops[e.op];
      if (op?.status === "applied") assert.deepEqual([op.startLine, op.endLine], [e.startLine, e.endLine], `edit ${e.index} applies where it was located`);
    }
  }
  assert.equal(events.at(-1)?.type, "done");
}

test("a texts target streams to the result applyEdits gives the whole response, however it is cut", async () => {
  await fc.assert(
    fc.asyncProperty(filesArb, fc.array(editArb, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(4000), { maxLength: 30 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), async (files, edits, cuts, pauses) => {
      const texts = Object.fromEntries(Object.entries(files).map(([p, lines]) => [p, `${lines.join("\n")}\n`]));
      const response = render(files, edits);
      const { result, events } = await stream(texts, response, cuts, pauses);
      const { root } = await makeTree(texts, "fuzzpatch-stream-");
      const whole = await applyEdits(root, response);
      assert.deepEqual(summary(result), summary(whole));
      for (const p of Object.keys(texts)) assert.equal(result.texts?.[p], await readFile(path.join(root, p), "utf8"), `${p} as applyEdits wrote it`);
      checkEvents(events, whole);
    }),
    { numRuns: 40 },
  );
});

test("a root target writes only at the end, exactly what applyEdits writes", async () => {
  await fc.assert(
    fc.asyncProperty(filesArb, fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(4000), { maxLength: 20 }), async (files, edits, cuts) => {
      const texts = Object.fromEntries(Object.entries(files).map(([p, lines]) => [p, `${lines.join("\n")}\n`]));
      const response = render(files, edits);
      const streamed = await makeTree(texts, "fuzzpatch-stream-");
      const s = createStreamingApply(streamed.root);
      const points = [...new Set(cuts.map((c) => c % (response.length + 1)))].sort((a, b) => a - b);
      let from = 0;
      for (const at of [...points, response.length]) {
        s.push(response.slice(from, at));
        from = at;
        await new Promise((r) => setImmediate(r));
        for (const p of Object.keys(texts)) assert.equal(await readFile(path.join(streamed.root, p), "utf8"), texts[p], "nothing written before the end");
      }
      const result = await s.end();
      const direct = await makeTree(texts, "fuzzpatch-stream-");
      const whole = await applyEdits(direct.root, response);
      assert.deepEqual(summary(result), summary(whole));
      for (const p of Object.keys(texts)) assert.equal(await readFile(path.join(streamed.root, p), "utf8"), await readFile(path.join(direct.root, p), "utf8"));
    }),
    { numRuns: 15 },
  );
});

test("an early refusal: a SEARCH text found nowhere is refused once the model writes its REPLACE, before the block ends", async () => {
  const s = createStreamingApply({ "a.ts": "one\ntwo\nthree\n" });
  const events: StreamEvent[] = [];
  s.on((e) => events.push(e));
  s.push("a.ts\n```\n<<<<<<< SEARCH\nnot in the file\n=======\n");
  await s.settled();
  const refusal = events.find((e) => e.type === "located" && e.final);
  assert.ok(refusal && refusal.type === "located" && refusal.status === "not-found", JSON.stringify(events));
  assert.ok(!events.some((e) => e.type === "edit-complete"));
  s.push("new text\n>>>>>>> REPLACE\n```\n");
  const result = await s.end();
  assert.equal(result.failed, 1);
});

test("located follows the text to find while it is written: several places, then one", async () => {
  const s = createStreamingApply({ "a.ts": "x();\nfirst();\nx();\nsecond();\n" });
  const events: StreamEvent[] = [];
  s.on((e) => events.push(e));
  for (const part of ["a.ts\n```\n<<<<<<< SEARCH\n", "x();\n", "second();\n", "=======\n", "y();\n>>>>>>> REPLACE\n```\n"]) {
    s.push(part);
    await s.settled();
  }
  const result = await s.end();
  assert.equal(result.applied, 1);
  const located = events.filter((e) => e.type === "located").map((e) => (e.type === "located" ? `${e.status}:${e.startLine ?? ""}:${e.final}` : ""));
  assert.deepEqual(located, ["ambiguous::false", "unique:3:false", "unique:3:true"]);
});

const bad: [string, () => unknown][] = [
  ["a texts path with ..", () => createStreamingApply({ "../x": "a" })],
  ["a text that is not a string", () => createStreamingApply({ a: 1 } as unknown as Record<string, string>)],
  ["an empty root", () => createStreamingApply("")],
  ["a chunk that is not a string", () => createStreamingApply({ a: "" }).push(3 as unknown as string)],
];
for (const [name, run] of bad) {
  test(`refused with INVALID_INPUT: ${name}`, () => {
    assert.throws(run, (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
  });
}

test("push after end is refused; end() twice gives one result", async () => {
  const s = createStreamingApply({ "a.ts": "a\n" });
  s.push('```json\n{"path": "a.ts", "oldString": "a", "newString": "b"}\n```\n');
  const one = s.end();
  assert.throws(() => s.push("more"), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
  assert.equal(await one, await s.end());
  assert.equal((await one).texts?.["a.ts"], "b\n");
});

test("a root that does not exist: end() rejects with the file layer's error, and the iterator throws it", async () => {
  const s = createStreamingApply("/nonexistent/fuzzpatch/root");
  s.push("a.ts\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n");
  const iterated = (async () => {
    for await (const _ of s);
  })();
  await assert.rejects(s.end(), (e: unknown) => e instanceof EditError);
  await assert.rejects(iterated, (e: unknown) => e instanceof EditError);
});

/** The CLI from source, its stdin written by the test. */
function spawnCli(args: string[], cwd: string) {
  const child = spawn(process.execPath, ["--import", TSX, BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  const lines = () => stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { type: string; index?: number; result?: unknown });
  /** Waits until a printed line satisfies `ok` (the events come as they happen, before stdin ends). */
  const until = async (ok: (l: ReturnType<typeof lines>[number]) => boolean) => {
    for (let k = 0; k < 400 && !lines().some(ok); k++) await new Promise((r) => setTimeout(r, 25));
    return lines().some(ok);
  };
  return { child, closed, lines, until };
}

test("CLI apply --stream: NDJSON events as the response arrives; the done line carries the --json report", async () => {
  const { root } = await makeTree({ "a.ts": "one\ntwo\nthree\n" }, "fuzzpatch-stream-");
  const first = "a.ts\n```\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```\n";
  const second = "a.ts\n```\n<<<<<<< SEARCH\nthree\n=======\nTHREE\n>>>>>>> REPLACE\n```\n";
  const cli = spawnCli(["apply", "-", "--stream"], root);
  cli.child.stdin.write(first);
  cli.child.stdin.write("Next:\n");
  assert.ok(await cli.until((l) => l.type === "edit-complete" && l.index === 0), "edit 0 completes before the response ends");
  assert.equal(await readFile(path.join(root, "a.ts"), "utf8"), "one\ntwo\nthree\n", "nothing written yet");
  cli.child.stdin.end(second);
  assert.equal(await cli.closed, 0);
  const lines = cli.lines();
  assert.deepEqual(
    lines.filter((l) => l.type !== "located").map((l) => `${l.type}${l.index ?? ""}`),
    ["edit-started0", "edit-complete0", "edit-started1", "edit-complete1", "done"],
  );
  assert.equal(await readFile(path.join(root, "a.ts"), "utf8"), "one\nTWO\nTHREE\n");
  const json = await runCli(["apply", "--json", "--dry-run"], root, first);
  const done = lines.at(-1)?.result as Record<string, unknown>;
  const plain = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(done), Object.keys(plain), "the done line's result has the --json report's shape");
});

test("CLI apply --stream refuses what needs the whole response first", async () => {
  const { root } = await makeTree({ "a.ts": "a\n" }, "fuzzpatch-stream-");
  const r = await runCli(["apply", "-", "--stream", "--3way"], root, "");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--stream cannot be combined with --3way/);
});
