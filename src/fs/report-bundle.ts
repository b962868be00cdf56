/**
 * Reproduction bundles: `fuzzpatch report [ID]` turns a journal entry into
 * one JSON document holding everything a maintainer needs to see the edit
 * happen again — the input, the options, the files as the edit met them,
 * what the write left, the result, fuzzpatch's and Node's versions — and
 * `fuzzpatch apply --replay BUNDLE` runs it again in a temporary directory
 * and compares: the same files byte for byte, the same outcome per edit
 * (status, code, strategy, lines), the same diff.
 *
 * With `redact`, lines far from the change are replaced (redact.ts); the
 * bundle is replayed before it is handed out, and the radius kept around
 * the changes widened until the replay gives the same result, so a
 * redacted bundle still reproduces; messages, which quote file lines, are
 * left out of it.
 */

import { mkdir, mkdtemp, readFile, rm, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { EditError } from "../errors.ts";
import { type ApplyEditsOptions, type ApplyEditsResult, applyEdits } from "./apply-edits.ts";
import type { JournalEntry, RecordedResult } from "./journal-entry.ts";
import { entryById, lastWrite } from "./journal-find.ts";
import { diffText, inputText as entryInput, readBlob } from "./journal-store.ts";
import { inputLines, redactPair } from "./redact.ts";

export const BUNDLE_KIND = "fuzzpatch-report";

/** A file's bytes in a bundle: UTF-8 text, or base64 when they are not valid UTF-8. */
export interface BundleFile {
  path: string;
  exists: boolean;
  mode?: number;
  text?: string;
  base64?: string;
}

export interface ReportBundle {
  kind: typeof BUNDLE_KIND;
  format: 1;
  /** fuzzpatch's version and the platform that made the write. */
  version: string;
  node: string;
  platform: string;
  id: string;
  time: string;
  source: string;
  redacted: boolean;
  input: string | unknown[];
  options: Record<string, unknown>;
  /** The files as the edit met them. */
  files: BundleFile[];
  /** The files the write changed, as it left them (`exists: false`: deleted). */
  after: BundleFile[];
  /** The outcome; `diff` is the text of the unified diff. */
  result: Omit<RecordedResult, "diff" | "diffText"> & { diff: string };
}

/** Radii of kept lines tried in turn by a redacted report. */
const RADII = [3, 8, 20, 60];

/** The bundle of write `id` (else the last write under `root`, any root without it) from the journal in `dir`. */
export async function makeBundle(dir: string, options: { id?: string; root?: string; redact?: boolean }): Promise<ReportBundle> {
  const entry = options.id !== undefined ? await entryById(dir, options.id) : await lastWrite(dir, options.root === undefined ? {} : { root: options.root });
  if (entry.input === undefined || entry.result === undefined) {
    throw new EditError("INVALID_INPUT", `Write ${entry.id} is an undo (of ${entry.undoes ?? "?"}), not an edit: it has no input to reproduce. Report the write it undid.`, { id: entry.id });
  }
  const full = await fullBundle(dir, entry);
  if (!options.redact) return full;
  const keep = inputLines(full.input);
  for (const radius of RADII) {
    const redacted = redactBundle(full, keep, radius);
    if ((await replayBundle(redacted)).same) return redacted;
  }
  throw new EditError("INVALID_INPUT", `Write ${entry.id} does not reproduce once its files are redacted (the lines far from the edit decided its outcome); report it without --redact, or not at all.`, { id: entry.id });
}

/** The recorded result without the entry's form of its diff (the bundle carries the text as `diff`). */
function withoutDiffText(result: RecordedResult): Omit<RecordedResult, "diff" | "diffText"> {
  const { diff: _hash, diffText: _text, ...rest } = result;
  return rest;
}

async function fullBundle(dir: string, entry: JournalEntry): Promise<ReportBundle> {
  const blobText = async (hash: string) => (await readBlob(dir, hash)).toString("utf8");
  const asFile = async (p: string, exists: boolean, hash: string | undefined, mode: number | undefined): Promise<BundleFile> => {
    const out: BundleFile = { path: p, exists, ...(mode !== undefined && { mode }) };
    if (!exists || hash === undefined) return out;
    const bytes = await readBlob(dir, hash);
    const text = bytes.toString("utf8");
    if (Buffer.from(text, "utf8").equals(bytes)) out.text = text;
    else out.base64 = bytes.toString("base64");
    return out;
  };
  const input = entry.input as NonNullable<JournalEntry["input"]>;
  const inputText = await entryInput(dir, input);
  const options = { ...entry.options };
  if (options.history && typeof options.history === "object") {
    const history: Record<string, string[]> = {};
    for (const [p, hashes] of Object.entries(options.history as Record<string, string[]>)) history[p] = await Promise.all(hashes.map(blobText));
    options.history = history;
  }
  const result = entry.result as RecordedResult;
  return {
    kind: BUNDLE_KIND,
    format: 1,
    version: entry.version,
    node: process.version,
    platform: process.platform,
    id: entry.id,
    time: entry.time,
    source: entry.source,
    redacted: false,
    input: input.kind === "text" ? inputText : (JSON.parse(inputText) as unknown[]),
    options,
    files: await Promise.all(entry.read.map((r) => asFile(r.path, r.exists, r.blob, r.mode))),
    after: await Promise.all(entry.files.map((f) => asFile(f.path, f.kind !== "delete", f.after, f.modeAfter))),
    result: { ...withoutDiffText(result), diff: await diffText(dir, result) },
  };
}

/** The bundle with far lines replaced and messages dropped. */
function redactBundle(full: ReportBundle, keep: ReadonlySet<string>, radius: number): ReportBundle {
  const movedFrom = new Map<string, string>();
  const afterByPath = new Map(full.after.map((f) => [f.path, f]));
  for (const f of full.result.files) if (f.movedTo !== undefined) movedFrom.set(f.movedTo, f.path);
  const before = new Map(full.files.map((f) => [f.path, f]));
  const files: BundleFile[] = full.files.map((f) => {
    // A file the write changed is redacted with its after side (under its own path, or where it moved).
    const own = afterByPath.get(f.path);
    const twin = own?.exists ? own : ([...movedFrom].flatMap(([to, from]) => (from === f.path ? [afterByPath.get(to)] : []))[0] ?? own);
    const pair = redactPair(f.text, twin?.exists ? twin.text : undefined, keep, radius);
    return f.text === undefined ? f : { ...f, text: pair.before as string };
  });
  const after: BundleFile[] = full.after.map((f) => {
    if (f.text === undefined) return f;
    const from = before.get(movedFrom.get(f.path) ?? f.path);
    const pair = redactPair(from?.exists ? from.text : undefined, f.text, keep, radius);
    return { ...f, text: pair.after as string };
  });
  const history = full.options.history as Record<string, string[]> | undefined;
  const options = { ...full.options };
  if (history) options.history = Object.fromEntries(Object.entries(history).map(([p, texts]) => [p, texts.map((t) => redactPair(t, undefined, keep, 0).before as string)]));
  const strip = <T extends { message?: string }>(x: T): T => {
    const { message: _, ...rest } = x;
    return rest as T;
  };
  const result = { ...full.result, files: full.result.files.map((f) => ({ ...strip(f), edits: f.edits.map(strip) })), errors: full.result.errors.map(strip) };
  return { ...full, redacted: true, files, after, options, result };
}

export interface ReplayResult {
  /** Same files byte for byte, same outcome, same diff. */
  same: boolean;
  /** What differs, one line each. */
  differences: string[];
  result: ApplyEditsResult;
}

/** Reads a bundle: a JSON file, or a directory holding `bundle.json`. */
export async function readBundle(where: string): Promise<ReportBundle> {
  let text: string;
  try {
    text = await readFile(where, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code !== "EISDIR") throw new EditError("IO", `Cannot read the bundle ${where}: ${(error as Error).message}`, { path: where });
    text = await readFile(path.join(where, "bundle.json"), "utf8");
  }
  let bundle: unknown;
  try {
    bundle = JSON.parse(text);
  } catch {
    throw new EditError("PARSE", `${where} is not a fuzzpatch report bundle (not JSON).`, { path: where });
  }
  const b = bundle as Partial<ReportBundle>;
  if (b?.kind !== BUNDLE_KIND || b.format !== 1 || !Array.isArray(b.files) || !Array.isArray(b.after) || typeof b.result !== "object") {
    throw new EditError("PARSE", `${where} is not a fuzzpatch report bundle (kind ${BUNDLE_KIND}, format 1).`, { path: where });
  }
  return b as ReportBundle;
}

/** Replays `bundle` in a new temporary directory (removed after, unless `keep`) and compares. */
export async function replayBundle(bundle: ReportBundle, keep = false): Promise<ReplayResult & { dir: string }> {
  const base = await mkdtemp(path.join(tmpdir(), "fuzzpatch-replay-"));
  const root = path.join(base, "root");
  try {
    await mkdir(root);
    for (const f of bundle.files) if (f.exists) await placeFile(root, f);
    const answers = [...((bundle.options.choices as (number | null)[] | undefined) ?? [])];
    const { choices: _, ...recorded } = bundle.options;
    const options = { ...recorded, journal: false, ...(answers.length > 0 && { chooseCandidate: async () => answers.shift() ?? null }) } as ApplyEditsOptions;
    const result = await applyEdits(root, bundle.input as string, options);
    const differences = [...(await compareFiles(root, bundle)), ...compareOutcome(bundle, result)];
    return { same: differences.length === 0, differences, result, dir: base };
  } finally {
    if (!keep) await rm(base, { recursive: true, force: true });
  }
}

/** Writes a bundle file under `root` (its path passes the same checks as an edit's: relative, no `..`). */
async function placeFile(root: string, f: BundleFile): Promise<void> {
  const parts = f.path.split("/");
  if (path.isAbsolute(f.path) || parts.some((p) => p === ".." || p === "")) throw new EditError("UNSAFE_PATH", `The bundle names ${JSON.stringify(f.path)}, not a path inside a project.`, { path: f.path });
  const abs = path.join(root, ...parts);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, bytesOf(f));
  if (f.mode !== undefined) await chmod(abs, f.mode & 0o777);
}

