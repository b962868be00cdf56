/**
 * Issue 22, item 5: only `EditError` for any input, every option validated.
 * Every entry point gets options of every type (symbols, bigints, functions,
 * nested objects, arrays, prototype keys) under every option name it has,
 * and inputs of every type; anything thrown that is not an EditError fails.
 * Plus the campaign's reproductions: deep JSON nesting, Symbol paths, a
 * wrong-typed `expected`.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { applyPatch, applySearchReplace, createPatch, EditError, parsePatch, replace } from "../src/index.ts";
import { applyEdits } from "../src/node.ts";

const RUNS = Number(process.env.OPTIONS_RUNS ?? 300);

/** Values of every type JavaScript has, a few of each. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(undefined, null, true, false, 0, -1, 1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, -0, 1e308, "", "a", "default", "opencode", "__proto__", "toString"),
    fc.constantFrom(Symbol("s"), 10n, () => 1, new Date(0), /x/, new Map(), new Set(), Object.create(null), new AbortController().signal, Promise.resolve(1)),
    fc.string({ maxLength: 6 }),
    fc.integer(),
    fc.double(),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a.txt", "hash", "content", "0", "__proto__", "x"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

const CORE_KEYS = ["preset", "fuzzyThreshold", "hintWindow", "thresholds", "choices", "limits", "timeoutMs", "signal"];
const KEYS: Record<string, string[]> = {
  replace: [...CORE_KEYS, "replaceAll", "startLine", "replaceAllAdvice"],
  applySearchReplace: [...CORE_KEYS, "startLine", "lineOffset", "diffIndex"],
  applyPatch: [...CORE_KEYS, "resolveAmbiguity", "lineOffset"],
  createPatch: ["context", "fuzzy", "oldPath", "newPath", "format", "path", "unique", "timeoutMs", "signal"],
  parsePatch: ["maxResponseSize", "timeoutMs", "signal"],
  applyEdits: [
    ...CORE_KEYS,
    "format",
    "partial",
    "dryRun",
    "expected",
    "history",
    "maxFileBytes",
    "allowBinary",
    "strip",
    "target",
    "reverse",
    "replaceAllAdvice",
    "displayPrefix",
    "chooseCandidate",
    "hooks",
  ],
};

/** Keys of the options that hold objects (thresholds, limits, choices, expected, history, hooks). */
const NESTED_KEYS = [
  "blockAnchorSingleThreshold",
  "fuzzyThreshold",
  "ambiguityMargin",
  "maxEdits",
  "maxResponseSize",
  "maxFindLength",
  "0",
  "1",
  "a.txt",
  "hash",
  "content",
  "beforeWrite",
  "afterWrite",
];

const optionsFor = (entry: string) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...(KEYS[entry] as string[])), anyValue, { maxKeys: 4 }),
    // A known option holding every kind of nested value (limits.maxEdits: Symbol()).
    fc.record({ key: fc.constantFrom(...(KEYS[entry] as string[])), inner: fc.dictionary(fc.oneof(fc.constantFrom(...NESTED_KEYS), fc.string({ maxLength: 12 })), anyValue, { maxKeys: 3 }) }).map(({ key, inner }) => ({ [key]: inner })),
    anyValue,
  );

function onlyEditError(name: string, f: () => unknown): void {
  try {
    f();
  } catch (error) {
    if (error instanceof EditError) return;
    throw new Error(`${name} threw ${(error as Error)?.name}: ${(error as Error)?.message}`);
  }
}

const TEXT = "a\nb\nc\n";
const core: { name: string; call: (o: unknown, x: unknown) => unknown }[] = [
  { name: "replace", call: (o, x) => replace(TEXT, (x ?? "b") as string, "B", o as never) },
  { name: "applySearchReplace", call: (o, x) => applySearchReplace(TEXT, (x ?? "<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\n") as string, o as never) },
  { name: "applyPatch", call: (o, x) => applyPatch(TEXT, (x ?? "@@ @@\n a\n-b\n+B\n") as string, o as never) },
  { name: "createPatch", call: (o, x) => createPatch(TEXT, (x ?? "a\nB\nc\n") as string, o as never) },
  { name: "parsePatch", call: (o, x) => parsePatch((x ?? "@@ @@\n-b\n+B\n") as string, o as never) },
];

for (const entry of core) {
  test(`only EditError: ${entry.name} with options of every type`, () => {
    fc.assert(
      fc.property(optionsFor(entry.name), fc.option(anyValue, { freq: 3 }), (o, x) => onlyEditError(entry.name, () => entry.call(o, x ?? undefined))),
      { numRuns: RUNS },
    );
  });
}

test("only EditError: applyEdits with roots, inputs and options of every type", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "fp-options-"));
  try {
    await fc.assert(
      fc.asyncProperty(optionsFor("applyEdits"), fc.option(anyValue, { freq: 4 }), fc.option(anyValue, { freq: 6 }), async (o, r, input) => {
        await writeFile(path.join(root, "a.txt"), TEXT);
        try {
          await applyEdits((r ?? root) as string, (input ?? [{ path: "a.txt", oldString: "b", newString: "B" }]) as never, o as never);
        } catch (error) {
          if (!(error instanceof EditError)) throw new Error(`applyEdits threw ${(error as Error)?.name}: ${(error as Error)?.message}`);
        }
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("item 5: the campaign's inputs are refused with an EditError", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "fp-options-"));
  try {
    await writeFile(path.join(root, "a.txt"), "a\n");
    const deep = await applyEdits(root, "[".repeat(5e5) + "]".repeat(5e5));
    assert.equal(deep.ok, false);
    assert.equal(deep.written, false);
    assert.ok(deep.errors.every((e) => e instanceof EditError) && deep.errors.length > 0, String(deep.errors[0]));
    for (const f of [
      () => createPatch("a", "b", { oldPath: Symbol() } as never),
      () => createPatch("a", "b", { newPath: 5 } as never),
      () => createPatch("a", "b", { fuzzy: "yes" } as never),
    ]) {
      assert.throws(f, EditError);
    }
    await assert.rejects(applyEdits(Symbol() as never, "x"), EditError);
    await assert.rejects(applyEdits(root, [{ path: "a.txt", oldString: "a", newString: "b" }], { expected: { "a.txt": { hash: 5 } } } as never), EditError);
    await assert.rejects(applyEdits(root, [{ path: "a.txt", oldString: "a", newString: "b" }], { expected: { "a.txt": 5 } } as never), EditError);
    await assert.rejects(applyEdits(root, [{ path: "a.txt", oldString: "a", newString: "b" }], { expected: "a.txt" } as never), EditError);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("item 13: applyEdits enforces the core's limit of edits in one call", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "fp-options-"));
  try {
    await writeFile(path.join(root, "a.txt"), "a\n");
    const jsonl = Array.from({ length: 2_001 }, (_, i) => JSON.stringify({ path: "a.txt", old_string: `x${i}`, new_string: "y" })).join("\n");
    for (const input of [jsonl, JSON.parse(`[${jsonl.split("\n").join(",")}]`)]) {
      const r = await applyEdits(root, input);
      assert.equal(r.written, false);
      assert.deepEqual(
        r.errors.map((e) => e.code),
        ["TOO_LARGE"],
      );
      assert.match(r.errors[0]?.message ?? "", /2,001 edits, over the limit of 2,000/);
    }
    const within = await applyEdits(root, jsonl, { limits: { maxEdits: 5_000 }, dryRun: true });
    assert.ok(!within.errors.some((e) => e.code === "TOO_LARGE"));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
