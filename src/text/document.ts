/**
 * The document model, built once per file and shared by every strategy.
 *
 * Matching works on `text`: the file with its BOM removed and every CRLF
 * turned into LF (in a file of CR-terminated lines, every CR). Offsets and
 * line numbers everywhere in the matcher refer to `text`. `toRaw()` maps an
 * offset back into the original bytes so a splice touches only the edited
 * range and every other line keeps its own ending.
 *
 * The line table is built lazily with `indexOf` (a measured 4–5 ms for a
 * 200k-line file, against ~15 ms for `split("\n")` and ~25 ms for a charCode
 * loop), and only as far as a lookup needs. It is a window of consecutive
 * lines: a lookup by offset far past its end counts the line breaks in
 * between (count-breaks.ts, ~3x faster than recording them) and starts the
 * window again at that line, so an exact match deep in a big file is
 * numbered without a start for every line before it. A lookup before the
 * window walks back to it, or rebuilds the window from the top.
 */

import { firstAtLeast } from "../arrays.ts";
import { hashTrimmed, isTrimmedAt } from "./blank.ts";
import { commonPrefixLength, commonSuffixLength } from "./common-ends.ts";
import { countBreaks } from "./count-breaks.ts";
import { hasCrLines } from "./cr-lines.ts";
import { sharedDocument } from "./document-pool.ts";

const BOM = "\uFEFF";
/** Texts up to this size are sampled whole for their indentation unit. */
const SAMPLE_WHOLE_BELOW = 200_000;
/** Runs of consecutive lines sampled from a longer text. */
const SAMPLE_RUNS = 40;
/** A lookup this many characters past the line table's end counts its way there instead of recording every line start. */
const JUMP_CHARS = 65_536;
/** Lines before the window recorded by walking back; a lookup farther back starts the window again at a mark (see `marks`). */
const BACK_LINES = 4096;
/** A window left behind is marked every this many lines (see `marks`); a lookup by line scans at most about this far from a mark. */
const MARK_EVERY = 1024;
/** A lookup up to this many lines (by line) or characters (by offset) past the window scans on to it; farther, it starts at a mark past the window if there is one. */
const SEEK_LINES = 64;
const SEEK_CHARS = 4096;
/** Marks kept at most: a few hundred cover a 200k-line file; more would cost their upkeep. */
const MAX_MARKS = 4096;

export type LineEndingStyle = "lf" | "crlf" | "cr" | "mixed" | "none";

/** Line starts carried from a document to the one an edit made of it (see `Document.edited`). */
interface CarriedLines {
  /** The line whose start is `starts[0]`. */
  base: number;
  starts: Int32Array<ArrayBuffer>;
  n: number;
  complete: boolean;
}

/**
 * Lines whose starts were found by scanning text, over all documents: tests
 * read it to see that a document carried onto an edited text scanned only
 * the changed lines. Not a public API.
 */
export const lineScanStats = { lines: 0 };

