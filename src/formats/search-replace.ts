/**
 * `applySearchReplace()`: SEARCH/REPLACE blocks (see search-replace-parse.ts
 * for the grammar) applied to one file's content on the shared engine.
 *
 * How a diff is applied:
 *
 * 1. Parse. A marker mistake anywhere in the diff text is thrown as PARSE:
 *    nothing is applied, because block boundaries themselves are in doubt.
 *    Each block is then checked on its own (`validateBlock`): an empty
 *    SEARCH or SEARCH === REPLACE fails that block only.
 * 2. Locate every block in the file the model read, through the preset's
 *    cascade (all the tolerance of `replace()`), with the block's
 *    `:start_line:` as the hint. A hint never picks a place by itself: it
 *    only decides between equally good candidates when one is clearly the
 *    nearest (`pickByHint` inside `locate`); otherwise the block is
 *    AMBIGUOUS with every candidate's lines.
 * 3. Splice the located blocks in file order, whatever order they were
 *    written in, all planned against the same text, so one block's
 *    replacement can never be mistaken for another block's SEARCH text.
 *    Two blocks whose matched ranges overlap are a CONFLICT: the one further
 *    down the file fails (it cannot be applied without guessing how the two
 *    edits combine).
 * 4. Blocks not located in step 2 (not found, or ambiguous) get a second try
 *    in the text as already edited, one at a time in order of their hint:
 *    models write a block that edits what an earlier block produced, or a
 *    bare block for the one copy an earlier block did not take. Their hints,
 *    which count lines of the ORIGINAL file, are shifted by the net line
 *    delta of every edit applied above them. A block that still fails
 *    reports the error from step 2, whose line numbers are those of the file
 *    the model read.
 *
 * Line-number prefixes: when every SEARCH line (and every REPLACE line, or
 * REPLACE is empty) carries a `12 | ` prefix (a model copying from a numbered
 * view), the first number is the block's hint unless it has its own. The
 * block is first located as written (real content may look numbered, and
 * the cascade's own line-numbers strategy strips what matches exactly), then
 * with the prefixes stripped through the whole cascade, then stripped
 * aggressively (`12: `, `12 `).
 *
 * Several diffs for one file (`[{ content, startLine? }]`, the apply_diff
 * tool form): applied in sequence, each on the result of the previous, with
 * failures accumulated. An item's `startLine` overrides the hint of its first
 * block (the tool puts it there for the block it describes); later blocks of
 * the item keep their own. A parse error of one item fails that item only.
 *
 * The caller decides whether partial success is written: `failed` non-empty
 * means not every block applied, and `content` holds the ones that did.
 */
import { EditError } from "../errors.ts";
import { PRESETS, type PresetName } from "../match/cascade.ts";
import { type Located, locate } from "../match/locate.ts";
import type { Candidate, StrategyName } from "../match/types.ts";
import { planSplice, renderSplices, type Splice } from "../splice.ts";
import { Document } from "../text/document.ts";
import { everyLineHasLineNumbers, firstLineNumber, stripLineNumbers } from "../text/line-numbers.ts";
import type { FileDiff } from "./search-replace-files.ts";
import { parseSearchReplace, type SearchReplaceBlock, validateBlock } from "./search-replace-parse.ts";

export interface SearchReplaceOptions {
  /** Which matcher cascade locates the blocks. @default "default" */
  preset?: PresetName;
  /**
   * Minimum similarity (0–1, Levenshtein over the normalised block) for the
   * similarity fallback; below it the block fails with the best match shown.
   * @default the preset's value: 0.9 for "default" (from the accuracy benchmark), 1 for "opencode"
   */
  fuzzyThreshold?: number;
  /** Lines around a hint within which a candidate counts as near it. @default 40 */
  hintWindow?: number;
  /**
   * A 1-based line hint for a diff given as text, as an item's `startLine`
   * does for the list form: it overrides the first block's `:start_line:`.
   * @default undefined
   */
  startLine?: number;
}

