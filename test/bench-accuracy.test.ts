import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { type Applier, applyExactly, exactApplier, loadAppliers, runApplier } from "../bench/accuracy/appliers.ts";
import { generateCase } from "../bench/accuracy/cases.ts";
import { combineReports } from "../bench/accuracy/combine.ts";
import { findCorpus } from "../bench/accuracy/corpus.ts";
import { runAccuracyBench } from "../bench/accuracy/main.ts";
import { regionNew, regionOld } from "../bench/accuracy/mistakes.ts";
import { createRng } from "../bench/accuracy/random.ts";
import { expectedFor, overEscape, renderCase } from "../bench/accuracy/render.ts";
import { type AccuracyReport, aggregate, buildStats, type CaseResult, judge, renderMarkdown, renderSvg } from "../bench/accuracy/report.ts";
import { type BenchCase, DEFAULT_CASE_FORMATS, FORMATS, MISTAKE_KINDS, type MistakeKind } from "../bench/accuracy/types.ts";

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const corpus = findCorpus({ projectRoot });
const SEED = 20240611;
const PER_KIND = 4;

/** PER_KIND cases of each mistake kind (kinds are round-robin by index). */
const casesByKind = new Map<MistakeKind, BenchCase[]>();
for (let i = 0; i < MISTAKE_KINDS.length * PER_KIND; i++) {
  const c = generateCase(corpus, SEED, i);
  assert.ok(c, `case ${i} could not be generated`);
  const list = casesByKind.get(c.kind) ?? [];
  list.push(c);
  casesByKind.set(c.kind, list);
}

function casesOf(kind: MistakeKind): BenchCase[] {
  return casesByKind.get(kind) ?? [];
}

/** The region's lines in the file as the applier sees it. */
function fileRegion(c: BenchCase): string[] {
  return c.content.split(/\r?\n/).slice(c.startLine - 1, c.endLine);
}

const squash = (s: string): string => s.replace(/\s+/g, "");
const uncurl = (s: string): string =>
  s.replace(/[\u201c\u201d]/g, '"').replace(/[\u2018\u2019]/g, "'").replace(/\u2014/g, "--").replace(/\u2013/g, "-");
const TYPOGRAPHIC = /[\u2018\u2019\u201c\u201d\u2013\u2014\u2026]/;
const lead = (s: string): string => s.slice(0, s.length - s.trimStart().length);

/** The expected content's lines where the region was, `length` of them. */
function expectedRegion(c: BenchCase, length: number): string[] {
  assert.ok(c.expected !== undefined, `case ${c.index} has an expected result`);
  return c.expected.split(/\r?\n/).slice(c.startLine - 1, c.startLine - 1 + length);
}

/** How many lines the expected content has more than the file (the edit's growth). */
function growth(c: BenchCase): number {
  return (c.expected ?? "").split("\n").length - c.content.split("\n").length;
}

/** Whether `part` occurs as consecutive lines of `lines`. */
function containsRun(lines: readonly string[], part: readonly string[]): boolean {
  for (let i = 0; i + part.length <= lines.length; i++) {
    if (part.every((p, k) => lines[i + k] === p)) return true;
  }
  return false;
}

test("the corpus is real dependency files, none minified or huge", () => {
  assert.ok(corpus.fileCount > 50);
  assert.ok(corpus.root.endsWith("node_modules"));
  for (const list of casesByKind.values()) {
    for (const c of list) {
      assert.ok(c.content.length <= 300 * 1024 * 1.1, c.file);
      assert.ok(c.content.split("\n").every((l) => l.length <= 400), c.file);
    }
  }
});

test("the generator is deterministic for a seed", () => {
  const again = findCorpus({ projectRoot });
  for (let i = 0; i < MISTAKE_KINDS.length * 2; i++) {
    assert.deepEqual(generateCase(again, SEED, i), generateCase(corpus, SEED, i), `case ${i}`);
  }
  const other = generateCase(corpus, SEED + 1, 0);
  const first = generateCase(corpus, SEED, 0);
  assert.notDeepEqual(other, first, "another seed gives another case");
});

test("the seeded generator stays in range", () => {
  fc.assert(
    fc.property(fc.integer(), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 50 }), (seed, lo, span) => {
      const rng = createRng(seed);
      for (let i = 0; i < 20; i++) {
        const n = rng.int(lo, lo + span);
        if (n < lo || n > lo + span || !Number.isInteger(n)) return false;
      }
      return true;
    }),
  );
});

test("every kind gets its share of cases", () => {
  for (const kind of MISTAKE_KINDS) assert.equal(casesOf(kind).length, PER_KIND, kind);
});

