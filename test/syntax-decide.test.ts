/**
 * The syntax tie-break (engine/syntax-decide.ts): of several equally good
 * places of a non-exact edit, the one whose result parses while every
 * other's breaks is taken. Core `replace()` with and without a judge,
 * the rule's limits (exact matches, hints, both parse, both break, an
 * unknown verdict), a property (a judge that says the same of every reading
 * changes no outcome), and the file layer (`bySyntax`, `syntax: "off"`,
 * unknown languages, SEARCH/REPLACE).
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createRng, hashSeed } from "../bench/accuracy/random.ts";
import { generateTie, TIE_KINDS } from "../bench/syntax-ties.ts";
import { MAX_JUDGED, pickBySyntax, type SyntaxJudge } from "../src/engine/syntax-decide.ts";
import { EditError } from "../src/errors.ts";
import { replace } from "../src/index.ts";
import { probeJudge, SYNTAX_REPORT_MAX_CHARS } from "../src/fs/syntax-check.ts";
import { applyEdits } from "../src/node.ts";
import { loadSyntaxJudge } from "../src/syntax/judge.ts";
import { makeTree, read } from "./helpers/temp-tree.ts";

/** Two look-alike `if` blocks; the second already has an `else:`. */
const PY = `def first(items):
    total = 0
    for item in items:
        if item.ok:
            total += item.value
    return total


def second(items):
    skipped = 0
    for item in items:
        if item.ok:
            total += item.value
        else:
            skipped += 2
    return skipped
`;

/** The same in JavaScript, `else` on its own line (Stroustrup style). */
const JS = `function first(items) {
  let total = 0;
  for (const item of items) {
    if (item.ok) {
      total += item.value;
    }
  }
  return total;
}

function second(items) {
  let skipped = 0;
  for (const item of items) {
    if (item.ok) {
      total += item.value;
    }
    else {
      skipped += 2;
    }
  }
  return skipped;
}
`;

/** Two look-alike closing lines: one ends an inner block, the other a function (find text typed with spaces). */
const GO = `package main

func first() {
	if ready {
		cleanup()
	}
}

func second() {
	cleanup()
}
`;

interface Case {
  name: string;
  path: string;
  content: string;
  find: string;
  replacement: string;
  /** The expected content; undefined: the tie stays (AMBIGUOUS) even with the judge. */
  expected?: string;
}

const PY_ELSE = "        else:\n            total -= 1\n";
const JS_ELSE = "    else {\n      total -= 1;\n    }\n";

const cases: Case[] = [
  {
    name: "Python: an else added to the if that has none (the look-alike's would be a second else)",
    path: "a.py",
    content: PY,
    find: "if item.ok:\n    total += item.value",
    replacement: "if item.ok:\n    total += item.value\nelse:\n    total -= 1",
    expected: PY.replace("            total += item.value\n    return total", `            total += item.value\n${PY_ELSE}    return total`),
  },
  {
    name: "JavaScript: an else block added to the if that has none",
    path: "a.js",
    content: JS,
    find: "if (item.ok) {\n  total += item.value;\n}",
    replacement: "if (item.ok) {\n  total += item.value;\n}\nelse {\n  total -= 1;\n}",
    expected: JS.replace("      total += item.value;\n    }\n  }\n  return total;", `      total += item.value;\n    }\n${JS_ELSE}  }\n  return total;`),
  },
  {
    name: "Go: a function added after the } that closes a function, not inside the one that closes an if",
    path: "a.go",
    content: GO,
    find: "    cleanup()\n}",
    replacement: "    cleanup()\n}\n\nfunc extra() {\n    log()\n}",
    expected: `${GO}\nfunc extra() {\n\tlog()\n}\n`,
  },
  {
    name: "both places parse after the edit: the tie stays",
    path: "a.py",
    content: PY,
    find: "if item.ok:\n    total += item.value",
    replacement: "if item.ok:\n    total += item.value * 2",
  },
  {
    name: "both places break after the edit: the tie stays",
    path: "a.py",
    content: PY,
    find: "if item.ok:\n    total += item.value",
    replacement: "if item.ok:\n    total += (item.value",
  },
];