export class Document {
  /** The original content, byte for byte. */
  readonly raw: string;
  /** LF-normalised content without BOM: what strategies search. */
  readonly text: string;
  readonly bom: boolean;
  /**
   * Every break of the file is a bare CR (no "\n" at all): each CR is read as
   * a line break, one character for one, so offsets map to the raw text
   * unchanged, and breaks are written back as CR. Read as text, the file
   * would be one line, and an edit of one line a rewrite of the whole file.
   * A bare CR in a file that has "\n" breaks stays text.
   */
  readonly crLines: boolean = false;
  /**
   * LF-text offsets of every "\n" that had CRs before it in the raw text,
   * ascending, once per CR: a "\r\r\n" break (a CRLF file converted to CRLF
   * again) is listed twice, so its CRs are part of the break, not of the line,
   * and an edit neither strips one nor writes a bare "\r\n" among them.
   */
  private readonly crlfAt: number[];
  /** Breaks with CRs (distinct offsets), and whether all of them have the same number. */
  private readonly crBreaks: number = 0;
  private readonly uniformCrs: boolean = true;
  /**
   * Line starts, recorded lazily and incrementally: a lookup extends the
   * table only as far as it needs; whoever needs more continues from there.
   * `starts[k]` is where line `base + k` starts. It starts at 16 entries
   * (64 bytes: V8 keeps a typed array that small in its heap) and doubles:
   * a 4 kB one for every document was an ArrayBuffer off the heap per case,
   * ~10 % of the batch's profile on exact edits (allocation and sweeping).
   */
  private starts = new Int32Array(16);
  /** The line whose start is `starts[0]`: 0 unless the window jumped (see the module comment). */
  private base = 0;
  private jumpChars = JUMP_CHARS;
  private backLines = BACK_LINES;
  private markEvery = MARK_EVERY;
  private seekLines = SEEK_LINES;
  private seekChars = SEEK_CHARS;
  /**
   * Line starts known from windows left behind (a jump, a restart), as
   * ascending line numbers and their offsets: a lookup by line far from the
   * window starts scanning again at the nearest mark at or below its line,
   * not at the top. Without them, strategies that each verify their windows
   * in line order over hits spread through a 200k-line file restarted the
   * table at the top for each and scanned 360k-410k lines for one typo
   * edit of typescript.js (~35 ms of its ~60). Every line numbered from an
   * offset (`lineAt`: the hits of a needle) is marked, so the next needle's
   * hits, and the windows verified at them, start near a known line.
   */
  private readonly marks: number[] = [];
  private readonly markAt: number[] = [];
  /** Starts recorded; the last may be the end of text after a final line break. */
  private n = 1;
  /** Where the search for the next line break continues. */
  private scanFrom = 0;
  private complete = false;
  private count = 0;
  private indentCache: string | undefined;
  /** No BOM and no CR anywhere: the text is the raw content (known once asked, see `edited`). */
  private plainCache: boolean | undefined;
  /** Per line, the hash of its trimmed text (see `trimmedHashes`); built on demand, carried by `edited`. */
  private hashes: Int32Array<ArrayBuffer> | undefined;
  /** The lines of each hash, as chains (see `hashChains`); built once the hashes have been asked often. */
  private chains: { heads: Int32Array; next: Int32Array; mask: number } | undefined;
  /** Line lookups through the hashes so far (see `hashChains`). */
  private lookups = 0;
  /**
   * Kept alive across calls by an owner (an `Editor`, the file layer's
   * `FileCache`; set by document-pool.ts): the strategies then build the
   * per-line hashes on the first line lookup that would scan the text, as a
   * later call of the owner reuses them.
   */
  retained = false;

  private constructor(raw: string, carried?: CarriedLines) {
    this.raw = raw;
    this.crlfAt = [];
    if (carried) {
      // Made by `edited` from a plain document with a plain change: plain too, nothing to scan.
      this.bom = false;
      this.text = raw;
      this.plainCache = true;
      this.base = carried.base;
      this.starts = carried.starts;
      this.n = carried.n;
      this.scanFrom = carried.starts[carried.n - 1] ?? 0;
      if (carried.complete) {
        this.complete = true;
        this.count = raw.length === 0 ? 0 : raw.endsWith("\n") ? carried.base + carried.n - 1 : carried.base + carried.n;
      }
      return;
    }
    this.bom = raw.startsWith(BOM);
    const body = this.bom ? raw.slice(1) : raw;
    if (body.includes("\r\n")) {
      // Record where each CR before a "\n" was, in LF-text offsets, then drop the CRs.
      let removed = 0;
      let runs = 0;
      let p = body.indexOf("\r\n");
      while (p !== -1) {
        let first = p;
        while (first > 0 && body.charCodeAt(first - 1) === 13) first--;
        const crs = p + 1 - first;
        // first - removed is the LF offset of this break ("\n" lands where its first CR was).
        for (let k = 0; k < crs; k++) this.crlfAt.push(first - removed);
        if (runs === 0) runs = crs;
        else if (runs !== crs) this.uniformCrs = false;
        this.crBreaks++;
        removed += crs;
        p = body.indexOf("\r\n", p + 2);
      }
      this.text = runs === 1 && this.uniformCrs ? body.replaceAll("\r\n", "\n") : body.replace(/\r+\n/g, "\n");
    } else if (hasCrLines(body)) {
      this.crLines = true;
      this.text = body.replaceAll("\r", "\n");
    } else {
      this.text = body;
    }
  }

  /** The document of `raw`: a live shared one with this text (document-pool.ts), else a new one. */
  static from(raw: string): Document {
    return sharedDocument(raw) ?? new Document(raw);
  }