/** What each mistake function claims, checked on generated cases. */
const claims: { kind: MistakeKind; check: (c: BenchCase) => void }[] = [
  {
    kind: "none",
    check: (c) => assert.deepEqual(regionOld(c.view), fileRegion(c)),
  },
  {
    kind: "reindent",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.equal(old.length, real.length);
      for (const [i, line] of old.entries()) assert.equal(line.trimStart(), real[i]?.trimStart());
      assert.notDeepEqual(old, real, "only leading whitespace differs, and it does differ");
    },
  },
  {
    kind: "trailing-whitespace",
    check: (c) => {
      const old = regionOld(c.view);
      assert.deepEqual(
        old.map((l) => l.trimEnd()),
        fileRegion(c).map((l) => l.trimEnd()),
      );
      assert.notDeepEqual(old, fileRegion(c));
    },
  },
  {
    kind: "inner-spaces",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      old.forEach((line, i) => {
        const r = real[i] ?? "";
        assert.equal(line.length - line.trimStart().length, r.length - r.trimStart().length, "indentation kept");
        assert.equal(squash(line), squash(r));
      });
      assert.notDeepEqual(old, real);
    },
  },
  {
    kind: "blank-line",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.equal(Math.abs(old.length - real.length), 1);
      assert.deepEqual(
        old.filter((l) => l.trim() !== ""),
        real.filter((l) => l.trim() !== ""),
      );
    },
  },
  {
    kind: "over-escaped",
    check: (c) => {
      const rendered = renderCase(c, "str_replace");
      assert.ok(!rendered.oldString.includes("\n"), "line breaks are written as \\n");
      assert.equal(JSON.parse(`"${rendered.oldString}"`), fileRegion(c).join("\n"), "one unescape gives the text back");
    },
  },
  {
    kind: "smart-punctuation",
    check: (c) => {
      const old = regionOld(c.view);
      assert.ok(old.some((l) => /[\u2018\u2019\u201c\u201d\u2013\u2014]/.test(l)));
      assert.deepEqual(old.map(uncurl), fileRegion(c).map(uncurl));
    },
  },
  {
    kind: "line-numbers",
    check: (c) => {
      const old = regionOld(c.view);
      const stripped = old.map((l) => l.replace(/^\s*\d+(?: \| |\u2192|\t)/, ""));
      assert.deepEqual(stripped, fileRegion(c), "prefixes strip back to the original");
      const numbers = old.map((l) => Number(/^\s*(\d+)/.exec(l)?.[1]));
      assert.deepEqual(
        numbers,
        old.map((_, i) => c.startLine + i),
        "the numbers are the real line numbers",
      );
    },
  },
  {
    kind: "elided-middle",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      const at = old.findIndex((l) => l.includes("... existing"));
      assert.ok(at > 0 && at < old.length - 1, "the marker sits between quoted lines");
      assert.deepEqual(old.slice(0, at), real.slice(0, at));
      const after = old.length - at - 1;
      assert.deepEqual(old.slice(at + 1), real.slice(real.length - after));
      assert.ok(real.length >= 8 && real.length - old.length >= 2, "at least three lines elided");
    },
  },
  {
    kind: "misremembered-token",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.equal(old.length, real.length);
      const differing = old.map((l, i) => [l, real[i] ?? ""] as const).filter(([a, b]) => a !== b);
      assert.equal(differing.length, 1, "one line differs");
      const [a, b] = differing[0] as readonly [string, string];
      const ta = a.split(/([A-Za-z_$][\w$]*)/);
      const tb = b.split(/([A-Za-z_$][\w$]*)/);
      assert.equal(ta.length, tb.length);
      assert.equal(ta.filter((t, i) => t !== tb[i]).length, 1, "one token differs");
    },
  },
  {
    kind: "file-changed",
    check: (c) => {
      const original = corpus.load(join(corpus.root, c.file));
      assert.ok(original);
      const before = original.lines;
      const after = c.content.split("\n");
      assert.equal(after.length, before.length);
      const changed = after.map((l, i) => (l === before[i] ? -1 : i)).filter((i) => i >= 0);
      assert.equal(changed.length, 1, "one line changed");
      const line = (changed[0] as number) + 1;
      assert.ok(line >= c.startLine - 2 && line <= c.endLine + 2, "near the target");
      assert.deepEqual(regionOld(c.view), before.slice(c.startLine - 1, c.endLine), "the model quotes its stale view");
      assert.ok(c.expected?.split("\n").includes(after[line - 1] ?? ""), "the concurrent change survives");
    },
  },
  {
    kind: "crlf-file",
    check: (c) => {
      assert.ok(c.content.includes("\r\n"));
      assert.ok(!/[^\r]\n/.test(c.content), "CRLF everywhere");
      assert.ok(c.expected !== undefined && !/[^\r]\n/.test(c.expected), "expected keeps CRLF");
      assert.ok(!regionOld(c.view).join("\n").includes("\r"), "the edit is LF");
    },
  },
  {
    kind: "wrong-line-hint",
    check: (c) => {
      assert.ok(c.hint !== undefined);
      const off = Math.abs(c.hint - c.startLine);
      assert.ok(off >= 5 && off <= 60, `off by ${off}`);
      assert.deepEqual(regionOld(c.view), fileRegion(c));
    },
  },
  {
    kind: "reindent-find",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.deepEqual(
        old.map((l) => l.trimStart()),
        real.map((l) => l.trimStart()),
      );
      assert.notDeepEqual(old, real, "the find text is re-indented");
      const replacement = regionNew(c.view);
      assert.deepEqual(expectedRegion(c, replacement.length), replacement, "the replacement is already in the file's indentation");
    },
  },
  {
    kind: "reindent-replace",
    check: (c) => {
      assert.deepEqual(regionOld(c.view), fileRegion(c), "the find text is exact");
      const replacement = regionNew(c.view);
      assert.deepEqual(expectedRegion(c, replacement.length), replacement, "the replacement is taken as written");
      const added = c.view.filter((l) => l.role === "add");
      assert.ok(added.length > 0 && added.every((l) => l.touched), `case ${c.index}: added lines, each kept in a hunk`);
    },
  },
  {
    kind: "inconsistent-indent",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.deepEqual(
        old.map((l) => l.trimStart()),
        real.map((l) => l.trimStart()),
      );
      assert.notDeepEqual(old, real);
      const written = c.view.map((l) => (l.role === "add" ? l.new : l.old)).filter((t) => t.trim() !== "");
      assert.ok(written.every((t) => /^ *$/.test(lead(t))), "the model indents with spaces");
      const shallowest = Math.min(...written.map((t) => lead(t).length));
      const half = /base (\d+), step (\d+)/.exec(c.note);
      const kept = /outer level kept at (\d+), next at (\d+), step (\d+)/.exec(c.note);
      if (half) {
        const [base, step] = [Number(half[1]), Number(half[2])];
        assert.ok(base % step !== 0, "the base is half a step off");
        // The shallowest line is at the model's base (plus any alignment spaces the file had there).
        assert.ok(shallowest >= base && shallowest < base + step, `${shallowest} vs base ${base}`);
      } else {
        assert.ok(kept, c.note);
        const [outer, next, step] = [Number(kept[1]), Number(kept[2]), Number(kept[3])];
        assert.equal(next - outer, step / 2, "the first nested level is half a step in");
        // The outermost quoted level is where the file has it (context further out keeps its own).
        const quotedShallowest = Math.min(...old.filter((l) => l.trim() !== "").map((l) => lead(l).length));
        assert.ok(quotedShallowest >= outer && quotedShallowest < outer + step, `${quotedShallowest} vs outer ${outer}`);
      }
      assert.ok(new Set(old.filter((l) => l.trim() !== "").map((l) => lead(l).length)).size >= 2, "the find text shows two levels");
      // The model's indentation grows with the file's: a function of it, never reversed.
      const pairs = old.map((l, i) => [lead(real[i] ?? "").length, lead(l).length] as const).filter((_, i) => old[i]?.trim() !== "");
      for (const [a, ma] of pairs) for (const [b, mb] of pairs) if (a < b) assert.ok(ma < mb, `${a}->${ma}, ${b}->${mb}`);
    },
  },
  {
    kind: "blank-forgotten-find",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.equal(real.length - old.length, 1, "one line missing from the find text");
      assert.deepEqual(
        old,
        real.filter((_, i) => i !== real.findIndex((l, k) => l !== old[k])),
        "the missing line is a blank one",
      );
      assert.equal(real.find((l, k) => l !== old[k])?.trim(), "");
      const replacement = regionNew(c.view);
      assert.deepEqual(expectedRegion(c, replacement.length), replacement, "the replacement keeps the blank line once");
    },
  },
  {
    kind: "elided-replace",
    check: (c) => {
      const old = regionOld(c.view);
      assert.deepEqual(old, fileRegion(c), "the find text is exact and complete");
      assert.ok(!old.some((l) => l.includes("... existing")), `case ${c.index}: no marker in the find text`);
      assert.ok(c.view.every((l) => l.role === "ctx" || l.role === "del" || l.role === "add"), "the region is rewritten whole");
      const replacement = regionNew(c.view);
      const at = replacement.findIndex((l) => l.includes("... existing"));
      assert.ok(at > 0 && at < replacement.length - 1, "the marker sits between replacement lines");
      assert.equal(replacement.filter((l) => l.includes("... existing")).length, 1);
      const expected = expectedRegion(c, old.length + growth(c));
      const tail = replacement.length - at - 1;
      assert.deepEqual(expected.slice(0, at), replacement.slice(0, at));
      assert.deepEqual(expected.slice(expected.length - tail), replacement.slice(at + 1));
      const restored = expected.slice(at, expected.length - tail);
      assert.ok(restored.length >= 2 && containsRun(old, restored), "the marker stands for 2+ lines of the find text");
      assert.ok(!c.expected?.includes("... existing"), "the marker is never expected in the file");
      for (const anchor of [replacement[at - 1], replacement[at + 1]]) {
        assert.equal(old.filter((l) => l === anchor).length, 1, `anchor "${anchor}" once in the find text`);
      }
    },
  },
  {
    kind: "elided-before-change",
    check: (c) => {
      const old = regionOld(c.view);
      assert.deepEqual(old, fileRegion(c), "the find text is exact and complete");
      assert.ok(c.view.every((l) => l.role === "ctx" || l.role === "del" || l.role === "add"), "the region is rewritten whole");
      const replacement = regionNew(c.view);
      const at = replacement.findIndex((l) => l.includes("... existing"));
      assert.ok(at > 0, "a kept line before the marker");
      assert.equal(replacement.filter((l) => l.includes("... existing")).length, 1);
      assert.equal(old.filter((l) => l === replacement[at - 1]).length, 1, "the line before the marker is once in the find text");
      const expected = expectedRegion(c, old.length + growth(c));
      assert.deepEqual(expected.slice(0, at), replacement.slice(0, at));
      // The marker stands for 2+ kept lines; a line of the edit (removed or added) comes right after them.
      const tail = replacement.length - at - 1;
      const restored = expected.slice(at, expected.length - tail);
      assert.ok(restored.length >= 2 && containsRun(old, restored), "the marker stands for 2+ lines of the find text");
      assert.ok(!c.expected?.includes("... existing"), "the marker is never expected in the file");
    },
  },
  {
    kind: "elided-repeat",
    check: (c) => {
      const old = regionOld(c.view);
      const real = fileRegion(c);
      const at = old.findIndex((l) => l.includes("... existing"));
      assert.ok(at > 0 && at < old.length - 1, `case ${c.index}: the marker sits between quoted lines`);
      const before = old.slice(0, at);
      const after = old.slice(at + 1);
      assert.deepEqual(real.slice(0, at), before, "the part before the marker is exact at the region");
      assert.deepEqual(real.slice(real.length - after.length), after);
      const span = real.slice(at, real.length - after.length);
      assert.ok(containsRun(span.map(squash), before.map(squash)), "the part repeats, ignoring whitespace, inside the elided span");
      assert.ok(!containsRun(span, before), "the repeat is indented differently");
      assert.equal(c.content.split(before.join("\n")).length - 1, 1, "the part occurs once exactly");
    },
  },
  {
    kind: "smart-find",
    check: (c) => {
      const old = regionOld(c.view);
      assert.ok(old.some((l) => TYPOGRAPHIC.test(l)), `case ${c.index}: typographic find text`);
      assert.deepEqual(old.map(uncurl), fileRegion(c).map(uncurl));
      const replacement = regionNew(c.view);
      assert.deepEqual(expectedRegion(c, replacement.length), replacement, "the replacement is written as the file has it");
    },
  },
  {
    kind: "smart-literal",
    check: (c) => {
      assert.deepEqual(regionOld(c.view).map(uncurl), fileRegion(c).map(uncurl));
      const added = c.view.filter((l) => l.role === "add").map((l) => l.new);
      assert.ok(
        added.some((l) => TYPOGRAPHIC.test(l)),
        "an added line has typed typographic characters",
      );
      const expected = c.expected?.split("\n") ?? [];
      for (const line of added) assert.ok(expected.includes(line), `added line kept as typed: ${line}`);
    },
  },
  {
    kind: "dup-hinted",
    check: (c) => {
      assert.equal(c.hint, c.startLine, "the hint names the region");
      assert.ok(c.hintDecides, `case ${c.index}: the hint decides`);
      assert.deepEqual(regionOld(c.view), fileRegion(c));
      assert.equal(c.content.split(regionOld(c.view).join("\n")).length - 1, 2, "two exact places");
      assert.equal(expectedFor(c, "fudiff"), undefined, "a diff without a hint must be refused");
      assert.equal(expectedFor(c, "udiff"), c.expected);
      assert.equal(expectedFor(c, "str_replace"), c.expected);
      const before = c.content.split("\n");
      const after = (c.expected ?? "").split("\n");
      const first = after.findIndex((l, i) => l !== before[i]);
      assert.ok(first >= c.startLine - 1 && first <= c.endLine, `the edit is at the hinted place (line ${first + 1})`);
    },
  },
  {
    kind: "foreign-minus",
    check: (c) => {
      assert.equal(c.expected, undefined);
      const present = new Set(c.content.split("\n").map(squash));
      const removed = c.view.filter((l) => l.role === "del");
      assert.ok(removed.some((l) => !present.has(squash(l.old))), "a removed line exists nowhere");
      for (const l of removed) if (!present.has(squash(l.old))) assert.ok(l.touched, `foreign line "${l.old}" is kept in a hunk`);
      for (const l of c.view.filter((v) => v.role === "keep" || v.role === "ctx")) {
        assert.ok(present.has(squash(l.old)), `kept line "${l.old}" is real`);
      }
    },
  },
  {
    kind: "absent",
    check: (c) => {
      assert.equal(c.expected, undefined);
      const present = new Set(c.content.split("\n").map(squash));
      for (const line of c.view.filter((l) => l.role !== "add")) {
        assert.ok(!present.has(squash(line.old)), `"${line.old}" is absent even ignoring whitespace`);
      }
    },
  },
  {
    kind: "two-places",
    check: (c) => {
      assert.equal(c.expected, undefined);
      assert.equal(c.hint, undefined);
      const text = regionOld(c.view).join("\n");
      let count = 0;
      for (let at = c.content.indexOf(text); at >= 0; at = c.content.indexOf(text, at + 1)) count++;
      assert.equal(count, 2, "two exact occurrences");
    },
  },
  {
    kind: "middle-nowhere",
    check: (c) => {
      assert.equal(c.expected, undefined);
      const old = regionOld(c.view);
      const real = fileRegion(c);
      assert.ok(old.length >= 5);
      assert.equal(old[0], real[0]);
      assert.equal(old[old.length - 1], real[real.length - 1]);
      const present = new Set(c.content.split("\n").map(squash));
      for (const line of old.slice(1, -1)) assert.ok(!present.has(squash(line)), `"${line}" exists nowhere`);
    },
  },
  {
    kind: "escaped-find",
    check: (c) => {
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
      const r = renderCase(c, "str_replace");
      assert.ok(!r.oldString.includes("\n"), "the find text is one line");
      assert.equal(JSON.parse(`"${r.oldString}"`), fileRegion(c).join("\n"), "one unescape gives the file's text back");
      assert.equal(r.newString, regionNew(c.view).join("\n"), "the replacement is plain");
    },
  },
  {
    kind: "escaped-replace",
    check: (c) => {
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
      const r = renderCase(c, "search_replace");
      assert.equal(r.oldString, fileRegion(c).join("\n"), "the find text is exact");
      assert.ok(regionNew(c.view).length >= 2 && !r.newString.includes("\n"), "a replacement of several lines written as one");
      assert.equal(JSON.parse(`"${r.newString}"`), regionNew(c.view).join("\n"));
    },
  },
  {
    kind: "numbers-replace",
    check: (c) => {
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
      const r = renderCase(c, "str_replace");
      assert.equal(r.oldString, fileRegion(c).join("\n"), "the find text is exact");
      const numbers = r.newString.split("\n").map((l) => Number(/^\s*(\d+)/.exec(l)?.[1]));
      assert.deepEqual(numbers, numbers.map((_, k) => c.startLine + k), "numbered from the region's first line");
    },
  },
  {
    kind: "final-break",
    check: (c) => {
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
      const r = renderCase(c, "str_replace");
      assert.ok(r.oldString.endsWith("\n") && !r.newString.endsWith("\n"), "the find text ends with a line break, the replacement not");
      assert.ok(c.content.includes(r.oldString), "the find text is the file's, its break included");
    },
  },
  {
    kind: "replace-whitespace",
    check: (c) => {
      const r = renderCase(c, "str_replace");
      assert.equal(r.oldString, fileRegion(c).join("\n"), "the find text is exact");
      const fileTabs = fileRegion(c).some((l) => l.startsWith("\t"));
      const written = regionNew(c.view).filter((l) => /^[ \t]/.test(l));
      assert.ok(written.some((l) => (fileTabs ? l.startsWith(" ") : l.startsWith("\t"))), "a replacement line in the other whitespace");
    },
  },
  {
    kind: "replace-overlap",
    check: (c) => {
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
      const r = renderCase(c, "str_replace");
      assert.equal(r.oldString, fileRegion(c).join("\n"), "the find text is exact");
      const lines = c.content.split("\n");
      const { before = [], after = [] } = c.overlap ?? {};
      assert.equal(before.length + after.length > 0, true);
      assert.deepEqual(before, lines.slice(c.startLine - 1 - before.length, c.startLine - 1), "the lines just before the region");
      assert.deepEqual(after, lines.slice(c.endLine, c.endLine + after.length), "the lines just after the region");
      assert.ok(r.newString.startsWith(before.join("\n")) && r.newString.endsWith(after.join("\n")));
    },
  },
  {
    kind: "resent",
    check: (c) => {
      const original = corpus.load(join(corpus.root, c.file));
      assert.ok(original);
      const old = regionOld(c.view);
      assert.deepEqual(old, original.lines.slice(c.startLine - 1, c.startLine - 1 + old.length), "the edit is exact against the file before it");
      assert.deepEqual(regionNew(c.view), fileRegion(c), "the file holds the edit already");
      assert.notDeepEqual(regionNew(c.view), old, "the edit changes something");
      assert.equal(c.expected, c.content, "nothing changes");
      assert.notEqual(c.editKind, "delete");
    },
  },
  {
    kind: "stale-history",
    check: (c) => {
      const original = corpus.load(join(corpus.root, c.file));
      assert.equal(c.history, original?.text, "the history is the version the model read");
      const read = (c.history ?? "").split("\n");
      const now = c.content.split("\n");
      const old = regionOld(c.view);
      const at = c.diffStartLine - 1;
      assert.deepEqual(old, read.slice(at, at + old.length), "the edit is exact against that version");
      assert.notEqual(c.content, c.history);
      if (c.expected === undefined) {
        const changed = now.map((l, i) => (l === read[i] ? -1 : i)).filter((i) => i >= 0);
        assert.equal(now.length, read.length);
        assert.equal(changed.length, 1, "one line changed");
        assert.ok((changed[0] as number) >= at && (changed[0] as number) < at + old.length, "inside the region");
        assert.ok(!c.content.includes(old.join("\n")), "the quoted text is gone from the file");
      } else {
        assert.deepEqual(fileRegion(c), old, "the region is unchanged in the file");
        const window = read.slice(Math.max(0, at - 5), at + old.length + 5).join("\n");
        assert.ok(c.content.includes(window), "the file changed 6+ lines from the region only");
        const edited = now.slice();
        edited.splice(c.startLine - 1, old.length, ...regionNew(c.view));
        assert.equal(c.expected, edited.join("\n"), "the edit carried onto the current file");
      }
    },
  },
  {
    kind: "blank-forgotten-edge",
    check: (c) => {
      const old = regionOld(c.view);
      assert.ok(!c.content.includes(old.join("\n")), "the find text is not exact");
      assert.deepEqual(old.filter((l) => l.trim() !== ""), fileRegion(c).filter((l) => l.trim() !== ""), "only blank lines are missing");
      assert.ok(fileRegion(c).filter((l) => l.trim() === "").length > old.filter((l) => l.trim() === "").length);
      assert.ok(c.expected !== undefined);
    },
  },
  {
    kind: "elided-replace-anchored",
    check: (c) => {
      assert.deepEqual(regionOld(c.view), fileRegion(c), "the find text is exact");
      const markers = regionNew(c.view).filter((l) => /\.\.\./.test(l) && !regionOld(c.view).includes(l));
      assert.equal(markers.length, 1, "one elision marker in the replacement");
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
      assert.ok(c.expected !== undefined && !c.expected.includes((markers[0] as string).trim()), "the marker is never written");
    },
  },
  {
    kind: "compound",
    check: (c) => {
      assert.match(c.note, /^compound: /);
      assert.notDeepEqual(regionOld(c.view), fileRegion(c), "the find text is not exact");
      assert.ok(c.expected !== undefined);
    },
  },
  {
    kind: "reindent-whole",
    check: (c) => {
      assert.deepEqual(regionOld(c.view), fileRegion(c), "the find text is exact");
      const repl = regionNew(c.view);
      if (c.wholeShift) {
        assert.ok(!(c.expected ?? "").includes(repl.join("\n")), "judged by the intended edit, not the shifted text");
      } else {
        assert.ok(fileRegion(c).includes(repl.find((l) => l.trim() !== "") ?? ""), "the first line kept where it is");
        assert.ok((c.expected ?? "").includes(repl.join("\n")), "the nesting written as sent");
      }
    },
  },
  {
    kind: "v4a-two-in-scope",
    check: (c) => {
      assert.equal(c.expected, undefined);
      assert.deepEqual(c.onlyFormats, ["v4a"]);
      const lines = c.content.split("\n");
      assert.equal(lines.filter((l) => l.trim() === c.anchor).length, 1, "the anchor names one line");
      const old = c.view.filter((l) => l.role !== "add").map((l) => l.old).join("\n");
      assert.equal(c.content.split(old).length - 1, 2, "the old side stands twice");
    },
  },
  {
    kind: "final-break-slip",
    check: (c) => {
      assert.equal(c.escaped, "find");
      assert.equal(c.finalBreak, "find");
      const old = regionOld(c.view);
      assert.equal(old.length, 1, "one line");
      assert.equal(old[0], (fileRegion(c)[0] ?? "").trimStart(), "quoted from after its indentation");
      assert.notEqual(old[0], fileRegion(c)[0]);
    },
  },
  ...(["replace-whitespace-slip", "numbers-replace-slip", "escaped-replace-slip"] as const).map((kind) => ({
    kind,
    check: (c: BenchCase) => {
      const old = regionOld(c.view);
      assert.ok(!c.content.includes(old.join("\n")), "the find text is not exact");
      assert.deepEqual(
        old.map((l) => l.trimEnd()),
        fileRegion(c).map((l) => l.trimEnd()),
        "only trailing blank space differs",
      );
      assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"]);
    },
  })),
];

