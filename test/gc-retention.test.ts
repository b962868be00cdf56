/**
 * What a call leaves behind for V8's minor collector: a call's document and
 * text must die young once the call returns. A getter written in a per-call
 * object literal, or `Object.create` of a per-call object, gives V8 a map or
 * prototype registration its scavenger keeps alive (with everything the
 * getter's scope or the prototype holds) until a major collection; the
 * batch's cases with fresh texts had every text promoted so.
 *
 * Measured as the old generation's growth over calls on fresh texts and
 * two forced scavenges after them (a survivor of two is promoted); the
 * texts are 100 kB, under V8's large-object size, so a text kept alive shows
 * as its own size.
 */
import assert from "node:assert/strict";
import test from "node:test";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { applyCase } from "../src/batch/apply-case.ts";
import { replace } from "../src/formats/editor.ts";
import { withOccurrences } from "../src/match/derived-context.ts";
import { createContext } from "../src/match/anchors.ts";
import { resolveOptions } from "../src/engine/options.ts";
import { renderSplicesWithChange } from "../src/engine/splice.ts";
import { Document } from "../src/text/document.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options: { type: "minor" | "major" }) => void;
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "old_space")?.space_used_size ?? 0;

const CALLS = 60;
const SIZE = 100_000;

/** A new 100 kB text (one-byte, flat) whose line `k` is unique. */
function freshText(k: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < SIZE - 200; i++) lines.push(`  value_${i} = compute(${i}, ${k}); // line ${i} of text ${k}`);
  return Buffer.from(`${lines.join("\n")}\n`, "latin1").toString("latin1");
}

/**
 * Old-generation bytes gained over CALLS calls of `call`, each on a fresh
 * text, then two scavenges: a text still reachable then is promoted (the
 * last call's may be: the engine memoises its last answers).
 */
async function promotedBy(call: (text: string, k: number) => unknown): Promise<number> {
  const texts = Array.from({ length: CALLS }, (_, k) => Buffer.from(freshText(k), "latin1"));
  await call(texts[0]?.toString("latin1") as string, 0); // compiled before measuring
  gc({ type: "major" });
  const before = oldSpace();
  for (let k = 0; k < CALLS; k++) await call((texts[k] as Buffer).toString("latin1"), k);
  gc({ type: "minor" });
  gc({ type: "minor" });
  return oldSpace() - before;
}

test("replace on fresh texts: no text outlives its call into the old generation", async () => {
  const grown = await promotedBy((text, k) => replace(text, `  value_7 = compute(7, ${k});`, `  value_7 = compute(8, ${k});`));
  // Kept alive, every text would be promoted: CALLS × SIZE bytes (6 MB); a call leaves ~0.1-0.5 MB of other things (code, the last call's memo).
  assert.ok(grown < (CALLS * SIZE) / 3, `old generation grew ${grown} bytes over ${CALLS} calls of ${SIZE} characters`);
});

test("a batch case with a fresh text: no text outlives its case into the old generation", async () => {
  const grown = await promotedBy((text, k) =>
    applyCase({ path: "a.py", content: text, edit: `a.py\n\`\`\`\n<<<<<<< SEARCH\n  value_9 = compute(9, ${k}); // line 9 of text ${k}\n=======\n  value_9 = 0\n>>>>>>> REPLACE\n\`\`\`\n` }, 1, {}),
  );
  assert.ok(grown < (CALLS * SIZE) / 3, `old generation grew ${grown} bytes over ${CALLS} cases of ${SIZE} characters`);
});

test("a derived search context is a copy, not an object with the context as its prototype", () => {
  const ctx = createContext(Document.from("a\nb\na\n"), resolveOptions({}).strategy);
  const listed = withOccurrences(ctx, () => [4]);
  assert.equal(Object.getPrototypeOf(listed), Object.prototype);
  assert.deepEqual(listed.occurrences("a"), [4]);
  assert.deepEqual(ctx.occurrences("a"), [0, 4]);
  assert.equal(listed.doc, ctx.doc);
  listed.tick(5);
  assert.equal(ctx.steps(), 5, "the steps counted are the context's");
});

test("a rendered change's text: one getter shared by every change, read by a spread", () => {
  const doc = Document.from("one\ntwo\nthree\n");
  const at = (find: string, text: string) => {
    const start = doc.raw.indexOf(find);
    return renderSplicesWithChange(doc, [{ start, end: start + find.length, text }] as never).change;
  };
  const a = at("two", "TWO");
  const b = at("three", "3");
  assert.equal(Object.getOwnPropertyDescriptor(a, "text")?.get, Object.getOwnPropertyDescriptor(b, "text")?.get);
  assert.deepEqual({ ...a }, { start: 4, end: 7, text: "TWO" });
  assert.equal(b.text, "3");
});
