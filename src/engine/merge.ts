/**
 * The line splice as a three-way merge. Base = the find text as the strategy
 * read it, ours = the file's matched region (paired with the base by the
 * strategy's alignment), theirs = the model's replacement (paired with the
 * base by a line diff that ignores indentation).
 *
 * - A line the model kept keeps the file's bytes; if the model only moved it
 *   (re-indented it), the file's text is written at the new level.
 * - A line the model changed is merged token by token (inline-merge.ts).
 * - New lines are written as the model wrote them, at the file's levels
 *   (reindent.ts). The replacement may be written in the find text's frame
 *   (both mis-indented alike: mapped) or already in the file's (left alone).
 * - Lines of the file the base does not have (a blank line the model forgot,
 *   elided lines) stay; where the model inserts the same lines there, they
 *   are taken once.
 * - A line the model removes or changes must be a line of the file.
 *
 * Why the strategy's alignment and not a second diff (node-diff3's way) for
 * base -> ours: diff3 pairs lines by equality, but the strategy matched them
 * *modulo* the model's noise (indentation, spacing, quotes, a misremembered
 * token), so an equality diff reads every noisy line as changed on both
 * sides. Measured on the accuracy benchmark (seeds 1-2, 300 cases, 4
 * formats): with an equality diff for base -> ours, 34 wrong and 324 refused;
 * with the alignment, 0 wrong and 14 refused (the same 14 as before the merge).
 */
import { appendAll } from "../arrays.ts";
import { diffArrays } from "diff";
import { EditError } from "../errors.ts";
import { isElisionLine, isReplacementElision } from "../match/elided.ts";
import type { Candidate, StrategyName, StrategyOptions } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { collapseWhitespace, isBlank, leadingWhitespace, normalizePunctuation, withoutIndent } from "../text/normalize.ts";
import { similarity, similarityBound } from "../text/similarity.ts";
import { anchoredDiff, type DiffPart } from "./anchored-diff.ts";
import { mergeInline } from "./inline-merge.ts";
import { columns, type IndentPair, type LevelMap, levelMap } from "./reindent.ts";
import { GENERIC_WORDS, type SpliceWords } from "../match/vocabulary.ts";
import { ruleOn } from "./rules.ts";
import { pickBySyntax, type SyntaxJudge } from "./syntax-decide.ts";

/** A line of merged output, and the document line it was copied from (-1: new). */
export interface MergedLine {
  text: string;
  from: number;
}

/** A changed line of the replacement is that base line changed when they are at least this similar (else: a new line). */
const CHANGED_LINE_SIMILARITY = 0.5;
/** How many removed lines past the last pair a new line is compared with: a rewritten block costs O(lines), not O(lines²). */
const PAIR_WINDOW = 8;
/**
 * A line the model removes or changes must be at least this similar to the
 * file line it was aligned with, or as similar as the strategy's own
 * threshold when that is lower (the OpenCode preset's BlockAnchor accepts
 * any middle: there the check is off).
 */
const REMOVED_LINE_SIMILARITY = 0.6;

export function removedLineFloor(strategy: StrategyName, o: StrategyOptions | undefined): number {
  if (!o) return REMOVED_LINE_SIMILARITY;
  switch (strategy) {
    case "block-anchor":
      return Math.min(REMOVED_LINE_SIMILARITY, o.blockAnchorSingleThreshold, o.blockAnchorMultipleThreshold);
    case "context-aware":
      return Math.min(REMOVED_LINE_SIMILARITY, o.contextAwareSimilarity);
    case "fuzzy-block":
      return Math.min(REMOVED_LINE_SIMILARITY, o.fuzzyThreshold);
    default:
      return REMOVED_LINE_SIMILARITY;
  }
}

type Status = { kind: "keep"; k: number } | { kind: "change"; k: number } | { kind: "remove" } | { kind: "elided" };

/** What the replacement does to each base line, and which new lines come after which base line (-1: before the first). */
interface TheirScript {
  status: Status[];
  after: Map<number, number[]>;
}

/** A line without its indentation (trailing whitespace the model writes is part of its text). */
const body = (line: string) => withoutIndent(line);
/** How the replacement's lines are compared with the find text's: indentation aside, a blank line as written. */
export const diffKey = (line: string) => (isBlank(line) ? line : withoutIndent(line));
const loose = (line: string) => collapseWhitespace(normalizePunctuation(line));

function pushAfter(after: Map<number, number[]>, j: number, k: number): void {
  const list = after.get(j);
  if (list) list.push(k);
  else after.set(j, [k]);
}

/**
 * A replacement as long as the find text whose lines differ only in place
 * (text for text, never a blank line for text) is read position by position
 * when that costs fewer line edits than the diff: among repeated lines (`}`
 * three times) the diff may keep the wrong copies, add one line at the top
 * and remove one further down, and the merge would move a line of the file.
 */