for (const claim of claims) {
  test(`mistake ${claim.kind} produces what it claims`, () => {
    for (const c of casesOf(claim.kind)) claim.check(c);
  });
}

test("every kind's claims are checked", () => {
  assert.deepEqual(claims.map((c) => c.kind).sort(), [...MISTAKE_KINDS].sort());
});

test("the exact-only applier is correct exactly on the cases whose text is exact", () => {
  const altered: MistakeKind[] = [
    "reindent",
    "trailing-whitespace",
    "inner-spaces",
    "blank-line",
    "over-escaped",
    "smart-punctuation",
    "line-numbers",
    "elided-middle",
    "misremembered-token",
  ];
  altered.push("reindent-find", "inconsistent-indent", "blank-forgotten-find", "elided-repeat", "smart-find");
  // v4a runs only the kinds that name it (runsIn).
  for (const format of DEFAULT_CASE_FORMATS) {
    for (const c of [...casesOf("none"), ...casesOf("reindent-replace")]) {
      const outcome = runApplier(exactApplier, renderCase(c, format), c.content);
      assert.equal(judge(c.expected, outcome).verdict, "correct", `${format} case ${c.index}`);
    }
    // A literal applier writes the marker of a replacement-only elision into the file.
    for (const c of [...casesOf("elided-replace"), ...casesOf("elided-before-change")]) {
      const outcome = runApplier(exactApplier, renderCase(c, format), c.content);
      assert.equal(judge(c.expected, outcome).verdict, "wrong", `${format} case ${c.index}`);
      assert.match(outcome.content ?? "", /\.\.\. existing/);
    }
    // One string over-escaped or numbered: the exact applier misses the escaped find text and writes the replacement as it came. Diffs do not run these kinds.
    const twoStrings = format === "str_replace" || format === "search_replace";
    for (const [kind, verdict] of [
      ["escaped-find", "refused"],
      ["escaped-replace", "wrong"],
      ["numbers-replace", "wrong"],
      ["final-break", "wrong"],
    ] as const) {
      for (const c of casesOf(kind)) {
        if (!twoStrings) {
          assert.deepEqual(c.onlyFormats, ["str_replace", "search_replace"], "not run as a diff");
          continue;
        }
        const outcome = runApplier(exactApplier, renderCase(c, format), c.content);
        assert.equal(judge(c.expected, outcome).verdict, verdict, `${format} ${kind} case ${c.index}`);
      }
    }
    if (twoStrings) {
      for (const c of [...casesOf("replace-whitespace"), ...casesOf("replace-overlap")]) {
        const outcome = runApplier(exactApplier, renderCase(c, format), c.content);
        assert.equal(judge(c.expected, outcome).verdict, "wrong", `${format} ${c.kind} case ${c.index}`);
      }
    }
    for (const c of casesOf("dup-hinted")) {
      const outcome = runApplier(exactApplier, renderCase(c, format), c.content);
      const verdict = judge(expectedFor(c, format), outcome).verdict;
      assert.equal(verdict, format === "fudiff" ? "correct-refusal" : "refused", `${format} case ${c.index}`);
    }
    for (const kind of altered) {
      for (const c of casesOf(kind)) {
        const rendered = renderCase(c, format);
        const outcome = runApplier(exactApplier, rendered, c.content);
        // A str_replace find text dedented by whole steps can still stand inside the deeper line, and the
        // replacement dedented alike lands right: the corpus (node_modules) decides whether a case is such.
        const luckySubstring = kind === "reindent" && rendered.find !== undefined && rendered.find !== "" && c.content.includes(rendered.find);
        assert.equal(judge(c.expected, outcome).verdict, luckySubstring ? "correct" : "refused", `${format} ${kind} case ${c.index}`);
      }
    }
    for (const kind of ["absent", "two-places", "middle-nowhere", "foreign-minus"] as const) {
      for (const c of casesOf(kind)) {
        const outcome = runApplier(exactApplier, renderCase(c, format), c.content);
        assert.equal(judge(c.expected, outcome).verdict, "correct-refusal", `${format} ${kind}`);
      }
    }
  }
});

