/**
 * Applies the ops of one anchored call (anchored-parse.ts) to a file's
 * text: every ref is placed first (anchored-resolve.ts), then all edits are
 * written together in one pass, so each ref means the version the model
 * read whatever the other edits do (the "bottom-up" of hashline tools).
 * All or nothing: one ref that cannot be placed, a range that moved apart
 * or changed inside, or two edits on the same lines, and nothing is written.
 */
import { carryOver } from "../engine/carry-over.ts";
import { EditError } from "../errors.ts";
import { hasCrLines } from "../text/cr-lines.ts";
import { type AnchoredOp, type AnchoredPayload, isInsert, type RangeOp, type TagRef } from "./anchored-parse.ts";
import { findReadVersion, freshLines, mapVersion, type ResolveContext, resolveRef, type TagFound, TaggedLines, type VersionMap } from "./anchored-resolve.ts";
import type { FileApplyResult, OpOutcome } from "./types.ts";

export interface AnchoredApplyOptions {
  /** The path as reported. */
  path: string;
  /** Earlier texts of the file the model may have read, oldest first. @default [] */
  versions?: readonly string[];
}

interface Layout {
  lines: string[];
  sep: string;
  finalBreak: boolean;
}

/** A text's lines as the view numbers them: CR-only files split at CR; a final break ends the last line. */
export function splitText(text: string): Layout {
  const sep = hasCrLines(text) ? "\r" : "\n";
  if (text === "") return { lines: [], sep, finalBreak: true };
  const lines = text.split(sep);
  const finalBreak = lines.at(-1) === "";
  if (finalBreak) lines.pop();
  return { lines, sep, finalBreak };
}

function joinText(layout: Layout, lines: readonly string[]): string {
  if (lines.length === 0) return "";
  return lines.join(layout.sep) + (layout.finalBreak ? layout.sep : "");
}

/** One op placed: remove `remove` lines at `start` (0-based) and put `insert` there. */
interface Splice {
  start: number;
  remove: number;
  insert: readonly string[];
  op: AnchoredOp;
  found: TagFound;
}

function refsOf(op: AnchoredOp): TagRef[] {
  if (isInsert(op)) return typeof op.at === "string" ? [] : [op.at];
  return op.to ? [op.from, op.to] : [op.from];
}

function label(op: AnchoredOp, field: string): string {
  return `Edit ${op.index + 1} (${op.op}, ${field})`;
}

const WEAKEST: readonly TagFound[] = ["line-checked", "anchor-history", "anchor-moved", "anchor"];

/** Places one op on the current lines, or says why it cannot be placed. */
function place(op: AnchoredOp, base: Omit<ResolveContext, "label">): Splice | EditError {
  const n = base.current.lines.length;
  if (isInsert(op)) {
    if (op.at === "start" || op.at === "end") return { start: op.at === "start" ? 0 : n, remove: 0, insert: op.lines, op, found: "anchor" };
    const at = resolveRef(op.at, { ...base, label: label(op, "at") });
    if ("error" in at) return at.error;
    return { start: op.op === "insert_after" ? at.line : at.line - 1, remove: 0, insert: op.lines, op, found: at.found };
  }
  const from = resolveRef(op.from, { ...base, label: label(op, "from") });
  if ("error" in from) return from.error;
  if (!op.to) return { start: from.line - 1, remove: 1, insert: op.lines, op, found: from.found };
  const to = resolveRef(op.to, { ...base, label: label(op, "to") });
  if ("error" in to) return to.error;
  const moved = rangeMoved(op.from, op.to, from.line, to.line, base.read);
  if (moved) return rangeConflict(op, moved, from.line, to.line, base);
  const found = WEAKEST.find((f) => f === from.found || f === to.found) ?? "anchor";
  return { start: from.line - 1, remove: to.line - from.line + 1, insert: op.lines, op, found };
}

/** Why the lines of a range did not stay together, or undefined when they did. */
function rangeMoved(from: TagRef, to: TagRef, a: number, b: number, read: VersionMap | undefined): string | undefined {
  if (read && from.hash !== undefined && to.hash !== undefined) {
    // Every line of the range as read must be kept, in one run: a line changed, added or removed inside is a change the model did not see.
    for (let i = from.line; i <= to.line; i++) {
      if (read.map[i - 1] !== a - 1 + (i - from.line)) return "lines inside it have changed since you read the file";
    }
    return undefined;
  }
  if (b - a !== to.line - from.line) return `its first line is now line ${a} and its last line ${b}, ${b - a + 1} lines where you read ${to.line - from.line + 1}: lines inside it were added or removed`;
  return undefined;
}

function rangeConflict(op: RangeOp, why: string, a: number, b: number, base: Omit<ResolveContext, "label">): EditError {
  const first = Math.min(a, b) - 2;
  const last = Math.max(a, b) + 2;
  return new EditError(
    "CONFLICT",
    `Edit ${op.index + 1} (${op.op}, ${op.from.raw.trim()} to ${op.to?.raw.trim()}): ${why}. Nothing was written.\nLines ${Math.max(1, first)}-${Math.min(base.current.lines.length, last)} of ${base.path} now read:\n${freshLines(base.current, first, last)}\nSend the edit again with these tags.`,
    { path: base.path, startLine: a, endLine: b, index: op.index },
  );
}