function positionalParts(find: readonly string[], repl: readonly string[], unindented: readonly DiffPart[]): DiffPart[] | undefined {
  if (find.length !== repl.length) return undefined;
  const parts: DiffPart[] = [];
  let changed = 0;
  for (let j = 0; j < find.length; j++) {
    const same = diffKey(find[j] ?? "") === diffKey(repl[j] ?? "");
    if (!same && (isBlank(find[j] ?? "") || isBlank(repl[j] ?? ""))) return undefined;
    if (!same) changed++;
    const last = parts[parts.length - 1];
    if (same && last && !last.added && !last.removed) last.count++;
    else if (same) parts.push({ count: 1 });
    else parts.push({ count: 1, removed: true }, { count: 1, added: true });
  }
  if (changed === 0) return undefined;
  let diffCost = 0;
  for (const part of unindented) if (part.added || part.removed) diffCost += part.count;
  return 2 * changed < diffCost ? parts : undefined;
}

const keptCount = (parts: readonly DiffPart[]) => parts.reduce((n, p) => (p.added || p.removed ? n : n + p.count), 0);

/**
 * The diff of the find text and the replacement with indentation, when it
 * keeps as many lines as `unindented` (compared without indentation: the model may
 * re-indent what it keeps): among repeated lines (`},` at two depths) the
 * indentation says which copy the model kept.
 */
function withIndentation(find: readonly string[], repl: readonly string[], unindented: DiffPart[]): DiffPart[] {
  if (keysMatchLines(find, repl)) return unindented;
  const exact = anchoredDiff(find, repl, nonBlank);
  return keptCount(exact) >= keptCount(unindented) ? exact : unindented;
}

const nonBlank = (l: string) => !isBlank(l);

/**
 * Whether two of these lines have equal diff keys only when they are equal
 * (no line stands at two indentations): the diff reads only which elements are
 * equal, and blank lines are their own keys, so the diff with indentation would
 * be the same as the one without (a hunk's context lines, one text for both sides).
 */
export function keysMatchLines(find: readonly string[], repl: readonly string[]): boolean {
  const lineOf = new Map<string, string>();
  for (const lines of [find, repl]) {
    for (const line of lines) {
      const key = diffKey(line);
      const seen = lineOf.get(key);
      if (seen === undefined) lineOf.set(key, line);
      else if (seen !== line) return false;
    }
  }
  return true;
}

/**
 * Moves each pair, found first in order, to the later new line most like its
 * removed line, up to the next pair: a model that writes a new `if` above the
 * line it turns into `elif` changes the `elif` line, and the file's own change
 * to that line belongs there. Order is kept (a pair never passes the next).
 */
function closestPairs(
  pairs: Map<number, number>,
  added: readonly number[],
  repl: readonly string[],
  looseBase: (i: number) => string,
  elides: (j: number) => boolean,
): void {
  const paired = added.filter((a) => pairs.has(a));
  paired.forEach((a, p) => {
    const r = pairs.get(a) as number;
    if (elides(r)) return;
    const base = looseBase(r);
    const next = paired[p + 1] ?? Number.POSITIVE_INFINITY;
    let best = a;
    let bestScore = similarity(base, loose(repl[a] ?? ""));
    for (const b of added) {
      if (b <= a || b >= next || isBlank(repl[b] ?? "")) continue;
      const line = loose(repl[b] ?? "");
      // The length bound first: a long removed line is not measured against every new line.
      if (similarityBound(base.length, line.length) <= bestScore) continue;
      const score = similarity(base, line);
      if (score > bestScore) [best, bestScore] = [b, score];
    }
    if (best === a) return;
    pairs.delete(a);
    pairs.set(best, r);
  });
}

/**
 * Base -> theirs. Lines equal without indentation are kept; in a replaced
 * run, each new line is paired in order with a similar removed line (it
 * changes that line), the others are new. An elision line only pairs with one.
 */
function theirScript(find: readonly string[], repl: readonly string[], align: readonly number[]): TheirScript {
  // An elision line of the find text stands for lines of the file; one the strategy aligned with a line is that line's text.
  const elides = (j: number) => (align[j] ?? -1) < 0 && isElisionLine(find[j] ?? "");
  const status: Status[] = find.map(() => ({ kind: "remove" }));
  const after = new Map<number, number[]>();
  let j = 0;
  let k = 0;
  let removed: number[] = [];
  let added: number[] = [];
  // Each find line made loose once, and the length bound tried before the edit distance: a
  // 22 kB removed line was normalised and measured against each of 6,000 new lines (3.4 s).
  const looseFind = new Map<number, string>();
  const looseBase = (i: number) => looseFind.get(i) ?? looseFind.set(i, loose(find[i] ?? "")).get(i) ?? "";
  const flush = () => {
    let cursor = 0;
    const pairs = new Map<number, number>();
    for (const a of added) {
      const line = repl[a] ?? "";
      let looseLine: string | undefined;
      for (let r = cursor; r < Math.min(removed.length, cursor + PAIR_WINDOW); r++) {
        const base = find[removed[r] as number] ?? "";
        const marker = elides(removed[r] as number);
        if ((marker && !isElisionLine(line)) || isBlank(line) || isBlank(base)) continue;
        looseLine ??= loose(line);
        const lb = marker ? "" : looseBase(removed[r] as number);
        if (marker || (similarityBound(lb.length, looseLine.length) >= CHANGED_LINE_SIMILARITY && similarity(lb, looseLine) >= CHANGED_LINE_SIMILARITY)) {
          pairs.set(a, removed[r] as number);
          cursor = r + 1;
          break;
        }
      }
    }
    closestPairs(pairs, added, repl, looseBase, elides);
    const firstPaired = removed.findIndex((r) => [...pairs.values()].includes(r));
    let anchor = firstPaired === -1 ? (removed[removed.length - 1] ?? j - 1) : firstPaired > 0 ? (removed[firstPaired - 1] as number) : (removed[0] as number) - 1;
    for (const a of added) {
      const r = pairs.get(a);
      if (r !== undefined) {
        status[r] = elides(r) ? { kind: "keep", k: a } : { kind: "change", k: a };
        anchor = r;
      } else {
        pushAfter(after, anchor, a);
      }
    }
    removed = [];
    added = [];
  };
  // Blank lines never take the place of text (one diff over everything may keep a blank line and
  // re-add the line of code beside it, which then lands next to the file's own blank line).
  const unindented = anchoredDiff(find.map(diffKey), repl.map(diffKey), nonBlank);
  const parts = positionalParts(find, repl, unindented) ?? withIndentation(find, repl, unindented);
  for (const part of parts) {
    const count = part.count;
    if (part.removed) {
      for (let n = 0; n < count; n++) removed.push(j + n);
      j += count;
    } else if (part.added) {
      for (let n = 0; n < count; n++) added.push(k + n);
      k += count;
    } else {
      flush();
      for (let n = 0; n < count; n++) status[j + n] = { kind: "keep", k: k + n };
      j += count;
      k += count;
    }
  }
  flush();
  return { status, after };
}

