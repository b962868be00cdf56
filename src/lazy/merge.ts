/**
 * The merge of a lazy snippet into a file's lines, once its code lines are
 * aligned (align.ts): walk the snippet; an aligned line takes the file's
 * line (its bytes kept); an unaligned line is new and is written re-indented
 * to the file; a marker keeps the file's lines from where the walk stands to
 * the next aligned line (or to the end of the block it sits in); the file's
 * lines skipped between two aligned lines with no marker between are
 * deleted (the context-around-a-gap convention). Before and after the
 * snippet's first and last code, the file is kept.
 *
 * Refused (never guessed): a run of new lines between two markers (its
 * place is anywhere in what they keep), a segment whose lines stand in
 * several places, a deletion of many lines no marker or removal note
 * covers (a marker the model forgot).
 */
import { EditError } from "../errors.ts";
import { type Alignment, lineKey, similarity } from "./align.ts";
import { blockAt, indentWidth, isBlank } from "./blocks.ts";
import { onlyCopiedLines } from "./copied-lines.ts";
import { twinBlock, twinBlockError } from "./twin-blocks.ts";
import { checkDeadAfterDeletion } from "./dead-after-deletion.ts";
import { checkDeadAfterExit } from "./dead-after-exit.ts";
import type { SnippetLine } from "./markers.ts";
import { unexplainedMoves } from "./moved-lines.ts";
import { checkLoneAnchorDepth } from "./lone-anchor-depth.ts";
import { namesPassedLine } from "./passed-line-note.ts";
import { settledShift } from "./segment-shift.ts";

/**
 * Most non-blank lines a deletion between two aligned lines may take beyond
 * the new lines that replace it, without a removal note. A larger gap means
 * the model forgot a marker there far more often than it meant to delete
 * (bench:lazy: every rendered deletion of real edits is under 20 lines).
 */
export const MAX_UNMARKED_DELETION = 20;

export interface MergeStats {
  /** Snippet code lines found in the file. */
  aligned: number;
  /** Snippet code lines written as new. */
  added: number;
  /** File lines kept for the markers. */
  kept: number;
  /** File lines deleted (replaced or removed). */
  deleted: number;
  markers: number;
}

export interface Segment {
  /** 0-based snippet lines [start, end). */
  start: number;
  end: number;
}

/** Runs of code lines between markers (blank-only runs left out). */
export function segmentsOf(snip: readonly SnippetLine[]): Segment[] {
  const out: Segment[] = [];
  let k = 0;
  while (k < snip.length) {
    if (snip[k]?.kind !== "code") {
      k++;
      continue;
    }
    const start = k;
    while (k < snip.length && snip[k]?.kind === "code") k++;
    let any = false;
    for (let j = start; j < k && !any; j++) any = !isBlank(snip[j]?.text as string);
    if (any) out.push({ start, end: k });
  }
  return out;
}

export function quoteLine(text: string): string {
  const t = text.trim();
  return `"${t.length > 70 ? `${t.slice(0, 67)}...` : t}"`;
}

/** How each snippet line's indentation maps onto the file's, per segment (its most common shift). */
function reindenter(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], seg: Segment | undefined, fallback: [string, string]): (line: SnippetLine) => string {
  const votes = new Map<number, [string, string, number]>();
  if (seg) {
    for (let s = seg.start; s < seg.end; s++) {
      const f = al.fileLine[s] as number;
      const line = snip[s] as SnippetLine;
      if (f < 0 || isBlank(line.text)) continue;
      const fi = (fileLines[f] as string).slice(0, (fileLines[f] as string).length - (fileLines[f] as string).trimStart().length);
      const shift = fi.length - line.indent.length;
      const v = votes.get(shift);
      if (v) v[2]++;
      else votes.set(shift, [line.indent, fi, 1]);
    }
  }
  let best: [string, string] = fallback;
  let bestCount = 0;
  if (seg && votes.size > 1) {
    // A shift the run's ends show for certain (segment-shift.ts); else the new lines' depth is a guess.
    const settled = settledShift(snip, al, fileLines, seg);
    const vote = settled === undefined ? undefined : votes.get(settled);
    if (!vote) refuseMixedShifts(snip, al, fileLines, seg, votes);
    else return shifter(vote[0], vote[1]);
  }
  for (const [si, fi, n] of votes.values()) {
    if (n > bestCount) {
      best = [si, fi];
      bestCount = n;
    }
  }
  return shifter(best[0], best[1]);
}