/** How one block was applied. */
export interface BlockReport {
  /** 0-based order of the block in its diff text. */
  index: number;
  /** 1-based line of the block's SEARCH marker in its diff text. */
  line: number;
  /** 0-based item of a list input; absent for a diff given as text. */
  diffIndex?: number;
  strategy: StrategyName;
  /**
   * Matched lines, 1-based inclusive, in the text the block was located in:
   * the file as given, or for a block that needed an earlier block's edit,
   * the file as edited by the blocks before it.
   */
  startLine: number;
  endLine: number;
  /** 1 for exact (after normalisation), lower for similarity matches. */
  score: number;
  /** True when found by a strategy other than exact text: worth a look. */
  fuzzy: boolean;
  /** Lines added minus lines removed. */
  lineDelta: number;
}

export interface SearchReplaceResult {
  /** The content with every block in `applied`. */
  content: string;
  /** Applied blocks, in the order they were applied (file order). */
  applied: BlockReport[];
  /** One error per block that was not applied, in the order the blocks were written. */
  failed: EditError[];
}

/** A diff as text, or several diffs for the same file applied in sequence. */
export type SearchReplaceInput = string | readonly FileDiff[];

interface ResolvedOptions {
  preset: PresetName;
  fuzzyThreshold: number;
  hintWindow: number;
  startLine: number | undefined;
}

const DEFAULTS = Object.freeze({ preset: "default" as PresetName, hintWindow: 40 });

function resolveOptions(options: SearchReplaceOptions): ResolvedOptions {
  const preset = options.preset ?? DEFAULTS.preset;
  if (!Object.hasOwn(PRESETS, preset)) {
    throw new EditError("INVALID_INPUT", `Unknown preset "${String(preset)}". Use "default" or "opencode".`);
  }
  const fuzzyThreshold = options.fuzzyThreshold ?? PRESETS[preset].options.fuzzyThreshold;
  if (typeof fuzzyThreshold !== "number" || !(fuzzyThreshold > 0 && fuzzyThreshold <= 1)) {
    throw new EditError("INVALID_INPUT", `fuzzyThreshold must be a number in (0, 1], got ${String(fuzzyThreshold)}.`);
  }
  const hintWindow = options.hintWindow ?? DEFAULTS.hintWindow;
  if (!Number.isInteger(hintWindow) || hintWindow < 0) {
    throw new EditError("INVALID_INPUT", `hintWindow must be a non-negative whole number of lines, got ${String(hintWindow)}.`);
  }
  return { preset, fuzzyThreshold, hintWindow, startLine: checkLine(options.startLine, "startLine") };
}

/** A line hint: a positive whole number, or none (0 is "unknown", as in `:start_line:0`). */
function checkLine(value: unknown, name: string): number | undefined {
  if (value === undefined || value === 0) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new EditError("INVALID_INPUT", `${name} must be a positive whole line number, got ${String(value)}.`);
  }
  return value;
}

/** One way of reading a block: as written, or with line-number prefixes stripped. */
interface Reading {
  search: string;
  replace: string;
  stripped: boolean;
}

interface PreparedBlock {
  block: SearchReplaceBlock;
  diffIndex: number | undefined;
  /** "Block 2 (line 14 of the diff)", the start of every message about it. */
  label: string;
  /** 1-based hint in the coordinates of the original content. */
  hint: number | undefined;
  readings: Reading[];
}

/** Line-number readings of a block, standard then aggressive, when both sections qualify. */
function numberedReadings(block: SearchReplaceBlock): Reading[] {
  const out: Reading[] = [];
  for (const aggressive of [false, true]) {
    const replaceOk = block.replace.trim() === "" || everyLineHasLineNumbers(block.replace, aggressive);
    if (!replaceOk || !everyLineHasLineNumbers(block.search, aggressive)) continue;
    const search = stripLineNumbers(block.search, aggressive);
    const replace = block.replace.trim() === "" ? block.replace : stripLineNumbers(block.replace, aggressive);
    // Stripping nothing away, or everything, is no reading at all.
    if (search.trim() === "" || out.some((r) => r.search === search)) continue;
    out.push({ search, replace, stripped: true });
  }
  return out;
}