/**
 * An elision line in the replacement that the find text does not have
 * stands for the base lines removed between the kept lines around it.
 *
 * - A marker where no base line was removed stands for nothing: it is a
 *   line the model adds (a comment, prose in a document), written as is.
 * - Text ops (str_replace, SEARCH/REPLACE): the marker is expanded to the
 *   removed lines it sits between; if anything but blank lines separates it
 *   from the kept lines, which lines it stands for is a guess: refused.
 * - Explicit lines (`explicit`: a diff's '+' lines, where every line is
 *   written on purpose, and createPatch of a real file writes such a line
 *   when the file has it): a marker replacing two or more removed lines is
 *   refused, never expanded and never written; one replacing a single line
 *   is written as is.
 */
function expandElisions(find: readonly string[], repl: readonly string[], script: TheirScript, explicit: boolean, w: SpliceWords): void {
  const keptAt = new Map<number, number>();
  script.status.forEach((s, j) => {
    if (s.kind === "keep") keptAt.set(s.k, j);
  });
  for (const [anchor, list] of [...script.after]) {
    for (const k of list) {
      if (!isReplacementElision(repl[k] ?? "")) continue;
      const around = (step: number): number => {
        for (let x = k + step; x >= 0 && x < repl.length; x += step) {
          const at = keptAt.get(x);
          if (at !== undefined) return at;
          if (!isBlank(repl[x] ?? "")) return Number.NaN;
        }
        return step < 0 ? -1 : find.length;
      };
      const before = around(-1);
      const next = around(1);
      const anchored = !Number.isNaN(before) && !Number.isNaN(next);
      let removed = 0;
      const [from, to] = anchored ? [before + 1, next] : [0, find.length];
      // In a diff, a base line rewritten next to the marker is gone from the new side too (`-b -c +// ... +x`: x pairs with b).
      const gone = (s: Status | undefined) => s?.kind === "remove" || (explicit && s?.kind === "change");
      for (let j = from; j < to; j++) if (gone(script.status[j])) removed++;
      if (removed === 0 || (explicit && removed < 2)) continue;
      if (!anchored || explicit) {
        throw new EditError(
          "INVALID_INPUT",
          `Line ${k + 1} of ${w.replacement}, \`${(repl[k] ?? "").trim()}\`, elides lines, but ${w.find} has no such line${explicit ? "" : ", and the new lines next to it do not show which lines it stands for"}. Nothing was changed. Send ${w.replacement} in full, without elided lines.`,
        );
      }
      for (let j = from; j < to; j++) if (script.status[j]?.kind === "remove") script.status[j] = { kind: "elided" };
      // The marker and the blank lines around it are not new lines.
      script.after.set(
        anchor,
        (script.after.get(anchor) ?? []).filter((x) => x !== k && !(isBlank(repl[x] ?? "") && Math.abs(x - k) <= 1)),
      );
    }
  }
}

/** A line the model removes or changes must be in the file (case: a hunk's `-` line found nowhere, aligned through a blank line). */
function checkRemovedLines(
  doc: Document,
  cand: Candidate,
  find: readonly string[],
  align: readonly number[],
  script: TheirScript,
  floor: number,
  w: SpliceWords,
): void {
  if (floor <= 0) return;
  script.status.forEach((s, j) => {
    if (s.kind !== "remove" && s.kind !== "change") return;
    const base = find[j] ?? "";
    if (isBlank(base) || isElisionLine(base)) return;
    const f = align[j] ?? -1;
    const line = f >= 0 ? doc.line(f) : "";
    if (f >= 0 && !isBlank(line) && (body(line) === body(base) || similarity(loose(line), loose(base)) >= floor)) return;
    const where = f >= 0 ? `line ${f + 1} of the file reads \`${line.trim()}\` there` : "no line of the file matches it there";
    throw new EditError(
      "NOT_FOUND",
      `Line ${j + 1} of ${w.find}, \`${base.trim()}\`, which the edit ${s.kind === "remove" ? "removes" : "changes"}, is not in the file: the closest place (lines ${cand.startLine + 1}-${cand.endLine}, ${cand.strategy}) matches the lines around it, but ${where}. Copy the lines to change exactly from the current file.`,
      { candidates: [{ startLine: cand.startLine + 1, endLine: cand.endLine, strategy: cand.strategy, score: cand.score }] },
    );
  });
}

