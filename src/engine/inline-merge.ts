/**
 * The three-way merge inside one line the model changed: base = the line as
 * the find text has it, ours = the file's line, theirs = the model's new line.
 * Text the model copied from its find text takes the file's version (the
 * file's quotes, spacing, a token renamed since); text it typed anew is kept
 * as typed. Compared by tokens (words, whitespace runs, single punctuation
 * characters), so a quote is one unit and words are never cut.
 */
import { appendAll } from "../arrays.ts";
import { anchoredDiff } from "./anchored-diff.ts";
import { normalizePunctuation, removeWhitespace } from "../text/normalize.ts";

/** Base tokens [s, e) replaced by `text` (s === e: inserted before token s). */
interface Hunk {
  s: number;
  e: number;
  text: string[];
}

export type InlineMerge = { ok: true; text: string } | { ok: false };

const TOKEN = /[\p{L}\p{N}_$]+|\s+|[\s\S]/gu;
const WORD = /^[\p{L}\p{N}_$]/u;

/** A token as the alignment compares it: typographic punctuation as its ASCII form. */
const plain = (t: string): string => (WORD.test(t) ? t : normalizePunctuation(t));

function tokens(s: string): string[] {
  return s.match(TOKEN) ?? [];
}

/**
 * The hunks turning `base` into `other`. A single punctuation or whitespace
 * token left equal between two changes joins them: in `“Welcome”` ->
 * `"Welcome — it’s “great”"` the `”` kept between two insertions is the new
 * quote, not the old one, and one change is what the model made.
 */
function hunksOf(base: readonly string[], other: readonly string[]): Hunk[] {
  const raw: Hunk[] = [];
  let i = 0;
  let pending: Hunk | undefined;
  const equalRuns: { s: number; e: number; value: string[] }[] = [];
  let k = 0;
  // Words are paired first: a quote or a space never takes the place of a word.
  // Tokens are aligned by their plain form, so a typed quote pairs with the
  // quote it replaces (`‘🦄’` -> `'new ‘typed’ 🦄'`: the first `‘` is the
  // model's `'`, not its typed `‘`); a pair that differs is a change.
  for (const part of anchoredDiff(base.map(plain), other.map(plain), (t) => WORD.test(t))) {
    const count = part.count;
    if (part.removed || part.added) {
      pending ??= { s: i, e: i, text: [] };
      if (part.removed) {
        i += count;
        pending.e = i;
      } else {
        appendAll(pending.text, other.slice(k, k + count));
        k += count;
      }
      continue;
    }
    let run = i;
    for (let n = 0; n < count; n++, i++, k++) {
      if (base[i] === other[k]) continue;
      if (run < i) equalRuns.push({ s: run, e: i, value: base.slice(run, i) });
      if (pending && pending.e < i) {
        raw.push(pending);
        pending = undefined;
      }
      pending ??= { s: i, e: i, text: [] };
      pending.e = i + 1;
      pending.text.push(other[k] as string);
      run = i + 1;
    }
    if (run < i) {
      if (pending) raw.push(pending);
      pending = undefined;
      equalRuns.push({ s: run, e: i, value: base.slice(run, i) });
    }
  }
  if (pending) raw.push(pending);
  const out: Hunk[] = [];
  for (const h of raw) {
    const prev = out[out.length - 1];
    const between = prev ? equalRuns.find((r) => r.s === prev.e && r.e === h.s) : undefined;
    if (prev && between && between.value.length === 1 && !WORD.test(between.value[0] ?? "")) {
      appendAll(prev.text, between.value);
      appendAll(prev.text, h.text);
      prev.e = h.e;
    } else {
      out.push({ s: h.s, e: h.e, text: [...h.text] });
    }
  }
  return out;
}