  /** A new document whose window jumps ahead and walks back by `jumpChars` and `backLines` (tests set them small). */
  static withWindow(raw: string, jumpChars: number, backLines: number, marks?: { every: number; seekLines: number; seekChars: number }): Document {
    const doc = new Document(raw);
    doc.jumpChars = jumpChars;
    doc.backLines = backLines;
    if (marks) {
      doc.markEvery = marks.every;
      doc.seekLines = marks.seekLines;
      doc.seekChars = marks.seekChars;
    }
    return doc;
  }

  /**
   * The document of `raw`, a text an edit made of this one: the line starts
   * this document recorded before the first changed character are kept,
   * those after the last one shifted, and only the changed lines scanned
   * (on a 200k-line file ~1 ms of chunked comparison instead of ~4 ms of
   * line scanning, and the same table). Only between plain texts (no BOM,
   * no CR: LF files, and CRLF files as the file layer hands them over);
   * any other text is built anew. The result equals `Document.from(raw)`.
   */
  edited(raw: string): Document {
    if (raw === this.raw) return this;
    if (!this.plain || raw.startsWith(BOM)) return new Document(raw);
    const old = this.raw;
    const prefix = commonPrefixLength(old, raw);
    const suffix = commonSuffixLength(old, raw, Math.min(old.length, raw.length) - prefix);
    const doc = this.editedLines(raw, prefix, old.length - suffix, raw.length - suffix);
    if (this.hashes) this.carryHashes(doc, prefix, suffix);
    return doc;
  }

  /** The document of `raw`, whose change is `[prefix, oldEnd)` here and `[prefix, newEnd)` there, with this one's line table carried where it can be. */
  private editedLines(raw: string, prefix: number, oldEnd: number, newEnd: number): Document {
    const old = this.raw;
    // A CR in the change, or next to it (a "\r" before a "\n" the edit wrote makes a CRLF break).
    if (raw.slice(Math.max(0, prefix - 1), newEnd + 1).includes("\r")) return new Document(raw);
    const starts = this.starts;
    const n = this.n;
    // A window after the change: its starts and its first line's number move by what the change added.
    if ((starts[0] as number) > oldEnd) {
      const moved = new Int32Array(Math.max(1024, n + 64));
      const delta = raw.length - old.length;
      for (let k = 0; k < n; k++) moved[k] = (starts[k] as number) + delta;
      const base = this.base + countBreaks(raw, prefix, newEnd) - countBreaks(old, prefix, oldEnd);
      return new Document(raw, { base, starts: moved, n, complete: this.complete });
    }
    // A window that starts inside the change: nothing to carry.
    if ((starts[0] as number) > prefix) return new Document(raw);
    // Starts up to the first change stand (their "\n" is in the common start).
    let kept = 1;
    while (kept < n && (starts[kept] as number) <= prefix) kept++;
    const reachesEnd = this.complete || (starts[n - 1] as number) > oldEnd;
    let out = new Int32Array(Math.max(1024, reachesEnd ? n + 64 : kept + 64));
    out.set(starts.subarray(0, kept));
    let m = kept;
    if (reachesEnd) {
      const push = (v: number) => {
        if (m === out.length) {
          const grown = new Int32Array(out.length * 2);
          grown.set(out);
          out = grown;
        }
        out[m++] = v;
      };
      let scanned = 0;
      for (let p = raw.indexOf("\n", out[kept - 1] as number); p !== -1 && p < newEnd; p = raw.indexOf("\n", p + 1)) {
        push(p + 1);
        scanned++;
      }
      lineScanStats.lines += scanned;
      // Starts after the change (their "\n" is in the common end), shifted by the change in length.
      const delta = raw.length - old.length;
      let j = kept;
      while (j < n && (starts[j] as number) <= oldEnd) j++;
      for (; j < n; j++) push((starts[j] as number) + delta);
    }
    return new Document(raw, { base: this.base, starts: out, n: m, complete: reachesEnd && this.complete });
  }

