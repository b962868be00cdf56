/**
 * Issue 10's property: for a random file and a random exact edit, writing the
 * find text with any ONE kind of noise — find side only, the replacement as
 * the clean edit has it — gives the same output as the clean edit, or a
 * refusal (an EditError). Never a different output.
 *
 * The clean edit's output is computed here by splicing lines, not by the
 * engine, and the noise is written from what models do, not from what the
 * engine's strategies undo: the test must not share the engine's blind spots.
 * One property per (noise kind, format), each with the same fixed seed
 * (fast-check prints it with the counterexample; rerun with
 * FUZZPATCH_NOISE_SEED=N to explore another).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { applyPatch, applySearchReplace, EditError, replace } from "../src/index.ts";

const SEED = Number(process.env.FUZZPATCH_NOISE_SEED ?? 1009);
const RUNS = 60;

// --- the file and the clean edit ------------------------------------------------

/** Statement templates; `i` makes each line's names its own, so regions are unique. */
const TEMPLATES: ((i: number) => string)[] = [
  (i) => `const v${i} = "s${i}";`,
  (i) => `if (v${i} > ${i}) {`,
  (i) => `call(v${i}, 'k${i}');`,
  (i) => `return v${i} - ${i};`,
  (i) => `let v${i} = [v${i}, ${i}];`,
  (i) => `// note ${i} -- see v${i}`,
];

interface Line {
  depth: number;
  text: string;
}

const fileArb = fc
  .record({
    unit: fc.constantFrom("  ", "    ", "\t"),
    specs: fc.array(fc.record({ template: fc.nat(TEMPLATES.length - 1), step: fc.integer({ min: -1, max: 1 }), blank: fc.nat(7) }), {
      minLength: 8,
      maxLength: 40,
    }),
  })
  .map(({ unit, specs }) => {
    let depth = 0;
    const lines: Line[] = specs.map((s, i) => {
      depth = Math.min(3, Math.max(0, depth + s.step));
      if (s.blank === 0) return { depth, text: "" };
      return { depth, text: unit.repeat(depth) + (TEMPLATES[s.template] as (i: number) => string)(i) };
    });
    return { unit, lines };
  });

/** One line of the edit as the model sees it: kept, removed or added. */
interface ViewLine {
  role: "keep" | "del" | "add";
  text: string;
}

interface Scenario {
  unit: string;
  lines: Line[];
  start: number;
  /** The clean edit of the region `lines[start, start + view's old lines)`. */
  view: ViewLine[];
  content: string;
  expected: string;
  /** Index for the noise's own choices. */
  pick: number;
}

const squash = (s: string): string => s.replace(/\s+/g, "");

function occurrences(haystack: readonly string[], needle: readonly string[]): number {
  let count = 0;
  for (let p = 0; p + needle.length <= haystack.length; p++) if (needle.every((n, k) => haystack[p + k] === n)) count++;
  return count;
}

const scenarioArb = fc
  .record({
    file: fileArb,
    start: fc.nat(),
    length: fc.integer({ min: 2, max: 8 }),
    changeAt: fc.nat(),
    removeCount: fc.integer({ min: 0, max: 2 }),
    adds: fc.array(fc.nat(3), { maxLength: 3 }),
    pick: fc.nat(1000),
  })
  .map(({ file, start, length, changeAt, removeCount, adds, pick }): Scenario | undefined => {
    const { unit, lines } = file;
    const s = start % Math.max(1, lines.length - length);
    const region = lines.slice(s, s + length);
    if (region.length < 2 || region[0]?.text === "" || region[region.length - 1]?.text === "") return undefined;
    const texts = lines.map((l) => l.text);
    const regionTexts = region.map((l) => l.text);
    // Unique exactly and ignoring whitespace and blank lines: then no noise
    // below can make the find text fit another place better.
    if (occurrences(texts, regionTexts) !== 1) return undefined;
    const solid = texts.filter((t) => t !== "").map(squash);
    if (occurrences(solid, regionTexts.filter((t) => t !== "").map(squash)) !== 1) return undefined;
    const cs = changeAt % (region.length + 1);
    const ce = Math.min(region.length, cs + removeCount);
    if (region.length - (ce - cs) < 1) return undefined;
    const anchor = region[Math.max(0, cs - 1)] as Line;
    const added = adds.map((t, k) => unit.repeat(anchor.depth) + (TEMPLATES[t] as (i: number) => string)(1000 + k));
    if (added.length === 0 && ce === cs) return undefined;
    const view: ViewLine[] = [
      ...region.slice(0, cs).map((l): ViewLine => ({ role: "keep", text: l.text })),
      ...region.slice(cs, ce).map((l): ViewLine => ({ role: "del", text: l.text })),
      ...added.map((text): ViewLine => ({ role: "add", text })),
      ...region.slice(ce).map((l): ViewLine => ({ role: "keep", text: l.text })),
    ];
    const after = [...texts.slice(0, s + cs), ...added, ...texts.slice(s + ce)];
    return { unit, lines, start: s, view, content: `${texts.join("\n")}\n`, expected: `${after.join("\n")}\n`, pick };
  })
  .filter((s): s is Scenario => s !== undefined);