/**
 * Two hunks of different sides touch the same base text. An insertion where
 * the other side's change starts touches it (both sides wrote something
 * before that token: `,WITHOUT` -> `, WITHOUT` and `, WITHOUTResult`); one
 * where a replacement ends does not (`“ready”` -> `"ready"` and `“ready”, 2`),
 * one where a deletion ends does (`text ` -> `text` and `text more`: the
 * insertion leans on the deleted space).
 */
function overlaps(a: Hunk, b: Hunk): boolean {
  // An insertion at the edge of the other side's change that this change also
  // writes there (`,x` -> `, x` and `y,x` -> `Y, x`) is one change made on both sides.
  if (a.s === a.e && b.s < b.e && sameEdge(a, b)) return true;
  if (b.s === b.e && a.s < a.e && sameEdge(b, a)) return true;
  if (a.s === a.e && b.s === b.e) return a.s === b.s;
  if (a.s === a.e) return b.s <= a.s && (a.s < b.e || (a.s === b.e && b.text.length === 0));
  if (b.s === b.e) return a.s <= b.s && (b.s < a.e || (b.s === a.e && a.text.length === 0));
  return a.s < b.e && b.s < a.e;
}

/** Insertion `ins` sits where `change` ends and `change` ends with the same text (or starts, where it starts). */
function sameEdge(ins: Hunk, change: Hunk): boolean {
  const text = ins.text.join("");
  if (text === "") return false;
  const written = change.text.join("");
  return (ins.s === change.e && written.endsWith(text)) || (ins.s === change.s && written.startsWith(text));
}

/** Base tokens [s, e) with one side's hunks inside that range applied. */
function sideText(base: readonly string[], hunks: readonly Hunk[], s: number, e: number): string {
  let out = "";
  let at = s;
  for (const h of hunks) {
    if (h.s < s || h.e > e) continue;
    out += base.slice(at, h.s).join("") + h.text.join("");
    at = h.e;
  }
  return out + base.slice(at, e).join("");
}

/** Noise a strategy tolerates: any whitespace, typographic punctuation. */
const loose = (s: string) => removeWhitespace(normalizePunctuation(s));

/**
 * Merges one changed line (bodies without indentation). Where the file and
 * the model changed the same text differently the file's change wins only if
 * it is noise the strategy tolerated (spacing, typographic punctuation): then
 * the model's text, as typed, is written. Otherwise it is a conflict.
 */
export function mergeInline(base: string, ours: string, theirs: string): InlineMerge {
  if (ours === base) return { ok: true, text: theirs };
  if (theirs === base) return { ok: true, text: ours };
  const b = tokens(base);
  const o = hunksOf(b, tokens(ours));
  const t = hunksOf(b, tokens(theirs));
  // Group hunks that touch one another, across sides, into spans of the base.
  const all = [...o.map((h) => ({ h, side: 0 })), ...t.map((h) => ({ h, side: 1 }))].sort((x, y) => x.h.s - y.h.s || x.h.e - y.h.e);
  const groups: { s: number; e: number; sides: Set<number>; text: string[] }[] = [];
  for (const { h, side } of all) {
    const g = groups[groups.length - 1];
    // A group's text only says whether it deletes (empty) or writes something.
    if (g && overlaps(g, h)) {
      g.e = Math.max(g.e, h.e);
      g.sides.add(side);
      g.text = [...g.text, ...h.text];
    } else {
      groups.push({ s: h.s, e: h.e, sides: new Set([side]), text: [...h.text] });
    }
  }
  let out = "";
  let at = 0;
  for (const g of groups) {
    out += b.slice(at, g.s).join("");
    const mine = sideText(b, o, g.s, g.e);
    const yours = sideText(b, t, g.s, g.e);
    if (!g.sides.has(1)) out += mine;
    else if (!g.sides.has(0) || mine === yours) out += yours;
    else if (loose(mine) === loose(b.slice(g.s, g.e).join(""))) out += yours;
    else return { ok: false };
    at = g.e;
  }
  return { ok: true, text: out + b.slice(at).join("") };
}