  /**
   * Gives `doc` (this document edited, see `edited`) the per-line hashes:
   * those of the lines before the change and after it are this document's,
   * moved; the changed lines are hashed. Only when both line tables are
   * whole (as building the hashes left this one and `edited` carried it).
   */
  private carryHashes(doc: Document, prefix: number, suffix: number): void {
    const old = this.hashes;
    if (!old || old.length === 0 || !this.complete || this.base !== 0 || !doc.complete || doc.base !== 0) return;
    const a = this.raw;
    const b = doc.raw;
    // Lines before `first` and after `oldLast` hold no changed character (their breaks neither).
    const first = this.lineAt(prefix);
    const oldLast = this.lineAt(a.length - suffix);
    const newLast = doc.lineAt(b.length - suffix);
    const after = old.length - oldLast - 1;
    const count = newLast + 1 + after;
    if (newLast < first - 1 || count !== doc.count) return;
    const out = new Int32Array(count);
    out.set(old.subarray(0, first));
    for (let i = first; i <= newLast; i++) out[i] = hashTrimmed(b, doc.lineStart(i), doc.lineEnd(i));
    out.set(old.subarray(oldLast + 1), newLast + 1);
    doc.hashes = out;
  }

  /**
   * Lines (ascending) whose text without blank ends is `trimmed` (non-empty,
   * no blank ends), through the per-line hashes, each hash hit checked in place.
   */
  linesTrimmedAs(trimmed: string): number[] {
    const text = this.text;
    // Through the lookups, not `starts`: the table may be a window that jumped, or not yet counted to the end (a
    // document `edited` from another), and reading `starts` as the whole table dropped lines that are there
    // (a fuzzy block lost its anchors in a kept document and was not found; the carried-text property found it).
    return this.linesHashedAs(trimmed).filter((i) => isTrimmedAt(text, this.lineStart(i), this.lineEnd(i), trimmed));
  }

  /**
   * Lines (ascending) whose hash is that of `trimmed`: a superset of `linesTrimmedAs`, for a caller that checks each place itself.
   * `max`: the listing stops at `max + 1` lines (a caller that wants few places only needs to learn there are more).
   */
  linesHashedAs(trimmed: string, max = Number.POSITIVE_INFINITY): number[] {
    const hashes = this.trimmedHashes();
    const h = hashTrimmed(trimmed, 0, trimmed.length);
    const out: number[] = [];
    const chains = this.hashChains();
    if (chains) {
      for (let i = chains.heads[bucketOf(h, chains.mask)] as number; i !== -1 && out.length <= max; i = chains.next[i] as number) if (hashes[i] === h) out.push(i);
      return out;
    }
    for (let i = hashes.indexOf(h); i !== -1 && out.length <= max; i = hashes.indexOf(h, i + 1)) out.push(i);
    return out;
  }

  /** Whether some line's hash is that of `trimmed` (false: no line is `trimmed`, trimmed). */
  mayHaveLineHashedAs(trimmed: string): boolean {
    const hashes = this.trimmedHashes();
    const h = hashTrimmed(trimmed, 0, trimmed.length);
    const chains = this.hashChains();
    if (!chains) return hashes.indexOf(h) !== -1;
    for (let i = chains.heads[bucketOf(h, chains.mask)] as number; i !== -1; i = chains.next[i] as number) if (hashes[i] === h) return true;
    return false;
  }

  /**
   * The lines of each hash bucket, ascending, as chains through two typed
   * arrays: a lookup walks its bucket instead of a pass over every line's
   * hash. Built on the 17th lookup of a document: a response of 2,000
   * one-line blocks on 25k lines looked each up with a whole pass (50M
   * hashes compared), where one or a few lookups do not pay for the build
   * (8 bytes a line, counted in `indexBytes`).
   */
  private hashChains(): { heads: Int32Array; next: Int32Array; mask: number } | undefined {
    if (this.chains || ++this.lookups <= 16) return this.chains;
    const hashes = this.hashes as Int32Array;
    const n = hashes.length;
    let size = 1;
    while (size < n) size *= 2;
    const heads = new Int32Array(size).fill(-1);
    const next = new Int32Array(n);
    // Last line first, so that each chain runs from its first line up.
    for (let i = n - 1; i >= 0; i--) {
      const b = bucketOf(hashes[i] as number, size - 1);
      next[i] = heads[b] as number;
      heads[b] = i;
    }
    this.chains = { heads, next, mask: size - 1 };
    return this.chains;
  }

  /** Whether the per-line hashes are built (see `trimmedHashes`). */
  get hasTrimmedHashes(): boolean {
    return this.hashes !== undefined;
  }