const bytesOf = (f: BundleFile): Buffer => (f.base64 !== undefined ? Buffer.from(f.base64, "base64") : Buffer.from(f.text ?? "", "utf8"));

async function compareFiles(root: string, bundle: ReportBundle): Promise<string[]> {
  const out: string[] = [];
  const expected = new Map<string, BundleFile>();
  for (const f of bundle.files) expected.set(f.path, f);
  for (const f of bundle.after) expected.set(f.path, f);
  for (const [p, want] of expected) {
    const got = await readFile(path.join(root, ...p.split("/"))).catch(() => undefined);
    if (!want.exists && got !== undefined) out.push(`${p}: exists, the write had deleted it`);
    else if (want.exists && got === undefined) out.push(`${p}: missing, the write had left it`);
    else if (want.exists && got !== undefined && !got.equals(bytesOf(want))) out.push(`${p}: its bytes differ from what the write left`);
  }
  return out;
}

/** The outcome as the bundle records it, compared with the replay's (messages only when the bundle has them). */
function compareOutcome(bundle: ReportBundle, result: ApplyEditsResult): string[] {
  const out: string[] = [];
  const want = bundle.result;
  for (const key of ["ok", "applied", "failed", "alreadyApplied"] as const) if (want[key] !== result[key]) out.push(`${key}: ${String(result[key])}, recorded ${String(want[key])}`);
  const pick = (x: object | undefined, keys: readonly string[]) => JSON.stringify(keys.map((k) => (x as Record<string, unknown> | undefined)?.[k]));
  const editKeys = ["index", "format", "status", "strategy", "startLine", "endLine", "fuzzy", "version", "rejected", "code", ...(bundle.redacted ? [] : ["message"])];
  const fileKeys = ["path", "status", "written", "movedTo", "copiedFrom", "reject", "code", ...(bundle.redacted ? [] : ["message"])];
  const replayed = result.files.map((f) => ({
    ...f,
    reject: f.reject?.path,
    code: f.error?.code,
    message: f.error?.message,
    edits: f.edits.map((e) => ({ ...e, rejected: e.rejected || undefined, code: e.error?.code, message: e.error?.message })),
  }));
  if (replayed.length !== want.files.length) out.push(`files: ${replayed.length} reported, recorded ${want.files.length}`);
  for (const [k, f] of want.files.entries()) {
    const r = replayed[k];
    if (pick(f, fileKeys) !== pick(r, fileKeys)) out.push(`file ${f.path}: ${pick(r, fileKeys)}, recorded ${pick(f, fileKeys)}`);
    for (const [n, e] of f.edits.entries()) if (pick(e, editKeys) !== pick(r?.edits[n], editKeys)) out.push(`${f.path} edit ${e.index + 1}: ${pick(r?.edits[n], editKeys)}, recorded ${pick(e, editKeys)}`);
  }
  if (JSON.stringify(result.errors.map((e) => e.code)) !== JSON.stringify(want.errors.map((e) => e.code))) out.push("the errors not tied to a file differ");
  if (result.diff !== want.diff) out.push("the diff differs");
  return out;
}

/** Writes `bundle` as one JSON file, or with `dir` as a directory: `bundle.json`, plus the files before and after for reading. */
export async function writeBundle(bundle: ReportBundle, target: string, dir: boolean): Promise<string> {
  const json = `${JSON.stringify(bundle, null, 2)}\n`;
  if (!dir) {
    await writeFile(target, json, { flag: "wx", mode: 0o600 });
    return target;
  }
  await mkdir(target, { recursive: false, mode: 0o700 });
  await writeFile(path.join(target, "bundle.json"), json, { mode: 0o600 });
  await writeFile(path.join(target, typeof bundle.input === "string" ? "input.txt" : "input.json"), typeof bundle.input === "string" ? bundle.input : JSON.stringify(bundle.input, null, 2));
  for (const [side, list] of [["before", bundle.files], ["after", bundle.after]] as const) {
    for (const f of list) if (f.exists) await placeFile(path.join(target, side), f);
  }
  return path.join(target, "bundle.json");
}