/**
 * Kept lines of the find text place the edit. One unlike the file line it was
 * aligned with may have changed since the model read the file; this many in a
 * row mean the model quotes code that is not there.
 */
const ABSENT_KEPT_RUN = 2;

/**
 * Lines the model keeps must be in the file too, up to a line changed since
 * it read it: a run of kept lines unlike the file lines they were aligned with
 * (a similarity strategy carried them on the lines around) is refused. New
 * lines placed beside them would land among lines the model never saw.
 */
function checkKeptLines(doc: Document, cand: Candidate, find: readonly string[], align: readonly number[], script: TheirScript, floor: number, w: SpliceWords): void {
  if (floor <= 0) return;
  let run: number[] = [];
  const absent = (j: number): boolean => {
    const base = find[j] ?? "";
    const f = align[j] ?? -1;
    if (f < 0) return false;
    const line = doc.line(f);
    return isBlank(line) || (body(line) !== body(base) && similarity(loose(line), loose(base)) < floor);
  };
  for (let j = 0; j <= find.length; j++) {
    const base = find[j] ?? "";
    if (j < find.length && (isBlank(base) || isElisionLine(base))) continue;
    if (j < find.length && script.status[j]?.kind === "keep" && absent(j)) {
      run.push(j);
      continue;
    }
    if (run.length >= ABSENT_KEPT_RUN) {
      const first = run[0] as number;
      const last = run[run.length - 1] as number;
      const shown = run.slice(0, 3).map((j) => {
        const line = doc.line(align[j] as number).trim();
        return `line ${(align[j] as number) + 1} ${line === "" ? "(blank)" : `\`${line}\``}`;
      });
      throw new EditError(
        "NOT_FOUND",
        `Lines ${first + 1}-${last + 1} of ${w.find}, from \`${(find[first] ?? "").trim()}\`, are not in the file: the closest place (lines ${cand.startLine + 1}-${cand.endLine}, ${cand.strategy}) matches the lines around them, but the file has other lines there: ${shown.join(", ")}${run.length > 3 ? ", ..." : ""}. Copy the lines around the change exactly from the current file.`,
        { candidates: [{ startLine: cand.startLine + 1, endLine: cand.endLine, strategy: cand.strategy, score: cand.score }] },
      );
    }
    run = [];
  }
}

/**
 * Whether a new line indented `t`, read in the model's frame (its `model`
 * indentation is the file's `file`), would land left of column 0: the find
 * text was shifted deeper, and the line is shallower than the shift. Such a
 * line was written in the file's frame. Spaces only (a tab has no width).
 */
function leftOfColumnZero(t: string, model: string, file: string): boolean {
  if (/\t/.test(t + model + file) || !model.startsWith(file)) return false;
  return t.length < model.length - file.length;
}

/** The frame the replacement is written in: the file's indentation, the find text's, or no evidence either way ("tied": the find text's, unless syntax decides). */
type Frame = "file" | "find" | "tied";

/**
 * Whether the replacement is written in the file's indentation rather than
 * the find text's. Each line the model kept or changed votes by the
 * indentation it shares with one side but not the other. A kept line at the
 * find text's indentation is weak evidence (in a diff the kept lines are one
 * text shared by both sides): it counts only when no changed line voted.
 */