/** A line written with snippet indentation `si` moved to the file's `fi`. */
function shifter(si: string, fi: string): (line: SnippetLine) => string {
  return (line) => {
    if (si === fi) return line.text;
    if (isBlank(line.text)) return "";
    const body = line.text.trimStart();
    if (line.indent.startsWith(si)) return fi + line.indent.slice(si.length) + body;
    return fi.slice(0, Math.max(0, fi.length - (si.length - line.indent.length))) + body;
  };
}

/**
 * A segment whose aligned lines stand in the file at different depths than
 * in the snippet, by different amounts: some of them are aligned with the
 * wrong lines (an `else:` or `return x` of another block), or the model
 * re-indented part of what it copied. Either way the new lines' depth is a
 * guess (bench:lazy: 163 wrong merges wrote a whole segment one level off).
 */
function refuseMixedShifts(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], seg: Segment, votes: Map<number, [string, string, number]>): void {
  const shifts = [...votes.keys()];
  const lines: string[] = [];
  for (let s = seg.start; s < seg.end && lines.length < 4; s++) {
    const f = al.fileLine[s] as number;
    const line = snip[s] as SnippetLine;
    if (f < 0 || isBlank(line.text)) continue;
    const fl = fileLines[f] as string;
    const shift = fl.length - fl.trimStart().length - line.indent.length;
    if (lines.length === 0 || shift !== shifts[0]) lines.push(`snippet line ${s + 1} at file line ${f + 1} (indented ${shift >= 0 ? "+" : ""}${shift})`);
  }
  const first = snip.slice(seg.start, seg.end).find((l) => !isBlank(l.text)) as SnippetLine;
  throw new EditError(
    "AMBIGUOUS",
    `The part at snippet line ${first.index + 1} (${quoteLine(first.text)}) matches file lines indented by different amounts than in the snippet (${lines.join("; ")}): some of its lines match the wrong places, or were re-indented. Copy the unchanged lines around the change exactly, with their indentation.`,
    { segment: first.index + 1, candidates: [...new Set(snip.slice(seg.start, seg.end).map((l) => al.fileLine[l.index] as number).filter((f) => f >= 0))].slice(0, 20).map((f) => ({ startLine: f + 1, endLine: f + 1 })) },
  );
}

/** Where a marker's kept text must stop: the end of the block its opener (an aligned, shallower line before it) opens. */
export function markerLimits(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[]): Map<number, number> {
  const limits = new Map<number, number>();
  const used = new Set<number>();
  for (const f of al.fileLine) if (f >= 0) used.add(f);
  for (let m = 0; m < snip.length; m++) {
    const marker = snip[m] as SnippetLine;
    if (marker.kind === "code") continue;
    const depth = indentWidth(marker.text);
    let o = m - 1;
    while (o >= 0 && (snip[o]?.kind !== "code" || isBlank(snip[o]?.text as string) || indentWidth(snip[o]?.text as string) >= depth)) o--;
    if (o < 0 || (al.fileLine[o] as number) < 0) continue;
    const block = blockAt(fileLines, al.fileLine[o] as number);
    if (!block) continue;
    limits.set(m, block.bodyEnd);
    // The snippet's closing line of that block (`}` at the opener's depth) is the file's.
    if (block.close === undefined || used.has(block.close)) continue;
    const openerDepth = indentWidth(snip[o]?.text as string);
    for (let c = m + 1; c < snip.length; c++) {
      const line = snip[c] as SnippetLine;
      if (line.kind !== "code" || isBlank(line.text)) continue;
      if ((al.fileLine[c] as number) >= 0) {
        if ((al.fileLine[c] as number) < block.close) continue;
        break;
      }
      if (indentWidth(line.text) > openerDepth) continue;
      if (lineKey(line.text) === lineKey(fileLines[block.close] as string)) {
        al.fileLine[c] = block.close;
        used.add(block.close);
      }
      break;
    }
  }
  return limits;
}

