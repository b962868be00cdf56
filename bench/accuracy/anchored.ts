/**
 * Accuracy of anchored edits (src/formats/anchored-*.ts) when the file
 * changed between the read and the edit. Each case cuts an edit from a real
 * file (the accuracy corpus), tags it from the version read, then changes
 * the file the way another writer does:
 *
 *   inserted-above    1-40 lines (copies of the file's own lines) added above the edit
 *   deleted-above     1-20 lines removed above the edit
 *   tagged-edited     a line the edit cites (from, to or at) changed: only a refusal is right
 *   changed-inside    a line inside a range the edit replaces changed: only a refusal is right
 *   duplicate-nearby  a copy of the edit's first line added 1-3 lines above or below it
 *   changed-below     lines changed below the edit: it applies as cited
 *   resent            the edit was applied already and is sent again: nothing may change
 *                     (ALREADY_APPLIED, or a refusal)
 *
 * and applies the edit with the version read as history (what the tools
 * have) and without (the CLI without --history). Right: the intended edit,
 * made on the lines the model read wherever they went. A refusal counts as
 * right only if it shows fresh tags. Wrong: anything else written.
 *
 * Without the version read two things cannot be seen, and are counted
 * apart: a copy of the tagged line added right above it ("either copy":
 * the edit lands on the copy, the two are the same text), and a change
 * inside a range, whose inner lines carry no cited tag.
 *
 * Usage: npm run bench:anchored [-- --cases N] [--seed S]
 */

import { applyLineEdits, EditError, type LineEdit, lineTag } from "../../src/index.ts";
import { findCorpus } from "./corpus.ts";
import { createRng, hashSeed, type Rng } from "./random.ts";

export const ANCHORED_KINDS = ["inserted-above", "deleted-above", "tagged-edited", "changed-inside", "duplicate-nearby", "changed-below", "resent"] as const;
export type AnchoredKind = (typeof ANCHORED_KINDS)[number];

export interface AnchoredCase {
  index: number;
  kind: AnchoredKind;
  file: string;
  read: string;
  now: string;
  edits: LineEdit[];
  /** The file after the intended edit; undefined: only a refusal is right. */
  expected?: string;
  /** The edit made on an identical copy added right above the cited line: what a reader without the version read cannot tell apart. */
  eitherCopy?: string;
}

export type AnchoredVerdict = "right" | "either-copy" | "refused" | "refused-without-tags" | "wrong" | "crashed";

interface Edit {
  op: LineEdit["op"];
  /** 0-based first and last line the edit names (equal for one line; an insertion's line). */
  first: number;
  last: number;
  lines: string[];
}

/** Lines of `lines` after edit `e`, applied at 0-based `at` (where its first line now is). */
function applyAt(lines: readonly string[], e: Edit, at: number): string[] {
  const out = [...lines];
  const count = e.last - e.first + 1;
  if (e.op === "insert_after") out.splice(at + 1, 0, ...e.lines);
  else if (e.op === "insert_before") out.splice(at, 0, ...e.lines);
  else out.splice(at, count, ...e.lines);
  return out;
}