const renderings: { name: string; check: (c: BenchCase) => void }[] = [
  {
    name: "SEARCH/REPLACE carries :start_line: exactly when there is a hint",
    check: (c) => {
      const r = renderCase(c, "search_replace");
      assert.equal(r.text.includes(":start_line:"), c.hint !== undefined);
      assert.ok(r.text.startsWith("<<<<<<< SEARCH\n") && r.text.endsWith(">>>>>>> REPLACE\n"));
    },
  },
  {
    name: "a numbered diff header counts its lines",
    check: (c) => {
      const r = renderCase(c, "udiff");
      const m = /@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(r.text);
      assert.ok(m);
      const body = r.text.split("\n").slice(3, -1);
      assert.equal(body.filter((l) => !l.startsWith("+")).length, Number(m[2]));
      assert.equal(body.filter((l) => !l.startsWith("-")).length, Number(m[4]));
    },
  },
  {
    name: "a diff hunk has 3 context lines around the change unless a mistake needs more",
    check: (c) => {
      const body = renderCase(c, "udiff").text.split("\n").slice(3, -1);
      const firstChange = body.findIndex((l) => l[0] === "-" || l[0] === "+");
      const lastChange = body.length - 1 - [...body].reverse().findIndex((l) => l[0] === "-" || l[0] === "+");
      if (c.kind === "none" || c.kind === "wrong-line-hint" || c.kind === "crlf-file") {
        assert.ok(firstChange <= 3 && body.length - 1 - lastChange <= 3, `case ${c.index}: ${body.length} lines`);
      }
      const shown = (t: string): string => (c.escaped === "both" ? overEscape(t) : t);
      for (const line of c.view.filter((l) => l.touched)) {
        assert.ok(
          body.some((b) => b.slice(1) === shown(line.old) || b.slice(1) === shown(line.new)),
          `touched line in hunk: ${line.old}`,
        );
      }
    },
  },
  {
    name: "a fuzzy diff has a bare @@ @@ header and the same body",
    check: (c) => {
      const fuzzy = renderCase(c, "fudiff").text.split("\n");
      const numbered = renderCase(c, "udiff").text.split("\n");
      assert.equal(fuzzy[2], "@@ @@");
      assert.deepEqual(fuzzy.slice(3), numbered.slice(3));
    },
  },
];