// --- find-side noise ---------------------------------------------------------------

/** The find side of a view: kept and removed lines (what the model quotes). */
const quoted = (view: readonly ViewLine[]): ViewLine[] => view.filter((l) => l.role !== "add");

function leading(text: string): string {
  return text.slice(0, text.length - text.trimStart().length);
}

/** Rewrites the text of every quoted line; the added lines stay clean. */
function mapQuoted(view: readonly ViewLine[], f: (text: string, k: number) => string): ViewLine[] {
  let k = 0;
  return view.map((l) => (l.role === "add" ? l : { role: l.role, text: f(l.text, k++) }));
}

function curl(text: string): string {
  let open = true;
  return text
    .replace(/"/g, () => {
      open = !open;
      return open ? "\u201d" : "\u201c";
    })
    .replace(/(^|[\s(])'/g, "$1\u2018")
    .replace(/'/g, "\u2019")
    .replace(/--/g, "\u2014");
}

/** Index of a kept blank line between two kept non-blank lines (or of such a gap), by `pick`. */
function calmSlot(view: readonly ViewLine[], pick: number, blank: boolean): number | undefined {
  const slots: number[] = [];
  for (let i = 1; i < view.length; i++) {
    const a = view[i - 1];
    const b = blank ? view[i + 1] : view[i];
    const mid = view[i];
    const solid = (l: ViewLine | undefined): boolean => l?.role === "keep" && l.text !== "";
    if (blank ? mid?.role === "keep" && mid.text === "" && solid(a) && solid(b) : solid(a) && solid(b)) slots.push(i);
  }
  return slots.length === 0 ? undefined : slots[pick % slots.length];
}

/** Each returns the noisy view, or undefined when the scenario cannot carry it. */
const NOISE: Record<string, (s: Scenario) => ViewLine[] | undefined> = {
  "shifted deeper": (s) => mapQuoted(s.view, (t) => (t === "" ? t : (s.pick % 2 === 0 ? s.unit : "  ") + t)),
  "common indentation dropped": (s) => {
    const leads = quoted(s.view)
      .filter((l) => l.text !== "")
      .map((l) => leading(l.text));
    let common = leads[0] ?? "";
    for (const lead of leads) {
      let i = 0;
      while (i < common.length && common[i] === lead[i]) i++;
      common = common.slice(0, i);
    }
    return common === "" ? undefined : mapQuoted(s.view, (t) => t.slice(common.length));
  },
  "tabs and spaces swapped": (s) =>
    mapQuoted(s.view, (t) => {
      const lead = leading(t);
      const swapped = s.unit === "\t" ? lead.replaceAll("\t", "    ") : lead.replaceAll(s.unit, "\t");
      return swapped + t.slice(lead.length);
    }),
  "model's own levels (half a step off)": (s) =>
    mapQuoted(s.view, (t) => {
      if (t === "") return t;
      const depth = s.unit === "\t" ? leading(t).length : leading(t).length / s.unit.length;
      return " ".repeat(2 + depth * 4) + t.trimStart();
    }),
  "trailing whitespace": (s) => mapQuoted(s.view, (t, k) => (k % 2 === s.pick % 2 && t !== "" ? `${t}  ` : t)),
  "inner spaces collapsed": (s) => mapQuoted(s.view, (t) => leading(t) + t.trimStart().replace(/ = /g, "=").replace(/, /g, ",")),
  "blank line dropped": (s) => {
    const i = calmSlot(s.view, s.pick, true);
    return i === undefined ? undefined : s.view.filter((_, k) => k !== i);
  },
  "blank line added": (s) => {
    const i = calmSlot(s.view, s.pick, false);
    return i === undefined ? undefined : [...s.view.slice(0, i), { role: "keep", text: "" }, ...s.view.slice(i)];
  },
  "smart quotes and dashes": (s) => mapQuoted(s.view, curl),
  "one token misremembered in a kept line": (s) => {
    const kept = s.view.flatMap((l, i) => (l.role === "keep" && /v\d+/.test(l.text) ? [i] : []));
    if (quoted(s.view).filter((l) => l.text !== "").length < 4 || kept.length === 0) return undefined;
    const at = kept[s.pick % kept.length] as number;
    return s.view.map((l, i) => (i === at ? { role: l.role, text: l.text.replace(/v(\d+)/, "v$1s") } : l));
  },
};

// --- rendering and checking ----------------------------------------------------------

const findText = (view: readonly ViewLine[]): string =>
  view
    .filter((l) => l.role !== "add")
    .map((l) => l.text)
    .join("\n");
const replacementText = (view: readonly ViewLine[]): string =>
  view
    .filter((l) => l.role !== "del")
    .map((l) => l.text)
    .join("\n");

const FORMATS: Record<string, (content: string, noisy: ViewLine[], clean: ViewLine[]) => string> = {
  replace: (content, noisy, clean) => replace(content, findText(noisy), replacementText(clean)).content,
  applySearchReplace: (content, noisy, clean) => {
    const result = applySearchReplace(content, `<<<<<<< SEARCH\n${findText(noisy)}\n=======\n${replacementText(clean)}\n>>>>>>> REPLACE\n`);
    const failed = result.failed[0];
    if (failed !== undefined) throw failed;
    return result.content;
  },
  // In a diff a context line is one text: the model's (noisy) recollection; `+` lines are clean.
  applyPatch: (content, noisy) => {
    const body = noisy.map((l) => (l.role === "keep" ? " " : l.role === "del" ? "-" : "+") + l.text);
    return applyPatch(content, `--- a/f.js\n+++ b/f.js\n@@ @@\n${body.join("\n")}\n`).content;
  },
};

for (const [noiseName, noise] of Object.entries(NOISE)) {
  for (const [formatName, apply] of Object.entries(FORMATS)) {
    test(`${formatName}, find text with ${noiseName}: the clean edit's output or a refusal (seed ${SEED})`, () => {
      const property = fc.property(scenarioArb, (s) => {
        const noisy = noise(s);
        fc.pre(noisy !== undefined && findText(noisy) !== findText(s.view));
        let output: string;
        try {
          output = apply(s.content, noisy as ViewLine[], s.view);
        } catch (error) {
          if (error instanceof EditError) return;
          throw error;
        }
        assert.equal(output, s.expected, `find text:\n${findText(noisy as ViewLine[])}\nreplacement:\n${replacementText(s.view)}`);
      });
      const run = fc.check(property, { seed: SEED, numRuns: RUNS });
      if (run.failed) {
        const error = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
        assert.fail(
          `${formatName} with ${noiseName}: seed ${SEED}, path ${run.counterexamplePath}, after ${run.numRuns} run(s)\n${error}\ncounterexample: ${JSON.stringify(run.counterexample)}`,
        );
      }
      assert.ok(run.numRuns >= RUNS / 2, `only ${run.numRuns} of ${RUNS} runs carried the noise (${run.numSkips} skipped)`);
    });
  }
}