/** Refuses segments whose place the alignment could not tell. */
export function checkSegments(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], fileIndex: Map<string, number[]>, limits: Map<number, number>): void {
  const moved = al.outOfOrder ? unexplainedMoves(snip, al, fileLines) : [];
  const copied = moved.length > 0 && onlyCopiedLines(snip, al, moved);
  // Copies from elsewhere, unless one stands in a twin of a block the snippet opens (twin-blocks.ts).
  const twin = copied ? twinBlock(snip, al.fileLine, fileLines, fileIndex, moved) : undefined;
  if (twin) throw twinBlockError(snip, fileLines, twin, quoteLine);
  if (moved.length > 0 && !copied) {
    const [snippetLine, fileLine] = moved[0] as readonly [number, number];
    const text = (snip[snippetLine] as SnippetLine).text;
    throw new EditError(
      "CONFLICT",
      `Snippet line ${snippetLine + 1} (${quoteLine(text)}) is file line ${fileLine + 1}, but out of the order of the lines around it: code moved or copied, which a snippet cannot show safely. Move code with two edits (delete it where it was, insert it where it goes), or show the unchanged lines around each place.`,
      { segment: snippetLine + 1, candidates: [{ startLine: fileLine + 1, endLine: fileLine + 1 }] },
    );
  }
  const segs = segmentsOf(snip);
  if (segs.length === 0) {
    throw new EditError("NOT_FOUND", `The snippet has no code between its markers (snippet line 1 to ${snip.length} are markers and blank lines), so there is nothing to place. Send the changed code with an unchanged line of the file around it.`, { segment: 1 });
  }
  for (const g of segs) {
    if (hasAligned(al, g)) continue;
    const before = g.start > 0 ? snip[g.start - 1] : undefined;
    const after = g.end < snip.length ? snip[g.end] : undefined;
    const first = snip.slice(g.start, g.end).find((l) => !isBlank(l.text)) as SnippetLine;
    const places = (fileIndex.get(lineKey(first.text)) ?? []).slice(0, 20);
    const where = `The lines at snippet line ${first.index + 1} (${quoteLine(first.text)})`;
    if (places.length >= 2) {
      throw new EditError(
        "AMBIGUOUS",
        `${where} stand in ${places.length} places of the file (lines ${places.map((p) => p + 1).join(", ")}), and no unique line around them tells which. Include a line of the file next to them that occurs once.`,
        { segment: first.index + 1, candidates: places.map((p) => ({ startLine: p + 1, endLine: p + 1 })) },
      );
    }
  if (!segs.some((x) => hasAligned(al, x))) {
    const first = segs[0];
    const line = first ? (snip.slice(first.start, first.end).find((l) => !isBlank(l.text)) as SnippetLine) : undefined;
    throw new EditError(
      "NOT_FOUND",
      `None of the snippet's code is in the file${line ? ` (its first line ${quoteLine(line.text)} is at snippet line ${line.index + 1})` : ""}, so there is nothing to place it by. Copy at least one unchanged line around each change from the file, exactly, and mark the parts you leave out with "// ... existing code ...".`,
      { segment: first ? first.start + 1 : 1 },
    );
  }
    // New code after the last marker goes at the end (of the file, or of the block the marker is in);
    // before the first, at the start; between two markers, anywhere in what they keep.
    // A marker after it as deep as the one before it is in the same block: the block's end is not its place.
    const placedByBlock = before !== undefined && limits.has(before.index) && (after === undefined || indentWidth(after.text) < indentWidth(before.text));
    if (before === undefined || after === undefined || placedByBlock) continue;
    const prev = lastAlignedBefore(al, g.start);
    const next = firstAlignedAfter(al, g.end);
    const from = prev === undefined ? 1 : prev + 2;
    const to = next === undefined ? fileLines.length : next;
    throw new EditError(
      "AMBIGUOUS",
      `${where} are new, and stand between two markers: their place could be anywhere in lines ${from}-${to} that the markers keep. Include the unchanged line of the file just before (or after) them.`,
      { segment: first.index + 1, candidates: [{ startLine: from, endLine: to }] },
    );
  }
  checkLoneAnchorDepth(snip, al, fileLines, segs);
}