for (const r of renderings) {
  test(r.name, () => {
    for (const list of casesByKind.values()) for (const c of list) r.check(c);
  });
}

test("over-escaping is one level of JSON string escaping", () => {
  // Characters a source line holds that escaping must handle: backslashes, quotes, tabs, line breaks.
  const text = fc.string({ unit: fc.constantFrom("a", " ", "\\", '"', "\t", "\n", "\u00e9", "'") });
  fc.assert(fc.property(text, (s) => JSON.parse(`"${overEscape(s)}"`) === s));
});

const verdicts: { name: string; expected: string | undefined; status: "applied" | "refused" | "crashed"; content?: string; verdict: string; ws: boolean }[] = [
  { name: "equal output is correct", expected: "a\n  b", status: "applied", content: "a\n  b", verdict: "correct", ws: true },
  { name: "indentation-only difference is wrong but ws-correct", expected: "a\n  b", status: "applied", content: "a\n\tb", verdict: "wrong", ws: true },
  { name: "other output is wrong", expected: "a\nb", status: "applied", content: "a\nc", verdict: "wrong", ws: false },
  { name: "refusing a positive case is refused", expected: "a", status: "refused", verdict: "refused", ws: false },
  { name: "applying a negative case is wrong", expected: undefined, status: "applied", content: "x", verdict: "wrong", ws: false },
  { name: "refusing a negative case is a correct refusal", expected: undefined, status: "refused", verdict: "correct-refusal", ws: false },
  { name: "a crash is its own verdict", expected: undefined, status: "crashed", verdict: "crashed", ws: false },
];