  /**
   * Per line, a hash of its text without blank ends (`hashTrimmed`: 0 for a
   * blank line): the lines that may be equal, trimmed, to some text are
   * found by one pass over 4 bytes a line (`Int32Array.indexOf`, ~0.2 ms
   * for 200k lines) instead of a search of the whole text (1–5 ms per 9 MB),
   * then checked in place. Built on the first call (with the whole line
   * table), ~15 ms for 200k lines; carried by `edited`.
   */
  trimmedHashes(): Int32Array<ArrayBuffer> {
    if (this.hashes) return this.hashes;
    this.indexLines();
    const n = this.count;
    const text = this.text;
    const out = new Int32Array(n);
    if (this.base === 0) {
      // The whole table from the top: line i ends where line i + 1 starts, before its break.
      const starts = this.starts;
      for (let i = 0; i + 1 < n; i++) out[i] = hashTrimmed(text, starts[i] as number, (starts[i + 1] as number) - 1);
      if (n > 0) out[n - 1] = hashTrimmed(text, starts[n - 1] as number, text.endsWith("\n") ? text.length - 1 : text.length);
    } else {
      for (let i = 0; i < n; i++) out[i] = hashTrimmed(text, this.lineStart(i), this.lineEnd(i));
    }
    this.hashes = out;
    return out;
  }

  /** No BOM and no CR anywhere, so `text` is `raw` and an edit can carry the line table (see `edited`). */
  private get plain(): boolean {
    this.plainCache ??= !this.bom && this.crlfAt.length === 0 && !this.crLines && !this.raw.includes("\r");
    return this.plainCache;
  }

  /** About how much memory the document adds to its text: the line table, the CR positions and the line hashes, in bytes. */
  get indexBytes(): number {
    return this.starts.byteLength + this.crlfAt.length * 8 + (this.hashes?.byteLength ?? 0) + (this.chains ? this.chains.heads.byteLength + this.chains.next.byteLength : 0);
  }

  /** Whether the text ends with a line break. */
  get finalNewline(): boolean {
    return this.text.endsWith("\n");
  }

  get lineEndingStyle(): LineEndingStyle {
    if (this.crLines) return "cr";
    // No CR at all: LF or no break, without the line table.
    if (this.crBreaks === 0) return this.text.includes("\n") ? "lf" : "none";
    const breaks = this.lineCount - (this.finalNewline ? 0 : 1);
    if (breaks <= 0) return "none";
    return this.crBreaks === breaks && this.uniformCrs ? "crlf" : "mixed";
  }