function hasAligned(al: Alignment, g: Segment): boolean {
  for (let s = g.start; s < g.end; s++) if ((al.fileLine[s] as number) >= 0) return true;
  return false;
}

function lastAlignedBefore(al: Alignment, s: number): number | undefined {
  for (let k = s - 1; k >= 0; k--) if ((al.fileLine[k] as number) >= 0) return al.fileLine[k] as number;
  return undefined;
}

function firstAlignedAfter(al: Alignment, s: number): number | undefined {
  for (let k = s; k < al.fileLine.length; k++) if ((al.fileLine[k] as number) >= 0) return al.fileLine[k] as number;
  return undefined;
}

/** The merged lines. */
export function walkSnippet(snip: readonly SnippetLine[], al: Alignment, fileLines: readonly string[], limits: Map<number, number>): { lines: string[]; stats: MergeStats } {
  const out: string[] = [];
  /** Per merged line, the snippet line it was written from as new, or -1 - its file line (kept or aligned). */
  // Typed, at its largest length (each file and snippet line written once at most): a 100k-line file's
  // kept lines took as long to push as everything else the merge does.
  const fresh = new Int32Array(fileLines.length + snip.length);
  const stats: MergeStats = { aligned: 0, added: 0, kept: 0, deleted: 0, markers: 0 };
  const segs = segmentsOf(snip);
  const segOf = new Int32Array(snip.length).fill(-1);
  segs.forEach((g, k) => {
    for (let s = g.start; s < g.end; s++) segOf[s] = k;
  });
  const indenters = segs.map((g) => reindenter(snip, al, fileLines, g, ["", ""]));
  let cursor = 0;
  let started = false;
  let removal: SnippetLine | undefined;
  let pending: Pending[] = [];
  let lastAligned = -1;
  /** Where the file lines the snippet's current run of code passed begin (after the last marker's kept lines). */
  let passedFrom = 0;
  /** The file lines the last marker kept, while nothing else was written after them. */
  let kept: [number, number] | undefined;
  const flush = (side?: { before?: [number, number]; after?: [number, number] }) => {
    if (side) pending = fitToKept(pending, fileLines, side);
    for (const l of pending) {
      out.push(l.text);
      fresh[out.length - 1] = l.index;
    }
    stats.added += pending.length;
    pending = [];
  };
  const keep = (to: number) => {
    for (; cursor < to; cursor++) {
      out.push(fileLines[cursor] as string);
      fresh[out.length - 1] = -cursor - 1;
    }
  };
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s] as SnippetLine;
    const f = al.fileLine[s] as number;
    if (line.kind === "code" && f < 0) {
      const ind = indenters[segOf[s] as number];
      pending.push({ text: ind ? ind(line) : line.text, index: s });
      continue;
    }
    if (line.kind === "code" && kept !== undefined && kept[1] === f && isBlank(line.text) && isBlank(fileLines[f] as string) && pending.length > 0 && !isBlank((pending[0] as Pending).text) && !isBlank(out[out.length - 1] ?? "")) {
      // New lines after a marker, then a blank line, then the file's next line: the file's blank line
      // stays where it was (after the kept lines) and the snippet's closes the new lines.
      keep(f + 1);
      kept = [kept[0], f + 1];
      pending.push({ text: line.text, index: s });
      continue;
    }
    if (line.kind === "code") {
      if (!started) {
        keep(f);
        passedFrom = f;
      }
      if (f < cursor) throw new EditError("CONFLICT", `Snippet line ${s + 1} (${quoteLine(line.text)}) matches file line ${f + 1}, which an earlier part of the snippet already covers: the snippet's parts are out of the file's order.`, { segment: s + 1, candidates: [{ startLine: f + 1, endLine: f + 1 }] });
      checkDeletion(fileLines, cursor, f, pending, removal, snip, lastAligned, s);
      stats.deleted += f - cursor;
      const adjacent = kept !== undefined && kept[1] === f;
      cursor = f;
      flush(adjacent ? { before: kept } : undefined);
      kept = undefined;
      const ind = indenters[segOf[s] as number];
      const written = ind ? ind(line) : line.text;
      out.push(alignedBytes(line.text, written, fileLines[f] as string, al.similar[s] === 1));
      fresh[out.length - 1] = -f - 1;
      if (al.similar[s]) stats.deleted++;
      else stats.aligned++;
      cursor = f + 1;
      lastAligned = s;
      started = true;
      removal = undefined;
      continue;
    }
    started = true;
    stats.markers++;
    const next = firstAlignedAfter(al, s + 1);
    const limit = limits.get(s);
    let end = next ?? fileLines.length;
    if (limit !== undefined && limit < end && limit >= cursor) end = stopAtBlockEnd(snip, al, s, limit, next);
    if (line.kind === "removal" && end === cursor && namesPassedLine(line, fileLines, passedFrom, cursor)) {
      // Nothing between its neighbours, and the line it names is one the run before it passed.
      stats.markers--;
      continue;
    }
    if (line.kind === "removal" && end === cursor) {
      // Nothing between its neighbours: a new comment that starts with "Remove", not a removal note.
      pending.push({ text: indenters[segOf[s - 1] ?? -1]?.(line) ?? line.text, index: s });
      stats.markers--;
      continue;
    }
    flush(line.kind === "marker" && end > cursor ? { after: [cursor, end] } : undefined);
    if (line.kind === "removal") {
      if (next === undefined && limit === undefined) {
        throw new EditError("CONFLICT", `The removal note at snippet line ${s + 1} (${quoteLine(line.text)}) has no code of the file after it, so what it removes has no end. Show the unchanged line after the removed code.`, { segment: s + 1 });
      }
      removal = line;
      continue;
    }
    stats.kept += Math.max(0, end - cursor);
    kept = end > cursor ? [cursor, end] : kept;
    keep(end);
    passedFrom = cursor;
  }
  flush();
  if (snip.length === 0 || snip[snip.length - 1]?.kind === "code" || cursor < fileLines.length) {
    // After the last code line (or a marker that stopped at its block's end), the rest is kept.
    if (removal) {
      stats.deleted += fileLines.length - cursor;
      cursor = fileLines.length;
    }
    keep(fileLines.length);
  }
  checkUnreachable(out, fresh);
  checkDeadAfterExit(snip, out, fresh);
  checkDeadAfterDeletion(out, fresh, fileLines, snip, al);
  return { lines: out, stats };
}