function prepareBlock(block: SearchReplaceBlock, diffIndex: number | undefined, override: number | undefined): PreparedBlock {
  const label =
    diffIndex === undefined
      ? `Block ${block.index + 1} (line ${block.line} of the diff)`
      : `Diff ${diffIndex + 1}, block ${block.index + 1} (line ${block.line} of that diff)`;
  const numbered = numberedReadings(block);
  const hint = override ?? block.startLine ?? (numbered.length > 0 ? firstLineNumber(block.search) : undefined);
  return {
    block,
    diffIndex,
    label,
    hint: hint === 0 ? undefined : hint,
    readings: [{ search: block.search, replace: block.replace, stripped: false }, ...numbered],
  };
}

/** An applied edit, in the line coordinates of the text it was applied to. */
interface LogEntry {
  /** 0-based first line touched, and the 0-based line after the last. */
  start: number;
  end: number;
  delta: number;
}

/**
 * Maps a 1-based line of the original content through the edits applied
 * since, in order: below an edit it moves by the edit's delta, inside one it
 * moves to the edit's first line.
 */
function shiftHint(hint: number | undefined, log: readonly LogEntry[]): number | undefined {
  if (hint === undefined) return undefined;
  let line = hint - 1;
  for (const e of log) {
    if (line >= e.end) line += e.delta;
    else if (line >= e.start) line = e.start;
  }
  return Math.max(1, line + 1);
}

function countBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function logEntry(doc: Document, s: Splice): LogEntry {
  return {
    start: doc.lineAt(s.start),
    end: doc.lineAt(Math.max(s.start, s.end - 1)) + 1,
    delta: countBreaks(s.text) - countBreaks(doc.text.slice(s.start, s.end)),
  };
}

const pct = (x: number) => `${Math.floor(x * 100)}%`;

/** The engine speaks of "the text to replace" and replaceAll (str_replace words); say it in SEARCH/REPLACE terms. */
function adaptMessage(error: EditError, doc: Document, reading: Reading, hint: number | undefined, opts: ResolvedOptions): string {
  let message = error.message.replaceAll("The text to replace", "The SEARCH text").replaceAll("the text to replace", "the SEARCH text");
  if (error.code === "AMBIGUOUS") {
    // A hint can only ever decide between places at least two windows apart (see pickByHint).
    const starts = (error.detail.candidates ?? []).map((c) => c.startLine).sort((a, b) => a - b);
    const farApart = starts.every((s, k) => k === 0 || s - (starts[k - 1] ?? 0) >= 2 * opts.hintWindow);
    let advice = ".";
    if (hint !== undefined) {
      advice = `. The hint :start_line:${hint} does not decide: a hint picks a place only when it is within ${opts.hintWindow} lines of it and every other place is much farther away.`;
    } else if (farApart) {
      advice =
        ", or add a `:start_line:N` line (N: the line where the SEARCH text starts) right after `<<<<<<< SEARCH`: these places are far enough apart for the hint to decide.";
    }
    message = message.replace(", or set replaceAll to change every occurrence.", advice);
    if (!message.includes(advice)) message = message.replace(/\.$/, advice);
  }
  if (error.code === "NOT_FOUND") {
    if (error.detail.closest) message += `\nA similarity match needs at least ${pct(opts.fuzzyThreshold)}.`;
    const replace = reading.replace;
    if (replace.trim().length >= 20) {
      const at = doc.text.indexOf(replace);
      if (at !== -1) {
        const first = doc.lineAt(at) + 1;
        message += `\nThe REPLACE text of this block already appears at line ${first}: the block may have been applied already. If so, drop it.`;
      }
    }
  }
  return message;
}