for (const v of verdicts) {
  test(`judge: ${v.name}`, () => {
    const got = judge(v.expected, { status: v.status, content: v.content, ms: 0 });
    assert.equal(got.verdict, v.verdict);
    assert.equal(got.wsCorrect, v.ws);
  });
}

test("appliers never throw out of the harness", async () => {
  const throwing: Applier = {
    name: "throws",
    formats: FORMATS,
    apply: () => {
      throw new TypeError("boom");
    },
  };
  const c = casesOf("none")[0] as BenchCase;
  const crashed = runApplier(throwing, renderCase(c, "str_replace"), c.content);
  assert.equal(crashed.status, "crashed");
  assert.match(crashed.message ?? "", /boom/);

  const { appliers } = await loadAppliers();
  try {
    const garbage = ["", "@@ @@\n-x\n+y\n", "<<<<<<< SEARCH\n=======\n", "@@ -999,3 +999,3 @@\n nope\n", "\u0000\r\n\\"];
    for (const applier of appliers) {
      for (const format of applier.formats) {
        for (const text of garbage) {
          const edit = { format, text, oldString: text, newString: "z", startLine: 3, find: text, replace: "z" };
          const outcome = runApplier(applier, edit, "a\nb\nc\n");
          assert.ok(["applied", "refused", "crashed"].includes(outcome.status));
        }
        for (const kind of ["none", "absent", "over-escaped"] as const) {
          const sample = casesOf(kind)[0] as BenchCase;
          const outcome = runApplier(applier, renderCase(sample, format), sample.content);
          assert.notEqual(outcome.status, "crashed", `${applier.name} ${format} ${kind}: ${outcome.message}`);
        }
      }
    }
  } finally {
    for (const a of appliers) a.dispose?.();
  }
});