  /**
   * Records line starts until one lies past `offset` and line `line + 1`
   * has a start, or the text ends (-1: no such target). A target before the
   * window moves it back; an offset far past it jumps there. One tight loop
   * (a call per line cost ~1 ms more over 200k lines).
   */
  private extend(offset: number, line: number): void {
    if (line >= 0) this.seekLine(line);
    else if (offset >= 0) this.seekOffset(offset);
    if ((offset >= 0 && offset < (this.starts[0] as number)) || (line >= 0 && line < this.base)) this.extendBack(offset, line);
    if (this.complete) return;
    const text = this.text;
    if (offset - (this.starts[this.n - 1] as number) > this.jumpChars && offset < text.length) this.jump(offset);
    let starts = this.starts;
    let n = this.n;
    let from = this.scanFrom;
    const before = n;
    const base = this.base;
    while ((starts[n - 1] as number) <= offset || base + n <= line + 1) {
      const p = text.indexOf("\n", from);
      if (p === -1) {
        this.complete = true;
        // A final "\n" does not open another line: "a\n" has one line, "" has none.
        this.count = text.length === 0 ? 0 : text.endsWith("\n") ? base + n - 1 : base + n;
        break;
      }
      if (n === starts.length) {
        const grown = new Int32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[n++] = p + 1;
      from = p + 1;
    }
    this.starts = starts;
    this.n = n;
    this.scanFrom = from;
    lineScanStats.lines += n - before;
  }

  /** The window starts at the line holding `offset`, numbered by counting the breaks since the window's last start. */
  private jump(offset: number): void {
    const text = this.text;
    const last = this.starts[this.n - 1] as number;
    const start = text.lastIndexOf("\n", offset - 1) + 1;
    if (start <= last) return;
    this.keepMarks();
    this.base += this.n - 1 + countBreaks(text, last, start);
    this.restartAt(start);
  }

  /**
   * Records the starts of the lines just before the window down to `offset`
   * or `line` (the lines above a match, read for context). An offset farther
   * back starts the window at its line, numbered by counting the breaks
   * between; a line farther back, at the top of the text.
   */
  private extendBack(offset: number, line: number): void {
    let first = this.starts[0] as number;
    const text = this.text;
    if (offset >= 0 && first - offset > this.jumpChars) {
      // lastIndexOf reads a fromIndex of -1 as 0: at offset 0 it would find a "\n" standing there.
      const start = offset === 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
      this.keepMarks();
      this.base -= countBreaks(text, start, first);
      this.restartAt(start);
      return;
    }
    if (line >= 0 && this.base - line > this.backLines) {
      this.keepMarks();
      this.base = 0;
      this.restartAt(0);
      return;
    }
    const before: number[] = [];
    let base = this.base;
    while (base > 0 && ((offset >= 0 && first > offset) || (line >= 0 && line < base))) {
      first = first >= 2 ? text.lastIndexOf("\n", first - 2) + 1 : 0;
      before.push(first);
      base--;
    }
    const k = before.length;
    let starts = this.starts;
    if (this.n + k > starts.length) {
      starts = new Int32Array(Math.max(starts.length * 2, this.n + k));
      starts.set(this.starts.subarray(0, this.n), k);
    } else {
      starts.copyWithin(k, 0, this.n);
    }
    for (let j = 0; j < k; j++) starts[j] = before[k - 1 - j] as number;
    this.starts = starts;
    this.n += k;
    this.base = base;
  }

  /**
   * Before a lookup by `line`: when the nearest mark at or below the line is
   * nearer than the window (ahead: past its end; behind: nearer than walking
   * back, or the walk is too long), the window starts again at that mark
   * (line 0 when none).
   */
  private seekLine(line: number): void {
    const last = this.base + this.n - 1;
    if (line >= this.base && (this.complete || line <= last + this.seekLines)) return;
    const k = firstAtLeast(this.marks, line + 1) - 1;
    const markLine = k >= 0 ? (this.marks[k] as number) : 0;
    // Ahead: from the window's end unless a mark is nearer. Behind: walked back unless a mark is nearer or the walk too long.
    if (line > last ? markLine <= last : this.base - line <= this.backLines && line - markLine >= this.base - line) return;
    this.restartAtMark(this.marks, line);
  }

  /** As `seekLine`, before a lookup by offset: a mark nearer than the window's end (ahead) or start (behind) is started from. */
  private seekOffset(offset: number): void {
    const first = this.starts[0] as number;
    const lastStart = this.starts[this.n - 1] as number;
    if (offset >= first && (this.complete || offset <= lastStart + this.seekChars)) return;
    const k = firstAtLeast(this.markAt, offset + 1) - 1;
    if (k < 0) return;
    const markOffset = this.markAt[k] as number;
    if (offset > lastStart ? markOffset <= lastStart : offset - markOffset >= first - offset) return;
    this.restartAtMark(this.markAt, offset);
  }

  /**
   * The window, marked, starts again at the last mark at or below `target`
   * in `by` (the marks' lines or offsets), line 0 when none; looked up after
   * `keepMarks`, whose marks shift the indices.
   */
  private restartAtMark(by: readonly number[], target: number): void {
    this.keepMarks();
    const k = firstAtLeast(by, target + 1) - 1;
    this.base = k >= 0 ? (this.marks[k] as number) : 0;
    this.restartAt(k >= 0 ? (this.markAt[k] as number) : 0);
  }

  /**
   * Marks the window's starts every `markEvery` lines and its last one, before the window is left. The last
   * start may be the text's end after a final break, which opens no line: not marked (a restart there numbered
   * the text's end as a line of its own, one more than a table built from the top).
   */
  private keepMarks(): void {
    const end = this.text.length;
    const lines = end > 0 && this.starts[this.n - 1] === end ? this.n - 1 : this.n;
    for (let k = 0; k < lines; k += this.markEvery) this.mark(this.base + k, this.starts[k] as number);
    if (lines > 0) this.mark(this.base + lines - 1, this.starts[lines - 1] as number);
  }

  private mark(line: number, offset: number): void {
    const marks = this.marks;
    if (line === 0 || marks.length >= MAX_MARKS) return;
    const k = firstAtLeast(marks, line);
    if (marks[k] === line) return;
    marks.splice(k, 0, line);
    this.markAt.splice(k, 0, offset);
  }

  /** An empty window at `start`, a line start whose number is `base`. */
  private restartAt(start: number): void {
    this.starts[0] = start;
    this.n = 1;
    this.scanFrom = start;
    this.complete = false;
  }

  /** Extends the table until line `i + 1` has a start (or the text ends). */
  private ensureLine(i: number): void {
    this.extend(-1, i);
  }

  /** Builds the rest of the table now. */
  indexLines(): void {
    this.extend(Number.POSITIVE_INFINITY, -1);
  }

  /** Number of lines; a final line break does not start an extra line. */
  get lineCount(): number {
    this.indexLines();
    return this.count;
  }

  /** Whether line `i` (0-based) exists, reading the table only as far as line `i + 1`. */
  hasLine(i: number): boolean {
    if (i < 0) return false;
    this.ensureLine(i);
    return this.complete ? i < this.count : i < this.base + this.n - 1;
  }

  /** Offset in `text` where line `i` (0-based) starts. `i === lineCount` gives the end of text. */
  lineStart(i: number): number {
    this.ensureLine(i);
    if (i >= this.base + this.n || (this.complete && i >= this.count)) return this.text.length;
    return this.starts[i - this.base] ?? 0;
  }

  /** Offset just past the last character of line `i`, before its "\n". */
  lineEnd(i: number): number {
    this.ensureLine(i);
    if (i + 1 < this.base + this.n && (!this.complete || i + 1 < this.count)) return (this.starts[i + 1 - this.base] ?? 0) - 1;
    const end = this.text.length;
    return this.text.endsWith("\n") ? end - 1 : end;
  }

  /** Line `i` without its line break. */
  line(i: number): string {
    return this.text.slice(this.lineStart(i), this.lineEnd(i));
  }

  /** Lines [from, to) as an array. */
  lines(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < to && this.hasLine(i); i++) out.push(this.line(i));
    return out;
  }