/**
 * Where a marker inside a block stops when the snippet's next aligned line
 * lies past the block's end: at the block's end when new lines follow the
 * marker (they go at the block's end). When the snippet's next line is the
 * file's, the code after the block up to it is kept too: a marker stands for
 * existing code, and deleting it would be a deletion the snippet does not
 * show (bench:lazy: 10 wrong merges dropped the lines after the block).
 */
function stopAtBlockEnd(snip: readonly SnippetLine[], al: Alignment, m: number, limit: number, next: number | undefined): number {
  if (next === undefined) return limit;
  let k = m + 1;
  while (k < snip.length && (al.fileLine[k] as number) < 0 && snip[k]?.kind === "code" && isBlank(snip[k]?.text as string)) k++;
  if (k >= snip.length || (al.fileLine[k] as number) < 0) return limit;
  return next;
}

/**
 * What an aligned line writes: the file's bytes where the snippet has the
 * same line (models drop trailing whitespace from the lines they copy), the
 * model's where it changed the line or its indentation. A blank line the
 * snippet writes with whitespace where the file's is empty keeps the
 * snippet's: models drop whitespace, they do not add it, and blank lines
 * pair with any blank line (bench:lazy: 46 merges paired the snippet's
 * indented blank line with the file's empty one and wrote the snippet's
 * empty one as new, moving the whitespace off the line it was on).
 */