for (const c of cases) {
  test(`replace: ${c.name}`, async () => {
    const judge = await loadSyntaxJudge(c.path, c.content);
    assert.ok(judge);
    // Without a judge the engine refuses, as it always has.
    assert.throws(() => replace(c.content, c.find, c.replacement), (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS");
    if (c.expected === undefined) {
      assert.throws(() => replace(c.content, c.find, c.replacement, { syntaxJudge: judge }), (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS");
      return;
    }
    const r = replace(c.content, c.find, c.replacement, { syntaxJudge: judge });
    assert.equal(r.content, c.expected);
    assert.equal(r.match.fuzzy, true);
  });
}

/** A judge that counts its calls and says `verdict` of every reading. */
function spy(verdict: (after: string) => number | undefined): SyntaxJudge & { calls: number } {
  const judge = Object.assign((_before: string, after: string) => {
    judge.calls++;
    return verdict(after);
  }, { calls: 0 });
  return judge;
}

test("replace: an exact match, unique or not, is never weighed by the judge", () => {
  const judge = spy(() => 1);
  const unique = replace(PY, "            skipped += 2\n", "            skipped += (2\n", { syntaxJudge: judge });
  assert.match(unique.content, /skipped \+= \(2/);
  // Two exact places: the tie is the model's to break (exact means literal), whatever the syntax says.
  const breaksFirst = spy((after) => (after.includes("total += item.value\n            x = (") ? 1 : 0));
  assert.throws(
    () => replace(PY, "            total += item.value\n", "            total += item.value\n            x = 1\n", { syntaxJudge: breaksFirst }),
    (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS",
  );
  assert.equal(judge.calls, 0);
  assert.equal(breaksFirst.calls, 0);
});

test("replace: a line hint that decides leaves the judge unasked", () => {
  const judge = spy(() => 0);
  const r = replace(PY, "if item.ok:\n    total += item.value", "if item.ok:\n    total += item.value * 2", { syntaxJudge: judge, startLine: 12 });
  assert.equal(r.match.startLine, 12);
  assert.equal(judge.calls, 0);
});

test("replace: a judge that cannot tell (undefined) for one place decides nothing", () => {
  const judge = spy((after) => (after.includes("total -= 1\n    return total") ? undefined : 1));
  assert.throws(
    () => replace(PY, "if item.ok:\n    total += item.value", "if item.ok:\n    total += item.value\nelse:\n    total -= 1", { syntaxJudge: judge }),
    (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS",
  );
  // The first place's verdict is unknown: the weighing stops there.
  assert.equal(judge.calls, 1);
});

test("replace: syntaxJudge that is not a function is INVALID_INPUT", () => {
  assert.throws(
    () => replace(PY, "a", "b", { syntaxJudge: "python" as unknown as SyntaxJudge }),
    (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT" && /syntaxJudge must be a function/.test(e.message),
  );
});

const pickCases: { name: string; verdicts: (number | undefined)[]; texts?: (string | undefined)[]; want: number | undefined }[] = [
  { name: "the one clean reading among broken ones", verdicts: [2, 0, 1], want: 1 },
  { name: "two clean readings: no decision", verdicts: [0, 0, 1], want: undefined },
  { name: "every reading broken: no decision", verdicts: [1, 3], want: undefined },
  { name: "an unknown verdict: no decision", verdicts: [0, undefined], want: undefined },
  { name: "a reading that could not be planned: no decision", verdicts: [0, 1], texts: ["t0", undefined], want: undefined },
  { name: "one reading: nothing to weigh", verdicts: [0], want: undefined },
  { name: `more than ${MAX_JUDGED} readings: not weighed`, verdicts: [0, ...Array.from({ length: MAX_JUDGED }, () => 1)], want: undefined },
];

for (const c of pickCases) {
  test(`pickBySyntax: ${c.name}`, () => {
    const texts = c.texts ?? c.verdicts.map((_, k) => `t${k}`);
    const judge: SyntaxJudge = (_before, after) => c.verdicts[Number(after.slice(1))];
    assert.equal(pickBySyntax("before", texts, judge), c.want);
  });
}

test("pickBySyntax: a judge with noteTie is told of a reading that could not be planned instead of weighing those before it; one without is called as before", () => {
  for (const texts of [["t0", undefined], ["t0", "t1", undefined, "t3"], [undefined, "t1"]] as (string | undefined)[][]) {
    let calls = 0;
    let notes = 0;
    const counted = (() => {
      calls++;
      return 0;
    }) as SyntaxJudge;
    const noting: SyntaxJudge = Object.assign(() => {
      calls++;
      return 0;
    }, { noteTie: () => notes++ });
    assert.equal(pickBySyntax("before", texts, noting), undefined);
    // An unplannable first reading asks nothing, as the loop never called the judge there.
    assert.deepEqual([calls, notes], texts[0] === undefined ? [0, 0] : [0, 1], JSON.stringify(texts));
    assert.equal(pickBySyntax("before", texts, counted), undefined);
    assert.equal(calls, texts.indexOf(undefined), JSON.stringify(texts));
  }
  // Every reading planned: noteTie is never used.
  let notes = 0;
  const judge: SyntaxJudge = Object.assign((_b: string, after: string) => (after === "t1" ? 0 : 1), { noteTie: () => notes++ });
  assert.equal(pickBySyntax("before", ["t0", "t1"], judge), 1);
  assert.equal(notes, 0);
});

test("noteTie: the probe counts a tie no verdict decides as asked (a second run follows, as after a call); the parsing judge has it and parses nothing for it", async () => {
  const text = "def f():\n    return 1\n";
  const probe = probeJudge("a.py", text);
  assert.ok(probe?.judge.noteTie);
  assert.equal(probe.asked(), false);
  assert.equal(pickBySyntax(text, ["def f():\n    return 2\n", undefined], probe.judge), undefined);
  assert.equal(probe.asked(), true);
  const judge = await loadSyntaxJudge("a.py", text);
  assert.equal(typeof judge?.noteTie, "function");
  // A broken first reading: called, the judge would report its error; told of the tie instead, no verdict is asked for.
  let called = 0;
  const verdict = (b: string, a: string) => {
    called++;
    return judge?.(b, a);
  };
  const counting: SyntaxJudge = Object.assign(verdict, { noteTie: judge?.noteTie });
  assert.equal(pickBySyntax(text, ["def f(:\n", undefined], counting), undefined);
  assert.equal(called, 0);
});

test("property: a judge that says the same of every reading changes no outcome of replace()", () => {
  const line = fc.constantFrom("if a:", "  b = 1", "    b = 1", "c()", "", "  if a:", "d = [", "]");
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), fc.array(line, { minLength: 1, maxLength: 3 }), fc.array(line, { maxLength: 3 }), fc.constantFrom(0, 1, undefined), (file, find, repl, verdict) => {
      const content = `${file.join("\n")}\n`;
      const outcome = (options: { syntaxJudge?: SyntaxJudge }) => {
        try {
          return replace(content, find.join("\n"), repl.join("\n"), options).content;
        } catch (e) {
          return e instanceof EditError ? `${e.code}` : `crash ${String(e)}`;
        }
      };
      assert.equal(outcome({ syntaxJudge: () => verdict }), outcome({}));
    }),
    { numRuns: 300 },
  );
});

const PY_EDIT = { path: "a.py", oldString: "if item.ok:\n    total += item.value", newString: "if item.ok:\n    total += item.value\nelse:\n    total -= 1" };
const PY_AFTER = PY.replace("            total += item.value\n    return total", `            total += item.value\n${PY_ELSE}    return total`);
const JS_AFTER = JS.replace("      total += item.value;\n    }\n  }\n  return total;", `      total += item.value;\n    }\n${JS_ELSE}  }\n  return total;`);

test("applyEdits: the tie is broken by syntax (bySyntax), the file written, the report clean", async () => {
  const { root } = await makeTree({ "a.py": PY });
  const r = await applyEdits(root, [PY_EDIT]);
  assert.equal(r.ok, true);
  const edit = r.files[0]?.edits[0];
  assert.equal(edit?.status, "applied");
  assert.equal(edit?.bySyntax, true);
  assert.equal(edit?.startLine, 4);
  assert.equal(r.files[0]?.syntax?.introduced.length, 0);
  assert.equal(await read(root, "a.py"), PY_AFTER);
});

test('applyEdits: with syntax: "off", or a file of no known language, the tie stays AMBIGUOUS', async () => {
  const { root } = await makeTree({ "a.py": PY, "a.txt": PY });
  const off = await applyEdits(root, [PY_EDIT], { syntax: "off" });
  assert.equal(off.ok, false);
  assert.equal(off.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
  const txt = await applyEdits(root, [{ ...PY_EDIT, path: "a.txt" }]);
  assert.equal(txt.ok, false);
  assert.equal(txt.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
  assert.equal(await read(root, "a.py"), PY);
  // verify: "syntax" checks even with syntax "off", and so weighs ties too.
  const verified = await applyEdits(root, [PY_EDIT], { syntax: "off", verify: "syntax" });
  assert.equal(verified.ok, true);
  assert.equal(verified.files[0]?.edits[0]?.bySyntax, true);
});

test("applyEdits: a file past the syntax report's size limit is not parsed to weigh a tie: it stays AMBIGUOUS", async () => {
  const pad = "x_pad = 1  # to the size\n".repeat(Math.ceil(SYNTAX_REPORT_MAX_CHARS / 24) + 1);
  const { root } = await makeTree({ "a.py": PY + pad });
  const r = await applyEdits(root, [PY_EDIT]);
  assert.equal(r.ok, false);
  assert.equal(r.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
  assert.equal(await read(root, "a.py"), PY + pad);
});

test("applyEdits: a SEARCH/REPLACE block among others is decided by syntax; an unambiguous block carries no bySyntax", async () => {
  const { root } = await makeTree({ "a.js": JS });
  const input = [
    "a.js",
    "<<<<<<< SEARCH",
    "if (item.ok) {",
    "  total += item.value;",
    "}",
    "=======",
    "if (item.ok) {",
    "  total += item.value;",
    "}",
    "else {",
    "  total -= 1;",
    "}",
    ">>>>>>> REPLACE",
    "",
    "a.js",
    "<<<<<<< SEARCH",
    "  return skipped;",
    "=======",
    "  return skipped + 1;",
    ">>>>>>> REPLACE",
    "",
  ].join("\n");
  const r = await applyEdits(root, input);
  assert.equal(r.ok, true, JSON.stringify(r.files[0]?.edits.map((e) => e.error?.message)));
  const edits = r.files[0]?.edits ?? [];
  assert.deepEqual(
    edits.map((e) => [e.status, e.bySyntax ?? false]),
    [
      ["applied", true],
      ["applied", false],
    ],
  );
  const after = await read(root, "a.js");
  assert.equal(after, JS_AFTER.replace("  return skipped;", "  return skipped + 1;"));
});

test("bench:syntax's generated ties (bench/syntax-ties.ts): AMBIGUOUS (py-frame: wrong) without the judge; with it, the intended file, or still AMBIGUOUS for the control", async () => {
  for (let k = 0; k < 2 * TIE_KINDS.length; k++) {
    const c = generateTie(createRng(hashSeed(7, k)), k);
    const judge = await loadSyntaxJudge(c.path, c.content);
    assert.ok(judge);
    const ambiguous = (e: unknown) => e instanceof EditError && e.code === "AMBIGUOUS";
    // A tie inside one place: without the judge the default reading is written, and it is the wrong one.
    if (c.kind === "py-frame") assert.notEqual(replace(c.content, c.oldString, c.newString).content, c.expected, c.kind);
    else assert.throws(() => replace(c.content, c.oldString, c.newString), ambiguous, c.kind);
    if (c.expected === undefined) assert.throws(() => replace(c.content, c.oldString, c.newString, { syntaxJudge: judge }), ambiguous, c.kind);
    else assert.equal(replace(c.content, c.oldString, c.newString, { syntaxJudge: judge }).content, c.expected, c.kind);
  }
});

/**
 * A tie inside one place (engine/merge.ts): the frame of a re-indented
 * replacement. The find text is quoted at `quoted` spaces (the file has the
 * `if` at 8); the replacement wraps it in a new block at the file's
 * indentation, so no line votes for either frame.
 */
const FRAME_FILE = `def run(items, lock):
    total = 0
    for item in items:
        count = 0
        if item.ok:
            total += item.size
        log(count)
    return total
`;
const frameFind = (quoted: number) => `${" ".repeat(quoted)}if item.ok:\n${" ".repeat(quoted + 4)}total += item.size`;
const TRY = "        try:\n            if item.ok:\n                total += item.size\n        except ValueError:\n            pass";
const WITH = "        with lock:\n            if item.ok:\n                total += item.size";
const framed = (block: string) => FRAME_FILE.replace("        if item.ok:\n            total += item.size", block);

interface FrameCase {
  name: string;
  find: string;
  replacement: string;
  /** What the engine writes without a judge. */
  without: string;
  /** What it writes with the judge. */
  with: string;
  /** Whether the judge is asked at all. */
  asked: boolean;
}

const frameCases: FrameCase[] = [
  ...[
    [0, 16],
    [2, 16],
    [4, 12],
  ].map(([quoted = 0, at = 0]) => ({
    name: `a try: block at the file's indentation around a find text quoted at ${quoted}: the file's frame (the find text's nests it too deep)`,
    find: frameFind(quoted),
    replacement: TRY,
    without: framed(TRY.replaceAll(/^ {8}/gm, " ".repeat(at))),
    with: framed(TRY),
    asked: true,
  })),
  {
    name: "a with block quoted at 0: the file's frame",
    find: frameFind(0),
    replacement: WITH,
    without: framed(WITH.replaceAll(/^ {8}/gm, " ".repeat(16))),
    with: framed(WITH),
    asked: true,
  },
  {
    name: "both frames parse (quoted at 6: the block lands at 8 either way): the default stands",
    find: frameFind(6),
    replacement: TRY,
    without: framed("        try:\n                if item.ok:\n                    total += item.size\n        except ValueError:\n                pass"),
    with: framed("        try:\n                if item.ok:\n                    total += item.size\n        except ValueError:\n                pass"),
    asked: true,
  },
  {
    name: "the replacement at the find text's indentation decides the frame: the judge is not asked",
    find: frameFind(0),
    replacement: "try:\n    if item.ok:\n        total += item.size\nexcept ValueError:\n    pass",
    without: framed(TRY),
    with: framed(TRY),
    asked: false,
  },
  {
    name: "an exact find text (one place, as in the file) is literal: the judge is not asked",
    find: "        if item.ok:\n            total += item.size",
    replacement: TRY,
    without: framed(TRY),
    with: framed(TRY),
    asked: false,
  },
];

for (const c of frameCases) {
  test(`replace, one place: ${c.name}`, async () => {
    const judge = await loadSyntaxJudge("a.py", FRAME_FILE);
    assert.ok(judge);
    assert.equal(replace(FRAME_FILE, c.find, c.replacement).content, c.without);
    const counted = spy((after) => judge(FRAME_FILE, after));
    assert.equal(replace(FRAME_FILE, c.find, c.replacement, { syntaxJudge: counted }).content, c.with);
    assert.equal(counted.calls > 0, c.asked, `judge calls: ${counted.calls}`);
  });
}

test("applyEdits: a tie inside one place is weighed by syntax (the first run notes it, the judge is loaded); with syntax off the default reading stands", async () => {
  const edit = { path: "a.py", oldString: frameFind(0), newString: TRY };
  const { root } = await makeTree({ "a.py": FRAME_FILE, "off/a.py": FRAME_FILE });
  const off = await applyEdits(root, [{ ...edit, path: "off/a.py" }], { syntax: "off" });
  assert.equal(off.ok, true);
  assert.equal(await read(root, "off/a.py"), framed(TRY.replaceAll(/^ {8}/gm, " ".repeat(16))));
  const r = await applyEdits(root, [edit]);
  assert.equal(r.ok, true);
  assert.equal(r.files[0]?.syntax?.introduced.length, 0);
  assert.equal(await read(root, "a.py"), framed(TRY));
});

test("property: inside one place the judge only overrides a reading that breaks the syntax, and never for one that breaks it more", async () => {
  const judge = await loadSyntaxJudge("a.py", FRAME_FILE);
  assert.ok(judge);
  const pad = (n: number, l: string) => (l === "" ? l : " ".repeat(n) + l);
  const wrappers = [["try:", "except ValueError:", "    pass"], ["with lock:"], ["if item.ready:", "else:", "    skip()"]];
  fc.assert(
    fc.property(fc.nat(12), fc.nat(12), fc.nat(wrappers.length - 1), fc.boolean(), (quoted, at, w, changed) => {
      const [head = "", clause, clauseBody] = wrappers[w] ?? [];
      const body = ["if item.ok:", `    total += item.size${changed ? " * 2" : ""}`];
      const repl = [pad(at, head), ...body.map((l) => pad(at + 4, l)), ...(clause ? [pad(at, clause), pad(at, clauseBody ?? "")] : [])].join("\n");
      const outcome = (options: { syntaxJudge?: SyntaxJudge }) => {
        try {
          return replace(FRAME_FILE, frameFind(quoted), repl, options).content;
        } catch (e) {
          return e instanceof EditError ? e.code : `crash ${String(e)}`;
        }
      };
      const without = outcome({});
      const withJudge = outcome({ syntaxJudge: judge });
      assert.ok(!withJudge.startsWith("crash"), withJudge);
      if (withJudge === without) return;
      // Different only where the default's text introduced errors and the judge's introduces none.
      assert.ok((judge(FRAME_FILE, without) ?? 0) > 0, without);
      assert.equal(judge(FRAME_FILE, withJudge), 0, withJudge);
    }),
    { numRuns: 200, seed: 12 },
  );
});
