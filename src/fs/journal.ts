/**
 * The undo journal: every write recorded (journal-entry.ts says what an
 * entry holds, journal-store.ts how it is stored, journal-dir.ts where).
 * `applyEdits` records a write when its `journal` option is set (the CLI,
 * the MCP server and `runTool` set it by default); undo.ts takes a write
 * back and report-bundle.ts turns one into a reproduction bundle.
 *
 * Recording never blocks an edit: the files are written first, and a
 * journal that cannot be written (a full disk, a directory that is not
 * the user's own) gives a warning in the result, not a failure.
 */

import { lstatSync, lutimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describeValue, EditError } from "../errors.ts";
import { VERSION } from "../version.ts";
import type { ApplyEditsResult } from "./apply-edits.ts";
import { defaultJournalDir, journalDisabled, preparePrivateDir } from "./journal-dir.ts";
import { INLINE_MAX_BYTES, type JournalEntry, type JournalFile, type JournalRead, type RecordedResult } from "./journal-entry.ts";
import { type VersionToStore, type JournalBounds, listEntryIds, newEntryId, pruneJournal, stageEntry, timeOfId } from "./journal-store.ts";
import { hashOnce, hashTextOnce } from "./known-hashes.ts";
import type { PlannedChange } from "./transaction.ts";

export interface JournalOptions {
  /**
   * The journal directory.
   * @default $FUZZPATCH_JOURNAL_DIR, else `$XDG_STATE_HOME/fuzzpatch/journal` or the platform's state directory (journal-dir.ts)
   */
  dir?: string;
  /**
   * Who writes, as `fuzzpatch log` shows it ("cli apply", "tool edit_file", ...).
   * @default "library"
   */
  source?: string;
  /**
   * Most writes kept; the oldest are dropped.
   * @default 1000
   */
  maxEntries?: number;
  /**
   * Most bytes kept (entries and file versions); the oldest writes are dropped.
   * @default 104857600 (100 MiB)
   */
  maxBytes?: number;
  /**
   * Oldest write kept, in days.
   * @default 30
   */
  maxAgeDays?: number;
}

/** What became of recording a write: its id, or why it was not recorded. */
export interface JournalRecord {
  id?: string;
  warning?: string;
}

export interface ResolvedJournal {
  dir: string;
  source: string;
  bounds: JournalBounds;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const DEFAULTS = Object.freeze({ source: "library", maxEntries: 1000, maxBytes: 100 * 1024 * 1024, maxAgeDays: 30 });

/** A full prune runs at least this often (it reads the entries written since the last, and stats every entry); cheaper checks run at every write. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const PRUNED_MARK = "pruned";

/**
 * The journal to use, or undefined when off (`value` false or absent, or
 * FUZZPATCH_JOURNAL=0 in `env`). Throws `INVALID_INPUT` for a bad option.
 */
export function resolveJournal(value: unknown, env: NodeJS.ProcessEnv = process.env): ResolvedJournal | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== true && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw new EditError("INVALID_INPUT", `journal must be true, false or an object of journal options, got ${describeValue(value)}.`);
  }
  const o = value === true ? {} : (value as JournalOptions);
  for (const key of ["dir", "source"] as const) if (o[key] !== undefined && typeof o[key] !== "string") throw new EditError("INVALID_INPUT", `journal.${key} must be a string.`);
  for (const key of ["maxEntries", "maxBytes", "maxAgeDays"] as const) {
    const v = o[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) throw new EditError("INVALID_INPUT", `journal.${key} must be a number of at least 0, got ${describeValue(v)}.`);
  }
  if (journalDisabled(env)) return undefined;
  return {
    dir: o.dir !== undefined && o.dir !== "" ? path.resolve(o.dir) : defaultJournalDir(env),
    source: o.source ?? DEFAULTS.source,
    bounds: {
      maxEntries: o.maxEntries ?? DEFAULTS.maxEntries,
      maxBytes: o.maxBytes ?? DEFAULTS.maxBytes,
      maxAgeMs: (o.maxAgeDays ?? DEFAULTS.maxAgeDays) * DAY_MS,
    },
  };
}

/** A file as the write met it. */
export interface ReadFile {
  abs: string;
  exists: boolean;
  bytes: Uint8Array;
  mode?: number | undefined;
}

/** What one write did, as the file layer knows it. */
export interface WriteRecord {
  realRoot: string;
  changes: readonly PlannedChange[];
  read: readonly ReadFile[];
  /** The input as given to applyEdits (absent for an undo). */
  input?: string | readonly unknown[];
  /** The options that shape the result, JSON only; `history` texts are stored as versions. */
  options?: Record<string, unknown>;
  result?: ApplyEditsResult;
  undoes?: string;
}

/** Records a write; never throws (a failure is the record's warning). */
export async function recordWrite(journal: ResolvedJournal, write: WriteRecord): Promise<JournalRecord> {
  return (await stageRecord(journal, write)).place();
}

/**
 * A record staged before its write is in place (`stageRecord`): `place`
 * puts it in the journal once the write is done, `discard` drops it when
 * the write failed. Neither throws.
 */