function alignedBytes(text: string, written: string, fileLine: string, similar: boolean): string {
  if (similar || written.trimEnd() !== fileLine.trimEnd()) return written;
  return fileLine === "" && isBlank(text) && text !== "" ? text : fileLine;
}

interface Pending {
  text: string;
  /** 0-based snippet line. */
  index: number;
}

// A new line at least this similar to a line a marker keeps next to it may be that line changed.
const LOOKS_CHANGED = 0.75;

/** Similar, or one is the other with words added (`Run it.` -> `Run it with npx.`). */
export function looksChanged(a: string, b: string): boolean {
  const bare = (t: string) => t.replace(/[\s.,;:!?]+$/, "");
  const [x, y] = [bare(a), bare(b)];
  return similarity(a, b) >= LOOKS_CHANGED || (Math.min(x.length, y.length) >= 5 && (x.startsWith(y) || y.startsWith(x)));
}

/**
 * New lines written next to the lines a marker keeps (`before`: the kept
 * lines come first; `after`: they follow): blank lines the kept text already
 * has at that edge are not doubled, and a new line that looks like one of
 * the kept lines beside it is refused: it may be that line changed (then the
 * marker should not keep it) or a new line next to it, and the snippet does
 * not say which.
 */
function fitToKept(pending: Pending[], fileLines: readonly string[], side: { before?: [number, number]; after?: [number, number] }): Pending[] {
  let list = pending;
  const range = (side.before ?? side.after) as [number, number];
  const [a, b] = range;
  if (side.before) {
    let blanks = 0;
    for (let k = b - 1; k >= a && isBlank(fileLines[k] as string); k--) blanks++;
    let drop = 0;
    while (drop < list.length && drop < blanks && isBlank((list[drop] as Pending).text)) drop++;
    list = list.slice(drop);
  } else {
    let blanks = 0;
    for (let k = a; k < b && isBlank(fileLines[k] as string); k++) blanks++;
    let drop = 0;
    while (drop < list.length && drop < blanks && isBlank((list[list.length - 1 - drop] as Pending).text)) drop++;
    list = list.slice(0, list.length - drop);
  }
  // The new line next to the kept lines, against the two kept lines nearest it.
  const edge = side.before ? list.find((p) => !isBlank(p.text)) : [...list].reverse().find((p) => !isBlank(p.text));
  if (!edge) return list;
  const near: number[] = [];
  if (side.before) for (let k = b - 1; k >= a && near.length < 2; k--) if (!isBlank(fileLines[k] as string)) near.push(k);
  if (side.after) for (let k = a; k < b && near.length < 2; k++) if (!isBlank(fileLines[k] as string)) near.push(k);
  const key = lineKey(edge.text);
  for (const k of near) {
    const fk = lineKey(fileLines[k] as string);
    // The same line again is a line added beside it (a second `continue;`), not a change.
    if (key.length < 6 || fk === key || !looksChanged(key, fk)) continue;
    throw new EditError(
      "AMBIGUOUS",
      `The new line at snippet line ${edge.index + 1} (${quoteLine(edge.text)}) looks like file line ${k + 1} (${quoteLine(fileLines[k] as string)}), which the marker next to it keeps: it may be that line changed, or a line added beside it. Show the unchanged line on its other side, so the snippet says which.`,
      { segment: edge.index + 1, candidates: [{ startLine: k + 1, endLine: k + 1 }] },
    );
  }
  return list;
}

