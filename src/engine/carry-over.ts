/**
 * Carrying an edit made on an earlier version of a file onto the current
 * one: a line-based three-way merge (base = the version the model read,
 * ours = the file now, theirs = that version with the edit). Changes that
 * overlap, touch or stand one line apart conflict.
 *
 * Our own, not node-diff3: on a real stale block (aider-swebench
 * sympy-12481 try6 msg2) node-diff3 merged cleanly where git merge-file
 * reports a conflict, and the result held the model's earlier rewrite and
 * this one both, lines duplicated. Both sides' changes are found by the
 * bounded line diff (text/line-diff.ts), so the cost stays that of a diff.
 */
import { diffLinesBounded } from "../text/line-diff.ts";
import { mergeInline } from "./inline-merge.ts";

export interface CarryConflict {
  /** 1-based first line of the current file's side of the conflict, and its lines (none: an insertion point). */
  startLine: number;
  lines: string[];
  /** What the edit meant there: the version's lines and the edited version's lines. */
  before: string[];
  after: string[];
}

export type CarryResult = { text: string; conflict?: undefined } | { text?: undefined; conflict: CarryConflict };

/** One change of a side against the base: base lines [start, end) become `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/** LF lines of a text (a final newline gives a last "" line, so it merges like any line). */
const linesOf = (text: string): string[] => text.replace(/\r\n/g, "\n").split("\n");

function hunksOf(base: readonly string[], side: readonly string[]): Hunk[] {
  const out: Hunk[] = [];
  let i = 0;
  let open: Hunk | undefined;
  for (const c of diffLinesBounded(base, side)) {
    const n = c.value.length;
    if (!c.added && !c.removed) {
      if (open) out.push(open);
      open = undefined;
      i += n;
      continue;
    }
    open ??= { start: i, end: i, lines: [] };
    if (c.removed) {
      open.end += n;
      i += n;
    } else for (const line of c.value) open.lines.push(line);
  }
  if (open) out.push(open);
  return out;
}

const same = (a: Hunk, b: Hunk) => a.start === b.start && a.end === b.end && a.lines.length === b.lines.length && a.lines.every((l, k) => l === b.lines[k]);
/**
 * Changes with fewer unchanged lines than this between them conflict.
 * git merge-file conflicts when they overlap or touch (1); but where the
 * file repeats lines (a model's half-done rewrite), the line diff may align
 * the two sides a line apart where git aligns them together (real stale
 * block sympy-19487 try1 msg4 was merged into dead code, one line apart).
 * Two lines apart, a diff whose context line changed still merges.
 */
const NEAR = 2;
const meet = (a: Hunk, b: Hunk) => a.start < b.end + NEAR && b.start < a.end + NEAR;

/** `run` stands in `lines` as consecutive lines. */
function holdsRun(lines: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= lines.length; i++) if (run.every((l, k) => lines[i + k] === l)) return true;
  return false;
}

/**
 * The edit's change to some base lines holds the file's change to the same
 * lines whole: the model rewrote its own earlier edit from the version before
 * it and kept what that edit wrote (real stale blocks, aider-swebench
 * sympy-12171 try3 and sympy-12419 try2: a line it had joined, written joined
 * again under two new lines; a token it had changed, changed again with
 * others). Taking the edit's lines loses nothing of the file's. Where the
 * file has no text of its own there (lines deleted, or only blank ones) it
 * stays a conflict: the edit would bring back what the file lost.
 */
function editHolds(base: readonly string[], mine: Hunk, edit: Hunk): boolean {
  if (mine.start !== edit.start || mine.end !== edit.end || !mine.lines.some((l) => /\w\w/.test(l))) return false;
  if (holdsRun(edit.lines, mine.lines)) return true;
  // Line for line: each change the file made inside a line is one the edit makes too.
  if (mine.lines.length !== mine.end - mine.start || edit.lines.length !== mine.lines.length) return false;
  return mine.lines.every((l, k) => {
    const merged = mergeInline(base[mine.start + k] as string, l, edit.lines[k] as string);
    return merged.ok && merged.text === edit.lines[k];
  });
}

/** Where base line `at` is in `ours` (its hunks applied before it). */
function oursLine(ours: readonly Hunk[], at: number): number {
  let shift = 0;
  for (const h of ours) if (h.end <= at) shift += h.lines.length - (h.end - h.start);
  return at + shift;
}

/** Merges the change from `base` to `theirs` into `ours`; the result keeps `ours`'s CRLF line breaks. */
export function carryOver(base: string, ours: string, theirs: string): CarryResult {
  const b = linesOf(base);
  const mine = hunksOf(b, linesOf(ours));
  const edit = hunksOf(b, linesOf(theirs));
  const taken: Hunk[] = [...mine];
  for (const t of edit) {
    if (mine.some((o) => same(o, t))) continue;
    const clashes = mine.filter((o) => meet(o, t));
    const clash = clashes[0];
    if (clash && clashes.length === 1 && editHolds(b, clash, t)) {
      taken[taken.indexOf(clash)] = t;
      continue;
    }
    if (clash) {
      // The region both touched, in the current file's lines.
      const at = oursLine(mine, Math.min(clash.start, t.start));
      const to = oursLine(mine, Math.max(clash.end, t.end));
      return { conflict: { startLine: at + 1, lines: linesOf(ours).slice(at, Math.max(at, to)), before: b.slice(t.start, t.end), after: t.lines } };
    }
    taken.push(t);
  }
  taken.sort((x, y) => x.start - y.start || x.end - y.end);
  const out: string[] = [];
  let i = 0;
  for (const h of taken) {
    for (; i < h.start; i++) out.push(b[i] as string);
    for (const line of h.lines) out.push(line);
    i = h.end;
  }
  for (; i < b.length; i++) out.push(b[i] as string);
  const crlf = ours.includes("\r\n") && !/(^|[^\r])\n/.test(ours);
  return { text: out.join(crlf ? "\r\n" : "\n") };
}