export interface StagedRecord {
  place(): Promise<JournalRecord>;
  discard(): Promise<void>;
}

/**
 * `recordWrite` up to the entry's rename (journal-store.ts `stageEntry`):
 * the versions stored, the entry synced under a temporary name. applyEdits
 * stages while the file's own write waits on its fdatasync and places the
 * entry right after the file's rename, so the journal's syncs no longer
 * follow the file's (docs/security.md: the entry still appears only once
 * the write it names is in place). Never throws: a failure is `place`'s
 * warning.
 */
export async function stageRecord(journal: ResolvedJournal, write: WriteRecord): Promise<StagedRecord> {
  const failed = (error: unknown): StagedRecord => {
    const why = error instanceof EditError ? error.message : String((error as Error)?.message ?? error);
    const record = { warning: `the undo journal could not be written (${why}); the edit was applied but cannot be undone with fuzzpatch undo.` };
    return { place: async () => record, discard: async () => undefined };
  };
  try {
    preparePrivateDir(journal.dir);
    const { entry, blobs } = buildEntry(journal, write);
    // The entry counts too: a short input and diff are kept in it.
    let size = Buffer.byteLength(JSON.stringify(entry), "utf8");
    for (const b of blobs.values()) size += typeof b === "string" ? Buffer.byteLength(b, "utf8") : b instanceof Uint8Array ? b.length : b.bytes.length;
    if (size > journal.bounds.maxBytes) {
      const record = { warning: `this write (${size} bytes of file versions and its record) is larger than the undo journal's bound (${journal.bounds.maxBytes} bytes); it was not recorded and cannot be undone.` };
      return { place: async () => record, discard: async () => undefined };
    }
    const staged = await stageEntry(journal.dir, entry, blobs);
    return {
      place: async () => {
        try {
          await staged.place();
          await maybePrune(journal, staged.added);
          return { id: entry.id };
        } catch (error) {
          return failed(error).place();
        }
      },
      discard: staged.discard,
    };
  } catch (error) {
    return failed(error);
  }
}

/** A text short enough to be kept in the entry (a character is at most 3 bytes of UTF-8). */
function inlined(text: string): boolean {
  return text.length * 3 <= INLINE_MAX_BYTES || Buffer.byteLength(text, "utf8") <= INLINE_MAX_BYTES;
}

/** `abs` relative to the root, `/`-separated. */
export function rootRelative(realRoot: string, abs: string): string {
  return path.relative(realRoot, abs).split(path.sep).join("/");
}

function buildEntry(journal: ResolvedJournal, write: WriteRecord): { entry: JournalEntry; blobs: Map<string, VersionToStore> } {
  const blobs = new Map<string, VersionToStore>();
  const store = (bytes: Uint8Array): string => {
    const hash = hashOnce(bytes);
    if (!blobs.has(hash)) blobs.set(hash, bytes);
    return hash;
  };
  // A file's version after a write may be stored as its change from the version before (journal-delta.ts).
  const storeAfter = (c: PlannedChange): string => {
    if (c.kind !== "write") return store(c.bytes);
    const hash = hashOnce(c.bytes);
    if (!blobs.has(hash)) blobs.set(hash, { base: hashOnce(c.original), baseBytes: c.original, bytes: c.bytes });
    return hash;
  };
  // A text is encoded only when its blob is not stored yet (writeEntry): a history version mostly is, as a version written before.
  const storeText = (text: string): string => {
    const hash = hashTextOnce(text);
    if (!blobs.has(hash)) blobs.set(hash, text);
    return hash;
  };
  const rel = (abs: string) => rootRelative(write.realRoot, abs);
  const readByAbs = new Map(write.read.map((r) => [r.abs, r]));
  const read: JournalRead[] = [];
  const seen = new Set<string>();
  const addRead = (abs: string, exists: boolean, bytes: Uint8Array, mode: number | undefined) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    read.push({ path: rel(abs), exists, ...(exists && { blob: store(bytes) }), ...(exists && mode !== undefined && { mode }) });
  };
  for (const r of write.read) addRead(r.abs, r.exists, r.bytes, r.mode);
  // A file written but not among the reads (a `.rej`): as its change found it.
  for (const c of write.changes) addRead(c.abs, c.kind !== "create", c.original, c.originalMode ?? c.mode);
  const moves = movesOf(write);
  const files: JournalFile[] = write.changes.map((c) => {
    const modeBefore = c.originalMode ?? readByAbs.get(c.abs)?.mode ?? (c.kind === "create" ? undefined : c.mode);
    const movedFrom = moves.get(c);
    return {
      path: rel(c.abs),
      kind: c.kind,
      ...(c.kind !== "create" && { before: store(c.original) }),
      ...(c.kind !== "delete" && { after: storeAfter(c) }),
      ...(c.kind !== "create" && modeBefore !== undefined && { modeBefore }),
      ...(c.kind !== "delete" && c.mode !== undefined && { modeAfter: c.mode }),
      ...(movedFrom !== undefined && { movedFrom: rel(movedFrom.abs) }),
    };
  });
  const id = newEntryId();
  const entry: JournalEntry = {
    format: 1,
    id,
    time: new Date(timeOfId(id)).toISOString(),
    root: write.realRoot,
    source: journal.source,
    version: VERSION,
    files,
    read,
    ...(write.undoes !== undefined && { undoes: write.undoes }),
  };
  if (write.input !== undefined) {
    const text = typeof write.input === "string" ? write.input : JSON.stringify(write.input);
    const kind = typeof write.input === "string" ? "text" : "edits";
    entry.input = inlined(text) ? { kind, text } : { kind, blob: store(Buffer.from(text, "utf8")) };
  }
  if (write.options !== undefined) entry.options = recordedOptions(write.options, storeText);
  if (write.result !== undefined) entry.result = recordedResult(write.result, store);
  return { entry, blobs };
}