function blockError(pb: PreparedBlock, error: EditError, message = error.message): EditError {
  // validateBlock writes its own "Block N (line L): " prefix; ours names the diff too.
  const body = message.replace(/^Block \d+ \(line \d+\): /, "");
  return new EditError(error.code, `${pb.label}: ${body}`, {
    ...error.detail,
    index: pb.block.index,
    line: pb.block.line,
    ...(pb.diffIndex !== undefined && { diffIndex: pb.diffIndex }),
  });
}

interface Found {
  located: Located;
  candidate: Candidate;
  reading: Reading;
}

/**
 * Locates a block: as written, then through each line-number reading while
 * the previous attempt found nothing. An ambiguity stops the search: a
 * looser reading must not win over it. The error kept for a block that
 * matches nowhere is the one from the stripped reading when there is one,
 * since its closest match compares text with text rather than with numbers.
 */
function locateBlock(doc: Document, pb: PreparedBlock, hint: number | undefined, opts: ResolvedOptions): Found {
  let kept: { error: EditError; reading: Reading } | undefined;
  for (const reading of pb.readings) {
    try {
      const located = locate(doc, reading.search, {
        preset: opts.preset,
        fuzzyThreshold: opts.fuzzyThreshold,
        hintWindow: opts.hintWindow,
        ...(hint !== undefined && { startLine: hint }),
      });
      const candidate = located.candidates[0];
      if (candidate) return { located, candidate, reading };
    } catch (error) {
      if (!(error instanceof EditError)) throw error;
      if (error.code !== "NOT_FOUND") throw blockError(pb, error, adaptMessage(error, doc, reading, hint, opts));
      if (!kept || (reading.stripped && !kept.reading.stripped)) kept = { error, reading };
    }
  }
  if (!kept) throw new EditError("NOT_FOUND", "The SEARCH text was not found in the file.");
  throw blockError(pb, kept.error, adaptMessage(kept.error, doc, kept.reading, hint, opts));
}

function report(pb: PreparedBlock, found: Found, lineDelta: number): BlockReport {
  const { candidate, located } = found;
  return {
    index: pb.block.index,
    line: pb.block.line,
    ...(pb.diffIndex !== undefined && { diffIndex: pb.diffIndex }),
    strategy: located.strategy,
    startLine: candidate.startLine + 1,
    endLine: candidate.endLine,
    score: candidate.score,
    fuzzy: located.strategy !== "exact",
    lineDelta,
  };
}

function noChangeError(pb: PreparedBlock, found: Found): EditError {
  const { candidate } = found;
  return new EditError(
    "NO_CHANGE",
    `${pb.label}: the SEARCH text was found at lines ${candidate.startLine + 1}-${candidate.endLine} (${found.located.strategy}), but applying REPLACE there changes nothing: the file already reads that way. Check that REPLACE holds the intended change, or drop the block.`,
    {
      index: pb.block.index,
      line: pb.block.line,
      ...(pb.diffIndex !== undefined && { diffIndex: pb.diffIndex }),
      candidates: [{ startLine: candidate.startLine + 1, endLine: candidate.endLine, strategy: found.located.strategy, score: candidate.score }],
    },
  );
}

function asEditError(error: unknown): EditError {
  if (error instanceof EditError) return error;
  return new EditError("INVALID_INPUT", `Unexpected failure while applying the block: ${String(error)}`);
}

interface Planned {
  pb: PreparedBlock;
  found: Found;
  splice: Splice;
}

interface State {
  content: string;
  log: LogEntry[];
  applied: BlockReport[];
  failed: { pb: PreparedBlock; error: EditError }[];
}