  /** 0-based line containing `offset` (an offset at a line's "\n" belongs to that line). */
  lineAt(offset: number): number {
    this.extend(Math.max(0, offset), -1);
    const starts = this.starts;
    let lo = 0;
    let hi = this.complete ? Math.max(0, this.count - 1 - this.base) : this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    // Its start is known now: a later lookup near this line (a window verified at a hit, another needle's hit) starts here.
    this.mark(this.base + lo, starts[lo] as number);
    return this.base + lo;
  }

  /** Maps an offset in `text` to the corresponding offset in `raw`. */
  toRaw(offset: number): number {
    // Every CR removed before `offset` shifts it by one, plus the BOM.
    return offset + firstAtLeast(this.crlfAt, offset) + (this.bom ? 1 : 0);
  }

  /**
   * The line break to use for text inserted at `offset`: the ending of the
   * line there, so a CRLF region stays CRLF even in a mixed file.
   */
  eolAt(offset: number): string {
    if (this.crlfAt.length === 0) return this.crLines ? "\r" : "\n";
    const nl = this.text.indexOf("\n", offset);
    if (nl !== -1) return this.breakAt(nl);
    // Past the last break: follow the last line break of the file.
    const last = this.text.lastIndexOf("\n", offset);
    return last !== -1 ? this.breakAt(last) : "\n";
  }

  /** The raw line break after line `i`: "\r\n", "\n" or "\r" ("" after a last line without one). */
  breakAfter(i: number): string {
    const end = this.lineEnd(i);
    if (end >= this.text.length) return "";
    return this.breakAt(end);
  }

  /** The most CRs any line break has: 0 in an LF file, 1 in a CRLF or CR-only one, 2 with a `\r\r\n` break. */
  get breakCrs(): number {
    if (this.crLines) return 1;
    let most = 0;
    let run = 0;
    for (let k = 0; k < this.crlfAt.length; k++) {
      run = k > 0 && this.crlfAt[k] === this.crlfAt[k - 1] ? run + 1 : 1;
      if (run > most) most = run;
    }
    return most;
  }