/** The create and delete of each move, paired through the result's reports (a move's create is named `movedTo`, its delete `path`). */
function movesOf(write: WriteRecord): Map<PlannedChange, PlannedChange> {
  const out = new Map<PlannedChange, PlannedChange>();
  for (const f of write.result?.files ?? []) {
    if (f.movedTo === undefined) continue;
    const created = write.changes.find((c) => c.kind === "create" && c.rel === f.movedTo);
    const deleted = write.changes.find((c) => c.kind === "delete" && c.rel === f.path);
    if (created && deleted) out.set(created, deleted);
  }
  return out;
}

/** The options of applyEdits that shape its result and are plain data (not a cache, hooks, a signal or a callback). */
const RECORDED_OPTIONS: readonly string[] = [
  "format",
  "partial",
  "reject",
  "maxFileBytes",
  "allowBinary",
  "strip",
  "target",
  "reverse",
  "replaceAllAdvice",
  "emptyOldAdvice",
  "displayPrefix",
  "expected",
  "history",
  "preset",
  "fuzzyThreshold",
  "hintWindow",
  "thresholds",
  "limits",
  "choices",
];

function recordedOptions(options: Record<string, unknown>, storeText: (text: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RECORDED_OPTIONS) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === "history" && value && typeof value === "object") {
      const history: Record<string, string[]> = {};
      for (const [p, texts] of Object.entries(value as Record<string, readonly string[]>)) history[p] = texts.map(storeText);
      out.history = history;
    } else out[key] = value;
  }
  return out;
}

function recordedResult(result: ApplyEditsResult, store: (bytes: Uint8Array) => string): RecordedResult {
  return {
    ok: result.ok,
    applied: result.applied,
    failed: result.failed,
    alreadyApplied: result.alreadyApplied,
    files: result.files.map((f) => ({
      path: f.path,
      status: f.status,
      written: f.written,
      ...(f.movedTo !== undefined && { movedTo: f.movedTo }),
      ...(f.copiedFrom !== undefined && { copiedFrom: f.copiedFrom }),
      ...(f.reject !== undefined && { reject: f.reject.path }),
      ...(f.error && { code: f.error.code, message: f.error.message }),
      edits: f.edits.map((e) => ({
        index: e.index,
        format: e.format,
        status: e.status,
        ...(e.strategy !== undefined && { strategy: e.strategy }),
        ...(e.startLine !== undefined && { startLine: e.startLine }),
        ...(e.endLine !== undefined && { endLine: e.endLine }),
        ...(e.fuzzy !== undefined && { fuzzy: e.fuzzy }),
        ...(e.version !== undefined && { version: e.version }),
        ...(e.rejected && { rejected: true }),
        ...(e.error && { code: e.error.code, message: e.error.message }),
      })),
    })),
    errors: result.errors.map((e) => ({ code: e.code, message: e.message })),
    ...(inlined(result.diff) ? { diffText: result.diff } : { diff: store(Buffer.from(result.diff, "utf8")) }),
  };
}

/**
 * Count and age are checked at every write (a directory listing); the
 * total size, which stats every entry and reads the new ones, when the last full prune is older
 * than PRUNE_EVERY_MS or this write added a sixteenth of the bound.
 */
async function maybePrune(journal: ResolvedJournal, added: number): Promise<void> {
  const { bounds, dir } = journal;
  const ids = listEntryIds(dir);
  const oldest = ids[0];
  const mark = path.join(dir, PRUNED_MARK);
  let last = 0;
  try {
    const st = lstatSync(mark);
    if (st.isFile()) last = st.mtimeMs;
  } catch {
    // Never pruned.
  }
  const now = Date.now();
  const due =
    ids.length > bounds.maxEntries || (oldest !== undefined && now - timeOfId(oldest) > bounds.maxAgeMs) || added * 16 > bounds.maxBytes || now - last > PRUNE_EVERY_MS;
  if (!due) return;
  await pruneJournal(dir, bounds, now);
  try {
    lutimesSync(mark, new Date(now), new Date(now));
  } catch {
    // The mark is an empty file of ours; never through a symlink (wx: exclusive, and the journal directory was checked).
    try {
      writeFileSync(mark, "", { flag: "wx", mode: 0o600 });
    } catch {
      // Another process made it: its time is as good.
    }
  }
}