const EXITS = /^(?:return|raise|throw)\b/;

/**
 * A new `return` (`raise`, `throw`) and one of the file's that the merge put
 * next to each other at the same depth: the second could never run. The
 * snippet's is most likely the file's changed (the model changed a block's
 * last line and left a marker after it, which keeps the old one), but the
 * snippet does not say so (bench:lazy: 18 wrong merges kept both). Refused.
 */
function checkUnreachable(out: readonly string[], fresh: ArrayLike<number>): void {
  for (const i of besideNewLines(out, fresh)) {
    const line = out[i] as string;
    if (!EXITS.test(line.trim())) continue;
    let j = i + 1;
    while (j < out.length && isBlank(out[j] as string)) j++;
    if (j >= out.length || ((fresh[i] as number) < 0) === ((fresh[j] as number) < 0)) continue;
    const next = out[j] as string;
    if (indentWidth(next) !== indentWidth(line) || !EXITS.test(next.trim())) continue;
    const [mine, theirs] = (fresh[i] as number) >= 0 ? [i, j] : [j, i];
    const s = fresh[mine] as number;
    const f = -(fresh[theirs] as number) - 1;
    throw new EditError(
      "AMBIGUOUS",
      `The new line at snippet line ${s + 1} (${quoteLine(out[mine] as string)}) would stand ${mine < theirs ? "before" : "after"} file line ${f + 1} (${quoteLine(out[theirs] as string)}) at the same depth, so the second could never run: the snippet's line may replace the file's. Show the file's line (changed or as it is) instead of leaving it to a marker.`,
      { segment: s + 1, candidates: [{ startLine: f + 1, endLine: f + 1 }] },
    );
  }
}

/**
 * The merged lines whose next non-blank line is new where they are the
 * file's, or the reverse (ascending): the only ones checkUnreachable can
 * refuse. Found from where the lines turn from kept to new, not by testing
 * every line of the file (a 100k-line file's every line trimmed and tested).
 */
function besideNewLines(out: readonly string[], fresh: ArrayLike<number>): number[] {
  const found: number[] = [];
  for (let p = 0; p + 1 < out.length; p++) {
    if (((fresh[p] as number) < 0) === ((fresh[p + 1] as number) < 0)) continue;
    let i = p;
    while (i >= 0 && isBlank(out[i] as string)) i--;
    if (i >= 0 && found[found.length - 1] !== i) found.push(i);
  }
  return found;
}

function checkDeletion(fileLines: readonly string[], from: number, to: number, pending: readonly Pending[], removal: SnippetLine | undefined, snip: readonly SnippetLine[], prev: number, s: number): void {
  if (removal || to - from <= MAX_UNMARKED_DELETION) return;
  let gone = 0;
  for (let k = from; k < to; k++) if (!isBlank(fileLines[k] as string)) gone++;
  let added = 0;
  for (const l of pending) if (!isBlank(l.text)) added++;
  if (gone - added <= MAX_UNMARKED_DELETION) return;
  const after = snip[s] as SnippetLine;
  const before = prev >= 0 ? (snip[prev] as SnippetLine) : undefined;
  throw new EditError(
    "CONFLICT",
    `Between ${before ? `snippet line ${before.index + 1} (${quoteLine(before.text)})` : "the start of the snippet"} and snippet line ${after.index + 1} (${quoteLine(after.text)}) the merge would delete file lines ${from + 1}-${to} (${gone} lines of code) that no marker keeps. If they stay, put "// ... existing code ..." between those lines; if they go, say so with a "// remove ..." note there.`,
    { segment: after.index + 1, candidates: [{ startLine: from + 1, endLine: to }] },
  );
}