/** Applies the blocks of one diff to `state.content` (steps 2–4 of the header). */
function applyBlocks(state: State, blocks: readonly PreparedBlock[], opts: ResolvedOptions): void {
  const doc = Document.from(state.content);
  const planned: Planned[] = [];
  // exactOnly: a block that lost an overlap may come back only as an exact match of the edited text.
  const retry: { pb: PreparedBlock; error: EditError; exactOnly?: boolean }[] = [];

  for (const pb of blocks) {
    try {
      validateBlock(pb.block);
    } catch (error) {
      state.failed.push({ pb, error: blockError(pb, asEditError(error)) });
      continue;
    }
    try {
      const found = locateBlock(doc, pb, shiftHint(pb.hint, state.log), opts);
      const splice = planSplice(doc, found.candidate, found.reading.replace);
      if (splice.text === doc.text.slice(splice.start, splice.end)) {
        state.failed.push({ pb, error: noChangeError(pb, found) });
      } else {
        planned.push({ pb, found, splice });
      }
    } catch (error) {
      const e = asEditError(error);
      if (e.code === "NOT_FOUND" || e.code === "AMBIGUOUS") retry.push({ pb, error: e });
      else state.failed.push({ pb, error: e });
    }
  }

  // File order. Of two overlapping blocks the better match stays (the earlier
  // on a tie); the other gets a second try in the edited text, where it may
  // be a block that edits the first one's result ("let a = 10" after a block
  // that wrote it) and matched the original only approximately.
  planned.sort((a, b) => a.splice.start - b.splice.start || a.splice.end - b.splice.end || a.pb.block.index - b.pb.block.index);
  const accepted: Planned[] = [];
  for (const p of planned) {
    const prev = accepted[accepted.length - 1];
    if (prev && p.splice.start < prev.splice.end) {
      const [keep, drop] = p.found.candidate.score > prev.found.candidate.score ? [p, prev] : [prev, p];
      accepted[accepted.length - 1] = keep;
      retry.push({ pb: drop.pb, error: conflictError(drop, keep), exactOnly: true });
      continue;
    }
    accepted.push(p);
  }
  if (accepted.length > 0) {
    state.content = renderSplices(
      doc,
      accepted.map((p) => p.splice),
    );
    const entries = accepted.map((p) => logEntry(doc, p.splice));
    // Bottom-up, each entry's lines are still those of the text it applies to.
    for (let k = entries.length - 1; k >= 0; k--) state.log.push(entries[k] as LogEntry);
    accepted.forEach((p, k) => {
      state.applied.push(report(p.pb, p.found, entries[k]?.delta ?? 0));
    });
  }

  // Step 4: a second try in the edited text, only if something was edited.
  const ordered = retry
    .map((r) => ({ ...r, hint: shiftHint(r.pb.hint, state.log) }))
    .sort((a, b) => (a.hint ?? Number.POSITIVE_INFINITY) - (b.hint ?? Number.POSITIVE_INFINITY) || a.pb.block.index - b.pb.block.index);
  for (const r of ordered) {
    if (accepted.length === 0) {
      state.failed.push({ pb: r.pb, error: r.error });
      continue;
    }
    try {
      const current = Document.from(state.content);
      const found = locateBlock(current, r.pb, shiftHint(r.pb.hint, state.log), opts);
      const splice = planSplice(current, found.candidate, found.reading.replace);
      if ((r.exactOnly && found.candidate.score < 1) || splice.text === current.text.slice(splice.start, splice.end)) {
        state.failed.push({ pb: r.pb, error: r.error });
        continue;
      }
      const entry = logEntry(current, splice);
      state.content = renderSplices(current, [splice]);
      state.log.push(entry);
      state.applied.push(report(r.pb, found, entry.delta));
    } catch {
      // The first error describes the file the model read; keep it.
      state.failed.push({ pb: r.pb, error: r.error });
    }
  }
}