test("applyExactly refuses absent and repeated text", () => {
  assert.equal(applyExactly("a b a", "a", "x").status, "refused");
  assert.equal(applyExactly("a b", "c", "x").status, "refused");
  assert.deepEqual(applyExactly("a b", "b", "$&$1"), { status: "applied", content: "a $&$1" });
});

test("the chart has a bar segment per outcome and is self-contained SVG", () => {
  const results: CaseResult[] = [
    { index: 0, kind: "none", format: "str_replace", applier: "exact", verdict: "correct", wsCorrect: true, ms: 1 },
    { index: 1, kind: "reindent", format: "str_replace", applier: "exact", verdict: "refused", wsCorrect: false, ms: 1 },
    { index: 2, kind: "absent", format: "str_replace", applier: "exact", verdict: "wrong", wsCorrect: false, ms: 1 },
  ];
  const appliers = { str_replace: ["exact"] };
  const report: AccuracyReport = {
    seed: 1,
    cases: 3,
    corpus: { root: "x", files: 1 },
    formats: ["str_replace"],
    appliers,
    notes: [],
    stats: buildStats(results, appliers, ["str_replace"]),
    defaultWrong: [],
    elapsedMs: 1,
  };
  const svg = renderSvg(report, "exact");
  assert.ok(svg.startsWith("<svg xmlns=") && svg.trimEnd().endsWith("</svg>"));
  assert.match(svg, /none: correct 1 of 1/);
  assert.match(svg, /reindent: refused 1 of 1/);
  assert.match(svg, /absent: wrong 1 of 1/);
  assert.ok(!/<script|href=/.test(svg));
});