/** The text after all splices (placed on the same lines), in one pass. */
function spliceAll(lines: readonly string[], splices: readonly Splice[]): string[] {
  // Insertions at a place come before a replacement starting there; edits at one place keep the call's order.
  const order = [...splices].sort((x, y) => x.start - y.start || (x.remove === 0 ? 0 : 1) - (y.remove === 0 ? 0 : 1) || x.op.index - y.op.index);
  const out: string[] = [];
  let at = 0;
  for (const s of order) {
    while (at < s.start) out.push(lines[at++] as string);
    for (const l of s.insert) out.push(l);
    at += s.remove;
  }
  while (at < lines.length) out.push(lines[at++] as string);
  return out;
}

/** Two placed edits on the same lines: the later one's CONFLICT. Quadratic in the edits of one call, which are few. */
function overlap(splices: readonly Splice[], path: string): Map<Splice, EditError> {
  const bad = new Map<Splice, EditError>();
  for (const [k, x] of splices.entries()) {
    for (const y of splices.slice(k + 1)) {
      if (!clash(x, y)) continue;
      const [first, second] = x.op.index < y.op.index ? [x, y] : [y, x];
      const wide = x.remove >= y.remove ? x : y;
      bad.set(
        second,
        new EditError(
          "CONFLICT",
          `Edit ${second.op.index + 1} (${second.op.op}) and edit ${first.op.index + 1} (${first.op.op}) change the same lines (${wide.start + 1}-${wide.start + wide.remove}). Nothing was written: merge them into one edit.`,
          { path, index: second.op.index, startLine: wide.start + 1, endLine: wide.start + wide.remove },
        ),
      );
    }
  }
  return bad;
}

/** Replaced ranges that share a line, or an insertion strictly inside a replaced range (at either edge it is beside it). */
function clash(x: Splice, y: Splice): boolean {
  if (x.remove > 0 && y.remove > 0) return x.start < y.start + y.remove && y.start < x.start + x.remove;
  if (x.remove === 0 && y.remove === 0) return false;
  const [insert, range] = x.remove === 0 ? [x, y] : [y, x];
  return range.start < insert.start && insert.start < range.start + range.remove;
}

function outcome(s: Splice): OpOutcome {
  const endLine = s.remove > 0 ? s.start + s.remove : s.start;
  return { status: "applied", strategy: s.found, startLine: Math.max(1, s.remove > 0 ? s.start + 1 : s.start), endLine: Math.max(1, endLine), score: 1, fuzzy: false };
}

/**
 * Sent again after it was applied: made on the version read, the call's
 * change is already in the file (a merge of it into the file changes
 * nothing, other writers' changes elsewhere included).
 */
function alreadyApplied(payload: AnchoredPayload, version: TaggedLines, versionText: string, content: string): boolean {
  const placed = payload.ops.map((op) => place(op, { current: version, path: "" }));
  if (placed.some((p) => p instanceof EditError)) return false;
  const made = joinText(splitText(versionText), spliceAll(version.lines, placed as Splice[]));
  if (made === versionText) return false;
  if (made === content) return true;
  const carried = carryOver(versionText, content, made);
  return carried.conflict === undefined && carried.text === content;
}

/** A line that tells an insertion apart from its neighbours: not blank, not only brackets or punctuation. */
const TELLING = /[\p{L}\p{N}]/u;

/**
 * Without the version the model read, a call sent again after it was
 * written is recognised for insertions only (a replaced line's tag no longer
 * matches, so a replacement sent again is refused anyway): every op inserts,
 * and each one's lines, one of them telling, already stand right beside its
 * place (after it once inserted after the anchor; before it, before).
 */
function insertionsStand(splices: readonly Splice[], lines: readonly string[]): boolean {
  if (splices.length === 0) return false;
  const beside = (s: Splice, from: number) => from >= 0 && s.insert.every((line, k) => lines[from + k] === line);
  return splices.every((s) => s.remove === 0 && s.insert.some((l) => TELLING.test(l)) && (beside(s, s.start) || beside(s, s.start - s.insert.length)));
}

/** Applies one call's ops to `content`. Throws ALREADY_APPLIED when the call, made on the version read, gives the file as it is. */
export function applyAnchored(content: string, payload: AnchoredPayload, options: AnchoredApplyOptions): FileApplyResult {
  const layout = splitText(content);
  const current = new TaggedLines(layout.lines);
  const refs = payload.ops.flatMap(refsOf);
  const found = findReadVersion(options.versions ?? [], content, refs, (t) => splitText(t).lines);
  const read = found ? mapVersion(found.version, current) : undefined;
  if (found && alreadyApplied(payload, found.version, found.text, content)) {
    throw new EditError("ALREADY_APPLIED", `already applied (these edits, made on the version of ${options.path} you read, are in the file as it is now); nothing to do.`);
  }
  const base = { current, path: options.path, ...(read && { read }) };
  const placed = payload.ops.map((op) => place(op, base));
  const splices = placed.filter((p): p is Splice => !(p instanceof EditError));
  const conflicts = overlap(splices, options.path);
  const ops: OpOutcome[] = placed.map((p) => {
    if (p instanceof EditError) return { status: "failed", error: p };
    const conflict = conflicts.get(p);
    return conflict ? { status: "failed", error: conflict } : outcome(p);
  });
  if (ops.some((o) => o.status === "failed")) return { ops };
  if (!found && insertionsStand(splices, layout.lines)) {
    throw new EditError(
      "ALREADY_APPLIED",
      `already applied: the lines to insert already stand at their place in ${options.path} (the call sent again?); nothing to do. To add them once more, replace the line beside them with it and the copies.`,
    );
  }
  const lines = spliceAll(layout.lines, splices);
  // An empty file given lines ends them with a break, as a file of lines does.
  const out = layout.lines.length === 0 ? { ...layout, finalBreak: true } : layout;
  return { content: joinText(out, lines), ops };
}