function conflictError(p: Planned, prev: Planned): EditError {
  const range = (x: Planned) => `${x.found.candidate.startLine + 1}-${x.found.candidate.endLine}`;
  return new EditError(
    "CONFLICT",
    `${p.pb.label}: its SEARCH text (lines ${range(p)}) overlaps the SEARCH text of ${prev.pb.label.replace(/^Block/, "block").replace(/^Diff/, "diff")} (lines ${range(prev)}), which is applied instead. Merge the two blocks into one, or make their SEARCH sections cover different lines.`,
    {
      index: p.pb.block.index,
      line: p.pb.block.line,
      ...(p.pb.diffIndex !== undefined && { diffIndex: p.pb.diffIndex }),
      candidates: [prev, p].map((x) => ({
        startLine: x.found.candidate.startLine + 1,
        endLine: x.found.candidate.endLine,
        strategy: x.found.located.strategy,
        score: x.found.candidate.score,
      })),
    },
  );
}

function checkItems(diffText: unknown): readonly FileDiff[] | string {
  if (typeof diffText === "string") return diffText;
  if (!Array.isArray(diffText)) {
    throw new EditError("INVALID_INPUT", `diffText must be a string or a list of { content, startLine? }, got ${diffText === null ? "null" : typeof diffText}.`);
  }
  if (diffText.length === 0) throw new EditError("INVALID_INPUT", "The list of diffs is empty: there is nothing to apply.");
  diffText.forEach((item: unknown, d) => {
    const content = typeof item === "object" && item !== null ? (item as { content?: unknown }).content : undefined;
    if (typeof content !== "string") {
      throw new EditError("INVALID_INPUT", `Diff ${d + 1} must be an object with a string "content" (the SEARCH/REPLACE text).`, { diffIndex: d });
    }
    checkLine((item as { startLine?: unknown }).startLine, `Diff ${d + 1}'s startLine`);
  });
  return diffText as readonly FileDiff[];
}

/** The first block in written order takes the override; the rest keep their own hints. */
function prepareAll(blocks: readonly SearchReplaceBlock[], diffIndex: number | undefined, override: number | undefined): PreparedBlock[] {
  return blocks.map((b, k) => prepareBlock(b, diffIndex, k === 0 ? override : undefined));
}

/**
 * Applies SEARCH/REPLACE blocks to `content`. Throws EditError PARSE when a
 * diff given as text does not parse, INVALID_INPUT for bad arguments; every
 * per-block problem (INVALID_INPUT, NO_CHANGE, NOT_FOUND, AMBIGUOUS,
 * CONFLICT) is returned in `failed`, prefixed with the block it concerns and
 * with `detail.index` set.
 */
export function applySearchReplace(content: string, diffText: SearchReplaceInput, options: SearchReplaceOptions = {}): SearchReplaceResult {
  if (typeof content !== "string") {
    throw new EditError("INVALID_INPUT", `content must be a string, got ${content === null ? "null" : typeof content}.`);
  }
  const input = checkItems(diffText);
  const opts = resolveOptions(options);
  const state: State = { content, log: [], applied: [], failed: [] };

  if (typeof input === "string") {
    applyBlocks(state, prepareAll(parseSearchReplace(input), undefined, opts.startLine), opts);
  } else {
    input.forEach((item, d) => {
      let blocks: SearchReplaceBlock[];
      try {
        blocks = parseSearchReplace(item.content);
      } catch (error) {
        const e = asEditError(error);
        state.failed.push({
          pb: { block: { search: "", replace: "", index: -1, line: 0 }, diffIndex: d, label: "", hint: undefined, readings: [] },
          error: new EditError(e.code, `Diff ${d + 1}: ${e.message}`, { ...e.detail, diffIndex: d }),
        });
        return;
      }
      applyBlocks(state, prepareAll(blocks, d, checkLine(item.startLine, "startLine")), opts);
    });
  }

  const failed = state.failed
    .map((f, order) => ({ ...f, order }))
    .sort((a, b) => (a.pb.diffIndex ?? 0) - (b.pb.diffIndex ?? 0) || a.pb.block.index - b.pb.block.index || a.order - b.order)
    .map((f) => f.error);
  return { content: state.content, applied: state.applied, failed };
}
