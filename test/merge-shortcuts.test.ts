import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { anchoredDiff, fullAnchoredDiff } from "../src/engine/anchored-diff.ts";
import { diffKey, keysMatchLines } from "../src/engine/merge.ts";
import { type IndentPair, levelMap } from "../src/engine/reindent.ts";
import { isBlank } from "../src/text/normalize.ts";

const nonBlank = (l: string) => !isBlank(l);
// Few bodies at a few indentations (and blank lines of every kind), so lines repeat and collide often.
const indent = fc.constantFrom("", "", " ", "  ", "    ", "\t", "\t ", "\u3000");
const bodyArb = fc.constantFrom("a", "b", "}", "x = 1;", "", " ", "\t", "\u00a0", "\u3000");
const lineArb = fc.tuple(indent, bodyArb).map(([i, b]) => i + b);
const linesArb = fc.array(lineArb, { maxLength: 12 });

test("keysMatchLines: the diff with indentation is then the diff without it (theirScript skips the second)", () => {
  let held = 0;
  fc.assert(
    fc.property(linesArb, linesArb, (find, repl) => {
      const byKey = anchoredDiff(find.map(diffKey), repl.map(diffKey), nonBlank);
      const raw = anchoredDiff(find, repl, nonBlank);
      if (keysMatchLines(find, repl)) {
        held++;
        assert.deepEqual(raw, byKey, JSON.stringify({ find, repl }));
      }
    }),
    { numRuns: 6000 },
  );
  // The property is tested, not vacuous: the precondition held in a good share of the runs.
  assert.ok(held > 300, `precondition held ${held} times`);
});

test("anchoredDiff: its shortcut (all anchors, one place that differs) gives the parts of the full diff", () => {
  let short = 0;
  const word = (x: string) => /\w/.test(x);
  // Arrays edited in one place (the shortcut's case), and unrelated arrays, with blank elements and repeats.
  const edited = fc
    .tuple(linesArb, fc.nat(12), fc.nat(2), fc.array(lineArb, { maxLength: 2 }))
    .map(([a, at, removed, added]) => {
      const b = [...a];
      b.splice(Math.min(at, a.length), removed, ...added);
      return [a, b] as const;
    });
  fc.assert(
    fc.property(fc.oneof(edited, fc.tuple(linesArb, linesArb)), fc.boolean(), ([a, b], byWord) => {
      const isAnchor = byWord ? word : nonBlank;
      const parts = anchoredDiff(a, b, isAnchor);
      assert.deepEqual(parts, fullAnchoredDiff(a, b, isAnchor), JSON.stringify({ a, b, byWord }));
      if (a.every(isAnchor) && b.every(isAnchor) && parts.filter((p) => p.added || p.removed).length > 0) short++;
    }),
    { numRuns: 20000 },
  );
  assert.ok(short > 300, `shortcut cases: ${short}`);
});

test("keysMatchLines is false exactly when two different lines share a diff key", () => {
  fc.assert(
    fc.property(linesArb, linesArb, (find, repl) => {
      const all = [...find, ...repl];
      const collide = all.some((x) => all.some((y) => x !== y && diffKey(x) === diffKey(y)));
      assert.equal(keysMatchLines(find, repl), !collide);
    }),
    { numRuns: 3000 },
  );
});

test("levelMap: asking whether the file uses tabs lazily maps every indentation as the boolean did", () => {
  const ws = fc.array(fc.constantFrom(" ", "  ", "\t"), { maxLength: 4 }).map((u) => u.join(""));
  const pair = fc.record({ model: ws, file: ws });
  fc.assert(
    fc.property(
      fc.array(pair, { maxLength: 5 }),
      fc.array(fc.tuple(ws, bodyArb).map(([i, b]) => i + b), { maxLength: 6 }),
      fc.constantFrom("\t", "  ", "    "),
      fc.boolean(),
      fc.array(ws, { minLength: 1, maxLength: 6 }),
      (pairs: IndentPair[], modelLines, fileUnit, tabs, asked) => {
        let calls = 0;
        const eager = levelMap({ pairs, modelLines, fileUnit, fileUsesTabs: tabs });
        const lazy = levelMap({
          pairs,
          modelLines,
          fileUnit,
          fileUsesTabs: () => {
            calls++;
            return tabs;
          },
        });
        for (const i of asked) assert.equal(lazy(i), eager(i), JSON.stringify({ pairs, modelLines, fileUnit, tabs, i }));
        assert.ok(calls <= 1, "the file is read once at most");
      },
    ),
    { numRuns: 3000 },
  );
});