function inFileFrame(
  doc: Document,
  find: readonly string[],
  repl: readonly string[],
  align: readonly number[],
  script: TheirScript,
  isNew: ReadonlySet<number>,
  explicit = false,
): Frame {
  // Lines the model kept at the file's indentation, none at the find text's: it copied the file's
  // lines, so its new lines are in the file's frame too. Ahead of the outermost level, which one of
  // those kept lines can make the find text's by chance (its file level is another quoted line's
  // find level: the noise property's find text shifted deeper, replacement not).
  if (!explicit && keptAtFileLevel(doc, find, repl, align, script, isNew)) return "file";
  // The outermost level. A replacement whose outermost level is the find text's (and not the file's)
  // was not shifted as a whole: lines of it at the file's indentation are moves (nesting) in the
  // model's frame; one whose outermost level is the file's (and not the find text's) was shifted.
  // The lines it removes count: a new line written where one of them was stands at its level.
  // Not for diffs: their context lines are one text for both sides.
  if (!explicit) {
    let fMin = Number.POSITIVE_INFINITY;
    let oMin = Number.POSITIVE_INFINITY;
    align.forEach((f, j) => {
      const b = find[j] ?? "";
      const st = script.status[j]?.kind;
      if (f < 0 || (st !== "keep" && st !== "change" && st !== "remove") || isBlank(b) || isElisionLine(b) || isBlank(doc.line(f))) return;
      fMin = Math.min(fMin, columns(leadingWhitespace(b)));
      oMin = Math.min(oMin, columns(leadingWhitespace(doc.line(f))));
    });
    let rMin = Number.POSITIVE_INFINITY;
    for (const t of repl) if (!isBlank(t)) rMin = Math.min(rMin, columns(leadingWhitespace(t)));
    // The lines it kept say it too: new lines alone at the file's level may be the model's own shallower
    // lines. Kept lines agree when the outermost is theirs, or when each stands at its own file line's
    // indentation (one kept inside a block the replacement opens is deeper than the outermost).
    let kMin = Number.POSITIVE_INFINITY;
    let keptAsFile = true;
    script.status.forEach((st, j) => {
      if (st.kind !== "keep" || isBlank(repl[st.k] ?? "")) return;
      const t = leadingWhitespace(repl[st.k] ?? "");
      kMin = Math.min(kMin, columns(t));
      const f = align[j] ?? -1;
      if (f < 0 || isBlank(doc.line(f)) || t !== leadingWhitespace(doc.line(f))) keptAsFile = false;
    });
    if (Number.isFinite(fMin) && fMin !== oMin) {
      if (rMin === fMin) return "find";
      if (rMin === oMin && (kMin === oMin || keptAsFile)) return "file";
    }
  }
  const votes = { file: 0, same: 0 };
  const vote = (j: number, k: number, kept: boolean) => {
    const side = indentSide(doc, find[j] ?? "", repl[k] ?? "", align[j] ?? -1);
    if (side === "file") votes.file++;
    else if (side === "find" && !kept) votes.same++;
  };
  script.status.forEach((s, j) => {
    if (s.kind === "keep" || s.kind === "change") vote(j, s.k, s.kind === "keep");
  });
  // Lines inserted between kept lines say which frame the model wrote them in:
  // an insertion sits at the level of the line it follows (or, after a line
  // that opens a block, of the line it precedes). New lines at that level in
  // the file's indentation and not in the find text's, or the reverse, vote.
  const keptNonBlank = (from: number, step: number): number | undefined => {
    for (let j = from; j >= 0 && j < find.length; j += step) {
      if (script.status[j]?.kind !== "keep" || (align[j] ?? -1) < 0) return undefined;
      if (!isBlank(find[j] ?? "")) return j;
    }
    return undefined;
  };
  for (const [j, ks] of script.after) {
    const prev = keptNonBlank(j, -1);
    const next = keptNonBlank(j + 1, 1);
    if (prev === undefined || next === undefined) continue;
    const opens = /[{([:]$|=>$/.test((find[prev] ?? "").trimEnd());
    // An opener whose next line is no deeper has nothing in its block yet: the insertion is one level inside it.
    const empty = opens && columns(leadingWhitespace(find[next] ?? "")) <= columns(leadingWhitespace(find[prev] ?? ""));
    const at = opens && !empty ? next : prev;
    const model = leadingWhitespace(find[at] ?? "");
    const file = leadingWhitespace(doc.line(align[at] ?? 0));
    if (model === file) continue;
    const added = ks.map((k) => repl[k] ?? "").filter((l) => !isBlank(l));
    if (added.length === 0) continue;
    if (empty) {
      // Inside the block in the file's frame and not in the find text's (or exactly one unit in): the file's.
      const indents = added.map(leadingWhitespace);
      const inside = (t: string, opener: string) => columns(t) > columns(opener);
      if (indents.every((t) => t === file + doc.indentUnit() || (inside(t, file) && !inside(t, model)))) votes.file++;
      else if (indents.every((t) => inside(t, model))) votes.same++;
      continue;
    }
    if (added.every((l) => leadingWhitespace(l) === file)) votes.file++;
    else if (added.every((l) => leadingWhitespace(l) === model)) votes.same++;
    else if (added.every((l) => leftOfColumnZero(leadingWhitespace(l), model, file))) votes.file++;
  }
  if (votes.file === 0 && votes.same === 0) {
    // Nothing kept or paired: the removed and new lines, in order, blank ones
    // left out (a removed blank line paired with the first new line hid its vote).
    const removed = script.status.map((s, j) => (s.kind === "remove" && !isBlank(find[j] ?? "") ? j : -1)).filter((j) => j >= 0);
    const added = [...script.after.values()]
      .flat()
      .filter((k) => !isBlank(repl[k] ?? ""))
      .sort((a, b) => a - b);
    for (let n = 0; n < Math.min(removed.length, added.length); n++) vote(removed[n] as number, added[n] as number, false);
  }
  return votes.file > votes.same ? "file" : votes.file < votes.same ? "find" : "tied";
}

/**
 * Whether some line the model kept is written at the file's indentation where
 * the find text's differs, and none at the find text's. Not for diffs: there a
 * kept line is one text for both sides. A kept line under a block the
 * replacement opens anew may have been moved there (nested) in the model's
 * frame: it says nothing of the frame (sympy-11400's `return` under a new
 * `else:`, bench:real).
 */
function keptAtFileLevel(doc: Document, find: readonly string[], repl: readonly string[], align: readonly number[], script: TheirScript, isNew: ReadonlySet<number>): boolean {
  const nested = underOpeners(repl, (i) => isNew.has(i));
  let file = 0;
  let same = 0;
  script.status.forEach((s, j) => {
    if (s.kind !== "keep" || nested[s.k] || isElisionLine(find[j] ?? "")) return;
    const side = indentSide(doc, find[j] ?? "", repl[s.k] ?? "", align[j] ?? -1);
    if (side === "file") file++;
    else if (side === "find") same++;
  });
  return file > 0 && same === 0;
}

/**
 * Which side's indentation replacement line `t` has, where find line `b` and
 * the file line `f` it was aligned with differ: the file's or the find
 * text's; undefined when they agree, a line is blank or unaligned, or `t` has
 * neither.
 */
function indentSide(doc: Document, b: string, t: string, f: number): "file" | "find" | undefined {
  if (f < 0 || isBlank(b) || isBlank(t) || isBlank(doc.line(f))) return undefined;
  const bi = leadingWhitespace(b);
  const fi = leadingWhitespace(doc.line(f));
  const ti = leadingWhitespace(t);
  if (bi === fi) return undefined;
  return ti === fi ? "file" : ti === bi ? "find" : undefined;
}

function reindenter(doc: Document, cand: Candidate, find: readonly string[], repl: readonly string[], align: readonly number[], fileFrame: boolean): LevelMap {
  if (fileFrame) return Object.assign((indent: string) => indent, { identity: true });
  const pairs: IndentPair[] = [];
  align.forEach((f, j) => {
    const m = find[j] ?? "";
    if (f < 0 || isBlank(m) || isElisionLine(m)) return;
    const line = doc.line(f);
    if (!isBlank(line)) pairs.push({ model: leadingWhitespace(m), file: leadingWhitespace(line) });
  });
  const fileUsesTabs = () => {
    const region = doc.lines(cand.startLine, cand.endLine);
    return region.some((l) => l.startsWith("\t")) || (!region.some((l) => l.startsWith(" ")) && doc.indentUnit() === "\t");
  };
  return levelMap({ pairs, modelLines: [...find, ...repl], fileUnit: doc.indentUnit(), fileUsesTabs });
}

/** The merged lines of the region; `floor`: see removedLineFloor. */
/** What the line writers of one merge share. */
interface MergeCtx {
  doc: Document;
  cand: Candidate;
  find: readonly string[];
  repl: readonly string[];
  mapIndent: LevelMap;
  fileFrame: boolean;
  words: SpliceWords;
  /** Replacement lines that are new (not kept or changed find lines). */
  isNew?: ReadonlySet<number>;
  /** `insideNewBlock` of each replacement line, computed on first use. */
  newBlocks?: boolean[];
}

/** Whether replacement line k stands, through shallower lines, under a block that a new line opens (`try:`, `if (x) {`). */
function insideNewBlock(m: MergeCtx, k: number): boolean {
  m.newBlocks ??= underOpeners(m.repl, (i) => m.isNew?.has(i) === true);
  return m.newBlocks[k] === true;
}

/**
 * For each line of `lines`, whether it stands, through shallower lines (the
 * lines above it, each shallower than the last), under a line that opens a
 * block and that `counts`. One pass with a stack of those lines: asked line by
 * line, a walk back from each cost O(lines²) on a whole JSON file re-indented
 * (6,000 lines: 1 s).
 */
function underOpeners(lines: readonly string[], counts: (i: number) => boolean): boolean[] {
  const out = new Array<boolean>(lines.length).fill(false);
  // The lines above, each shallower than the next, and whether any of them up to there is a counted opener.
  const stack: { width: number; opened: boolean }[] = [];
  lines.forEach((line, i) => {
    if (isBlank(line)) return;
    const width = columns(leadingWhitespace(line));
    while (stack.length > 0 && (stack.at(-1) as { width: number }).width >= width) stack.pop();
    const above = stack.at(-1)?.opened ?? false;
    out[i] = above;
    stack.push({ width, opened: above || (counts(i) && /[{([:]$|=>$/.test(line.trimEnd())) });
  });
  return out;
}

const fileLine = (m: MergeCtx, f: number): MergedLine => ({ text: m.doc.line(f), from: f });

/** A new line of the replacement, re-indented. */
function fresh(m: MergeCtx, k: number): MergedLine {
  const line = m.repl[k] ?? "";
  // A blank line keeps its whitespace as written (a real block's `    ` line between methods).
  if (isBlank(line)) return { text: line, from: -1 };
  return { text: m.mapIndent(leadingWhitespace(line)) + withoutIndent(line), from: -1 };
}

/**
 * Whether the model left base line j at its place. A kept line is left
 * there at either side's indentation (a diff's context line is the find
 * text's copy); a changed line at its frame's. `k`: the kept line's place in the replacement.
 */
function unmoved(m: MergeCtx, j: number, f: number, t: string, kept: boolean, k?: number): boolean {
  const indent = leadingWhitespace(t);
  const fromFind = indent === leadingWhitespace(m.find[j] ?? "");
  const fromFile = indent === leadingWhitespace(m.doc.line(f));
  // In the model's frame a kept line at the file's indentation (not the find text's) inside a block
  // the replacement opens anew was moved there (nested), not left at the file's indentation.
  if (kept && !m.fileFrame && !m.mapIndent.identity && fromFile && !fromFind && k !== undefined && insideNewBlock(m, k)) return false;
  return kept ? fromFind || fromFile : m.fileFrame ? fromFile : fromFind;
}

/** A line the model kept: the file's bytes, moved only if the model moved it. */
function keptLine(m: MergeCtx, j: number, k: number, f: number): MergedLine {
  const t = m.repl[k] ?? "";
  const line = m.doc.line(f);
  if (isBlank(t) || isBlank(line) || unmoved(m, j, f, t, true, k)) return fileLine(m, f);
  return { text: m.mapIndent(leadingWhitespace(t)) + withoutIndent(line), from: f };
}

/** Two lines that differ in one word only (`len(result)` / `len(results)`): a misremembered token, not punctuation or layout. */
function oneWordApart(a: string, b: string): boolean {
  const x = a.trimEnd().split(/(\w+)/);
  const y = b.trimEnd().split(/(\w+)/);
  if (x.length !== y.length) return false;
  let differ = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] === y[i]) continue;
    // Odd places of a split with a capture group are the words.
    if (i % 2 === 0) return false;
    differ++;
  }
  return differ === 1;
}

/** A line the model changed: merged token by token with the file's, or a CONFLICT. */
function changedLine(m: MergeCtx, j: number, k: number, f: number): MergedLine {
  const t = m.repl[k] ?? "";
  const line = m.doc.line(f);
  const indent = unmoved(m, j, f, t, false) ? leadingWhitespace(line) : m.mapIndent(leadingWhitespace(t));
  // Rule switched off (docs/rules.md): the model's line as written, the file's changes to it dropped.
  if (!ruleOn("inline-merge")) return { text: body(t) === "" ? "" : indent + body(t), from: f };
  const merged = mergeInline(body(m.find[j] ?? ""), body(line), body(t));
  // The model misremembered a token of a line it rewrites anyway (`result` for `results`): the line it
  // wrote replaces the file's. A line the file changed more than that is another writer's: CONFLICT.
  if (!merged.ok && oneWordApart(body(m.find[j] ?? ""), body(line))) return { text: indent + body(t), from: f };
  if (!merged.ok) {
    throw new EditError(
      "CONFLICT",
      `Line ${f + 1} of the file reads \`${line.trim()}\`, but ${m.words.find} has \`${(m.find[j] ?? "").trim()}\` there, and ${m.words.replacement} changes it to \`${t.trim()}\`: the file and the edit changed the same text differently. Nothing was changed. Copy the line from the current file and send the edit again.`,
      { candidates: [{ startLine: f + 1, endLine: f + 1, strategy: m.cand.strategy, score: m.cand.score }] },
    );
  }
  return { text: merged.text === "" ? "" : indent + merged.text, from: f };
}

/** New lines where the file has lines the base does not: lines on both sides are taken once, the file's. */
/**
 * New lines and lines of the file the find text does not have, different,
 * at one place: both sides changed it (a stale SEARCH merged into a region
 * rewritten since gave two `if`s and a stray `else:`). CONFLICT, never both.
 */
function checkGapBothChanged(m: MergeCtx, parts: ReturnType<typeof diffArrays<string>>, from: number, to: number): void {
  for (let p = 1; p < parts.length; p++) {
    const a = parts[p - 1];
    const b = parts[p];
    if (!a || !b || !((a.removed && b.added) || (a.added && b.removed))) continue;
    const text = (x: typeof a) => x.value.some((v: string) => v !== "");
    if (!text(a) || !text(b)) continue;
    const fileSide = (a.added ? a : b).value.filter((v: string) => v !== "");
    const modelSide = (a.removed ? a : b).value.filter((v: string) => v !== "");
    throw new EditError(
      "CONFLICT",
      `Lines ${from + 1}-${to} of the file (\`${fileSide[0]}\`${fileSide.length > 1 ? ", ..." : ""}) are not in ${m.words.find}, and ${m.words.replacement} puts other lines there (\`${modelSide[0]}\`${modelSide.length > 1 ? ", ..." : ""}): the file and the edit changed the same place differently. Nothing was changed. Copy the lines from the current file and send the edit again.`,
      { candidates: [{ startLine: from + 1, endLine: to, strategy: m.cand.strategy, score: m.cand.score }] },
    );
  }
}

function intoGap(m: MergeCtx, held: readonly number[], from: number, to: number): MergedLine[] {
  if (held.length === 0 || from === to) return [...held.map((k) => fresh(m, k)), ...range(from, to).map((x) => fileLine(m, x))];
  const out: MergedLine[] = [];
  let h = 0;
  let f = from;
  const parts = diffArrays(
    held.map((k) => (m.repl[k] ?? "").trim()),
    range(from, to).map((x) => m.doc.line(x).trim()),
  );
  checkGapBothChanged(m, parts, from, to);
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    for (let n = 0; n < count; n++) {
      if (part.removed) out.push(fresh(m, held[h++] as number));
      else if (part.added) out.push(fileLine(m, f++));
      else {
        out.push(fileLine(m, f++));
        h++;
      }
    }
  }
  return out;
}

export function mergeLines(
  doc: Document,
  cand: Candidate,
  repl: readonly string[],
  align: readonly number[],
  floor: number,
  explicitLines = false,
  words: SpliceWords = GENERIC_WORDS,
  judge?: SyntaxJudge,
): MergedLine[] {
  const find = cand.query.lines;
  const script = theirScript(find, repl, align);
  expandElisions(find, repl, script, explicitLines, words);
  checkRemovedLines(doc, cand, find, align, script, floor, words);
  checkKeptLines(doc, cand, find, align, script, floor, words);
  const isNew = new Set<number>(repl.map((_, k) => k));
  for (const s of script.status) if (s.kind === "keep" || s.kind === "change") isNew.delete(s.k);
  const frame = ruleOn("merge-frame") ? inFileFrame(doc, find, repl, align, script, isNew, explicitLines) : "find";
  const inFrame = (fileFrame: boolean) =>
    mergeInFrame({ doc, cand, find, repl, fileFrame, words, isNew, mapIndent: reindenter(doc, cand, find, repl, align, fileFrame) }, align, script);
  const chosen = inFrame(frame === "file");
  if (frame !== "tied" || !judge || cand.strategy === "exact") return chosen;
  return syntaxFrame(doc, cand, chosen, () => inFrame(true), judge);
}

/**
 * A frame vote with no evidence either way (tied) is the find text's by
 * default; with a syntax judge, the file's frame wins when its result parses
 * and the find text's introduces an error (a block re-based one level too
 * deep: `unexpected indent`, an `else:` at no `if`'s level). Either both
 * readings parse, or both break: the default stands.
 */
function syntaxFrame(doc: Document, cand: Candidate, inFind: MergedLine[], inFile: () => MergedLine[], judge: SyntaxJudge): MergedLine[] {
  let other: MergedLine[];
  try {
    other = inFile();
  } catch {
    return inFind;
  }
  const text = (lines: readonly MergedLine[]) => lines.map((m) => m.text).join("\n");
  const a = text(inFind);
  const b = text(other);
  if (a === b) return inFind;
  const whole = (t: string) => doc.text.slice(0, cand.start) + t + doc.text.slice(cand.end);
  return pickBySyntax(doc.text, [whole(a), whole(b)], judge) === 1 ? other : inFind;
}

/** The merge of the replacement into the region, its new lines re-indented from the frame `m` says. */
function mergeInFrame(m: MergeCtx, align: readonly number[], script: TheirScript): MergedLine[] {
  const { cand, find } = m;
  const news = (ks: readonly number[]) => ks.map((k) => fresh(m, k));
  const fileLines = (from: number, to: number) => range(from, to).map((x) => fileLine(m, x));

  const out: MergedLine[] = [];
  const isRemoval = (s: Status | undefined) => s?.kind === "remove" || s?.kind === "change";
  let cursor = cand.startLine;
  let held: number[] = script.after.get(-1) ?? [];
  let pending: MergedLine[] = [];
  let unalignedSince = false;
  // True while every base line since the last aligned one was removed: the file lines between go too.
  let removing = false;
  for (let j = 0; j < find.length; j++) {
    const f = align[j] ?? -1;
    const s = script.status[j];
    if (f >= 0) {
      if (removing && isRemoval(s)) appendAll(out, [...news(held), ...pending]);
      else if (!unalignedSince) appendAll(out, intoGap(m, held, cursor, f));
      else appendAll(out, [...news(held), ...fileLines(cursor, f), ...pending]);
      pending = [];
      unalignedSince = false;
      if (s?.kind === "keep") out.push(keptLine(m, j, s.k, f));
      else if (s?.kind === "change") out.push(changedLine(m, j, s.k, f));
      else if (s?.kind === "elided") out.push(fileLine(m, f));
      cursor = Math.max(cursor, f + 1);
      removing = isRemoval(s);
      held = script.after.get(j) ?? [];
    } else {
      unalignedSince = true;
      removing = removing && isRemoval(s);
      if (s?.kind === "change") pending.push(fresh(m, s.k));
      for (const k of script.after.get(j) ?? []) pending.push(fresh(m, k));
    }
  }
  if (!unalignedSince) appendAll(out, intoGap(m, held, cursor, cand.endLine));
  else appendAll(out, [...news(held), ...fileLines(cursor, cand.endLine), ...pending]);
  return withForgottenBlanksOnce(out, align);
}

/**
 * A blank line the find text forgot and the replacement keeps, next to a
 * change: the file's blank line (one the find text has no line for) ends up
 * beside the model's new blank line, or beside a blank line the model kept
 * once the lines between them were removed. The replacement has one blank
 * line there: written once, the file's. (intoGap pairs them when nothing
 * was removed between; accuracy bench `blank-forgotten-edge` doubled them
 * 4 times in 25, in every format.)
 */
function withForgottenBlanksOnce(out: MergedLine[], align: readonly number[]): MergedLine[] {
  const aligned = new Set(align);
  const blank = (l: MergedLine | undefined): l is MergedLine => l !== undefined && isBlank(l.text);
  const dropped = new Set<number>();
  for (let i = 0; i < out.length; i++) {
    const gap = out[i];
    if (!blank(gap) || gap.from < 0 || aligned.has(gap.from)) continue;
    for (const x of [i - 1, i + 1]) {
      const other = out[x];
      if (!blank(other) || dropped.has(x) || dropped.has(i)) continue;
      // The model's new blank line is the file's; a kept one stands for it once the lines between are gone.
      if (other.from < 0) dropped.add(x);
      else if (aligned.has(other.from) && Math.abs(other.from - gap.from) > 1) dropped.add(i);
    }
  }
  return dropped.size === 0 ? out : out.filter((_, i) => !dropped.has(i));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}