// Running the documented bench must not dirty the checkout: outputs go to the git-ignored
// bench/results/ unless a path is given.
const outputCases: { name: string; options: { json?: string; svg?: string }; written: string[]; absent: string[] }[] = [
  {
    name: "by default into bench/results/, never docs/",
    options: {},
    written: ["bench/results/accuracy.json", "bench/results/accuracy.svg"],
    absent: ["docs/accuracy.svg"],
  },
  {
    name: "the chart where --out says",
    options: { svg: "docs/accuracy.svg", json: "out/a.json" },
    written: ["docs/accuracy.svg", "out/a.json"],
    absent: ["bench/results/accuracy.svg"],
  },
];
for (const c of outputCases) {
  test(`bench:accuracy writes its outputs ${c.name}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "fuzzpatch-bench-"));
    try {
      symlinkSync(join(projectRoot, "node_modules"), join(dir, "node_modules"));
      await runAccuracyBench({ ...c.options, cases: 2, formats: ["str_replace"], projectRoot: dir, log: () => {} });
      for (const file of c.written) assert.ok(existsSync(join(dir, file)), `${file} not written`);
      for (const file of c.absent) assert.ok(!existsSync(join(dir, file)), `${file} written`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("a result's own negative flag decides how it counts (a hint-only case without a hint)", () => {
  const results: CaseResult[] = [
    { index: 0, kind: "dup-hinted", format: "fudiff", applier: "x", verdict: "correct-refusal", wsCorrect: false, negative: true, ms: 1 },
    { index: 1, kind: "dup-hinted", format: "fudiff", applier: "x", verdict: "wrong", wsCorrect: false, negative: true, ms: 1 },
    { index: 2, kind: "elided-replace", format: "fudiff", applier: "x", verdict: "refused", wsCorrect: false, ms: 1 },
    { index: 3, kind: "reindent-find", format: "fudiff", applier: "x", verdict: "refused", wsCorrect: false, ms: 1 },
  ];
  const dup = aggregate(results, "fudiff", "x", "dup-hinted");
  assert.deepEqual([dup.positive, dup.negative, dup.correctRefusals, dup.wrongApplied], [0, 2, 1, 1]);
  const all = aggregate(results, "fudiff", "x", "all");
  assert.deepEqual([all.refused, all.acceptableRefusals], [2, 1], "only the elided-replace refusal is acceptable");
  const appliers = { fudiff: ["x"] };
  const markdown = renderMarkdown({
    seed: 1,
    cases: 4,
    corpus: { root: "x", files: 1 },
    formats: ["fudiff"],
    appliers,
    notes: [],
    stats: buildStats(results, appliers, ["fudiff"]),
    defaultWrong: [],
    elapsedMs: 1,
  });
  assert.match(markdown, /\| elided-replace \u2020 \|/);
  assert.match(markdown, /\| dup-hinted \u2021 \| 2 \| 1 \/ 1 \/ – \|/);
  assert.match(markdown, /\| foreign-minus \* \|/);
});

test("combined reports sum every seed's counts per format and kind", () => {
  const report = (seed: number, verdict: CaseResult["verdict"]): AccuracyReport => {
    const results: CaseResult[] = [
      { index: 0, kind: "none", format: "udiff", applier: "fuzzpatch", verdict, wsCorrect: true, ms: 1 },
      { index: 1, kind: "absent", format: "udiff", applier: "fuzzpatch", verdict: "correct-refusal", wsCorrect: false, ms: 1 },
    ];
    const appliers = { udiff: ["fuzzpatch"] };
    return {
      seed,
      cases: 2,
      corpus: { root: "x", files: 1 },
      formats: ["udiff"],
      appliers,
      notes: [],
      stats: buildStats(results, appliers, ["udiff"]),
      defaultWrong: [],
      elapsedMs: 1,
    };
  };
  const table = combineReports([report(1, "correct"), report(2, "wrong")]);
  assert.match(table, /4 cases over seeds 1, 2/);
  assert.match(table, /\| udiff \| 2 \| 1 \(50\.0%\) \| 1 \| 0 \(0\) \| 2 \| 2 \(100\.0%\) \| 0 \| 0 \|/);
  assert.match(table, /\| none \| 1 \/ 1 \/ 0 \|/);
  assert.match(table, /\| absent \* \| 2 \/ 0 \/ – \|/);
});