function join(lines: readonly string[]): string {
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function tag(lines: readonly string[], i: number): string {
  return `${i + 1}#${lineTag(lines[i] as string)}`;
}

function asLineEdit(e: Edit, read: readonly string[]): LineEdit {
  if (e.op === "insert_after" || e.op === "insert_before") return { op: e.op, at: tag(read, e.first), lines: e.lines };
  const range = e.last > e.first ? { to: tag(read, e.last) } : {};
  if (e.op === "delete") return { op: "delete", from: tag(read, e.first), ...range };
  return { op: "replace", from: tag(read, e.first), ...range, lines: e.lines };
}

function randomEdit(rng: Rng, read: readonly string[]): Edit {
  const n = read.length;
  const op = rng.pick(["replace", "replace", "insert_after", "insert_before", "delete"] as const);
  const first = rng.int(Math.min(n - 1, 45), n - 1);
  const last = op === "insert_after" || op === "insert_before" ? first : Math.min(n - 1, first + (rng.chance(0.5) ? 0 : rng.int(1, 4)));
  const lines = op === "delete" ? [] : Array.from({ length: rng.int(1, 3) }, (_, k) => `${(read[first] as string).match(/^\s*/)?.[0] ?? ""}edited ${k} /* anchored bench */`);
  return { op, first, last, lines };
}

/** One case, or undefined when the drawn file cannot carry it (too short). */
export function generateAnchoredCase(seed: number, index: number, corpus = findCorpus()): AnchoredCase | undefined {
  const rng = createRng(hashSeed(seed, index, 0x7a));
  const kind = ANCHORED_KINDS[index % ANCHORED_KINDS.length] as AnchoredKind;
  let file = corpus.pick(rng);
  for (let attempt = 0; attempt < 20 && file.lines.length < 60; attempt++) file = corpus.pick(rng);
  const read = file.text.endsWith("\n") ? file.lines.slice(0, -1) : [...file.lines];
  if (read.length < 60) return undefined;
  const e = randomEdit(rng, read);
  const edits = [asLineEdit(e, read)];
  let now: string[];
  let expected: string[] | undefined;
  let eitherCopy: string | undefined;
  switch (kind) {
    case "inserted-above": {
      const at = rng.int(0, e.first);
      const added = Array.from({ length: rng.int(1, 40) }, () => rng.pick(read));
      now = [...read.slice(0, at), ...added, ...read.slice(at)];
      expected = applyAt(now, e, e.first + added.length);
      break;
    }
    case "deleted-above": {
      const count = rng.int(1, Math.min(20, e.first));
      const at = rng.int(0, e.first - count);
      now = [...read.slice(0, at), ...read.slice(at + count)];
      expected = applyAt(now, e, e.first - count);
      break;
    }
    case "tagged-edited": {
      const at = e.op === "insert_after" || e.op === "insert_before" || e.last === e.first || rng.chance(0.5) ? e.first : e.last;
      now = [...read];
      now[at] = `${read[at]} // changed by another writer`;
      expected = undefined;
      break;
    }
    case "changed-inside": {
      if (e.last - e.first < 2) return undefined;
      const at = rng.int(e.first + 1, e.last - 1);
      now = [...read];
      now[at] = `${read[at]} // changed by another writer`;
      expected = undefined;
      break;
    }
    case "duplicate-nearby": {
      const offset = rng.pick([-3, -2, -1, 1, 2, 3]);
      // Above: the copy goes in before line first+offset+1 (it lands `-offset` lines above); below: after the edit's lines.
      const at = offset < 0 ? Math.max(0, e.first + offset + 1) : e.last + offset;
      now = [...read.slice(0, at), read[e.first] as string, ...read.slice(at)];
      expected = applyAt(now, e, at <= e.first ? e.first + 1 : e.first);
      if (at === e.first) eitherCopy = join(applyAt(now, e, e.first));
      break;
    }
    case "resent": {
      now = applyAt(read, e, e.first);
      expected = now;
      break;
    }
    case "changed-below": {
      const at = rng.int(Math.min(read.length - 1, e.last + 1), read.length - 1);
      now = [...read];
      if (at > e.last) now[at] = `${read[at]} // changed below`;
      expected = applyAt(now, e, e.first);
      break;
    }
  }
  return { index, kind, file: file.path, read: join(read), now: join(now), edits, ...(expected && { expected: join(expected) }), ...(eitherCopy !== undefined && { eitherCopy }) };
}

const FRESH_TAG = /^\d+#[a-z]{3}:/m;

export function judgeAnchored(c: AnchoredCase, withHistory: boolean): AnchoredVerdict {
  try {
    const r = applyLineEdits(c.now, c.edits, withHistory ? { versions: [c.read] } : {});
    if (r.content === c.expected) return "right";
    return r.content === c.eitherCopy && !withHistory ? "either-copy" : "wrong";
  } catch (error) {
    if (!(error instanceof EditError)) return "crashed";
    if (c.kind === "resent" && error.code === "ALREADY_APPLIED") return "right";
    return FRESH_TAG.test(error.message) ? "refused" : "refused-without-tags";
  }
}

export interface AnchoredTally {
  kind: AnchoredKind;
  history: boolean;
  right: number;
  eitherCopy: number;
  refused: number;
  refusedWithoutTags: number;
  wrong: number;
  crashed: number;
  wrongCases: number[];
}

export function runAnchoredBench(cases: number, seed: number): AnchoredTally[] {
  const corpus = findCorpus();
  const tallies = new Map<string, AnchoredTally>();
  for (let i = 0; i < cases; i++) {
    const c = generateAnchoredCase(seed, i, corpus);
    if (!c) continue;
    for (const history of [true, false]) {
      const key = `${c.kind}/${history}`;
      const t = tallies.get(key) ?? { kind: c.kind, history, right: 0, eitherCopy: 0, refused: 0, refusedWithoutTags: 0, wrong: 0, crashed: 0, wrongCases: [] };
      const v = judgeAnchored(c, history);
      if (v === "right") t.right++;
      else if (v === "either-copy") t.eitherCopy++;
      else if (v === "refused") t.refused++;
      else if (v === "refused-without-tags") t.refusedWithoutTags++;
      else if (v === "crashed") t.crashed++;
      else {
        t.wrong++;
        t.wrongCases.push(i);
      }
      tallies.set(key, t);
    }
  }
  return [...tallies.values()].sort((a, b) => ANCHORED_KINDS.indexOf(a.kind) - ANCHORED_KINDS.indexOf(b.kind) || Number(b.history) - Number(a.history));
}

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cases = flag("--cases", 1000);
  const seed = flag("--seed", 1);
  const tallies = runAnchoredBench(cases, seed);
  console.log(`anchored edits, ${cases} cases, seed ${seed}`);
  console.log("| kind | version read known | right | either copy | refused with fresh tags | refused without | wrong | crashed |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const t of tallies) {
    console.log(`| ${t.kind} | ${t.history ? "yes" : "no"} | ${t.right} | ${t.eitherCopy} | ${t.refused} | ${t.refusedWithoutTags} | ${t.wrong}${t.wrongCases.length ? ` (cases ${t.wrongCases.slice(0, 5).join(", ")})` : ""} | ${t.crashed} |`);
  }
  const bad = (history: boolean) => tallies.filter((t) => t.history === history).reduce((s, t) => s + t.wrong + t.crashed, 0);
  console.log(`wrong or crashed with the version read: ${bad(true)}; without it: ${bad(false)}`);
  // The tools always have the version read: that is the figure that must stay 0.
  process.exitCode = bad(true) === 0 ? 0 : 1;
}