  /** True when some but not all line breaks are CRLF. */
  get mixedLineEndings(): boolean {
    // Asked once per splice: with no CRLF at all the answer needs no scan (a
    // scan here made replaceAll of 1M places quadratic).
    if (this.crlfAt.length === 0) return false;
    return this.lineEndingStyle === "mixed";
  }

  /** The raw break at the "\n" at `nlOffset`: its CRs, then "\n". */
  private breakAt(nlOffset: number): string {
    if (this.crLines) return "\r";
    const lo = firstAtLeast(this.crlfAt, nlOffset);
    let crs = 0;
    while (this.crlfAt[lo + crs] === nlOffset) crs++;
    return crs === 1 ? "\r\n" : `${"\r".repeat(crs)}\n`;
  }

  /** The file's indentation unit: "\t" or a run of spaces (2, 4, ...), from a sample of lines. */
  indentUnit(): string {
    if (this.indentCache !== undefined) return this.indentCache;
    const tally = new IndentTally();
    this.sampleLines(2000, tally);
    this.indentCache = tally.unit();
    return this.indentCache;
  }

  /**
   * All lines of a short text; of a long one, `max` lines in runs of
   * consecutive lines from evenly spaced offsets, read without the line
   * table (building it costs ~4 ms on 200k lines, the whole budget of an
   * edit). Consecutive lines also give detectIndentUnit true steps. Each
   * line is tallied where it stands: a string per line was 6 % of what the
   * 978 real edits allocate (bench:batch).
   */
  private sampleLines(max: number, tally: IndentTally): void {
    const text = this.text;
    const runs = text.length <= SAMPLE_WHOLE_BELOW ? 1 : SAMPLE_RUNS;
    const perRun = runs === 1 ? Number.POSITIVE_INFINITY : Math.ceil(max / runs);
    for (let k = 0; k < runs; k++) {
      let p = Math.floor((text.length * k) / runs);
      // Start at the next whole line.
      if (p > 0) {
        const nl = text.indexOf("\n", p - 1);
        if (nl === -1) break;
        p = nl + 1;
      }
      for (let j = 0; j < perRun && p < text.length; j++) {
        const nl = text.indexOf("\n", p);
        const end = nl === -1 ? text.length : nl;
        tally.add(text, p, end);
        p = end + 1;
      }
    }
  }
}

/** Whether `text[start, end)` is blank as `trim()` reads it (any JavaScript white space or line terminator). */
function trimsToNothing(text: string, start: number, end: number): boolean {
  for (let p = start; p < end; p++) {
    const c = text.charCodeAt(p);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    // Past ASCII, trim() itself decides (its Unicode spaces): rare at a line's start.
    return c < 128 ? false : text.slice(p, end).trim() === "";
  }
  return true;
}

/** The counts detectIndentUnit decides by, fed one line at a time. */
class IndentTally {
  private tabs = 0;
  private spaces = 0;
  private readonly steps = new Map<number, number>();
  private previous = 0;

  add(text: string, start: number, end: number): void {
    if (trimsToNothing(text, start, end)) return;
    if (text.charCodeAt(start) === 9) {
      this.tabs++;
      return;
    }
    let width = 0;
    while (start + width < end && text.charCodeAt(start + width) === 32) width++;
    if (width > 0) this.spaces++;
    const step = width - this.previous;
    if (step > 0 && step <= 8) this.steps.set(step, (this.steps.get(step) ?? 0) + 1);
    this.previous = width;
  }

  unit(): string {
    if (this.tabs > this.spaces) return "\t";
    let best = 0;
    let bestCount = 0;
    for (const [step, count] of this.steps) {
      if (count > bestCount || (count === bestCount && step < best)) {
        best = step;
        bestCount = count;
      }
    }
    return " ".repeat(best || 2);
  }
}

/**
 * Guesses the indentation unit of some lines: a tab when tab-indented lines
 * dominate, else the most common positive difference between the indentation
 * of consecutive indented lines (robust to alignment spaces), defaulting to 2.
 */
export function detectIndentUnit(lines: readonly string[]): string {
  const tally = new IndentTally();
  for (const line of lines) tally.add(line, 0, line.length);
  return tally.unit();
}

/** A hash's bucket: its high bits folded into its low ones. */
function bucketOf(h: number, mask: number): number {
  return (h ^ (h >>> 15)) & mask;
}
