/**
 * `createStreamingApply(target, options)`: applies a model's response while
 * it is being written. `push(chunk)` as tokens arrive, `end()` when the
 * response ends; events say which edits started, where each edit's text to
 * find can be (refusing early when it matches nowhere or in several
 * places), each edit's result once it is complete, and at the end the
 * result of the whole response.
 *
 * One rule makes the result trustworthy: nothing here decides anything the
 * file layer would not. Each reading of the prefix (prefix-edits.ts) is
 * applied by `applyEdits` itself in a dry run, and an edit's report does not
 * depend on the edits after it, so a complete edit's report is the one the
 * whole response gets. `done` is `applyEdits` on the whole response: files
 * are written only then, all or nothing, exactly as for one call.
 *
 * Cost: one dry run of the prefix per reading. Readings are coalesced
 * (while one runs, chunks only accumulate; the next reads all of them), so
 * a fast stream is read a few times, not once per token; lines are read
 * only whole.
 */
import { EditError } from "../errors.ts";
import { type ApplyEditsOptions, type ApplyEditsResult, applyEdits, type EditReport } from "../fs/apply-edits.ts";
import { FileCache } from "../fs/file-cache.ts";
import { EventQueue, type LocatedEvent, type StreamEvent } from "./events.ts";
import { type PrefixEdit, type PrefixReading, readPrefix } from "./prefix-edits.ts";
import { checkTexts, createTextRoot, type TextRoot, type Texts } from "./text-root.ts";

export interface StreamingApplyOptions extends ApplyEditsOptions {
  /**
   * Called with each event as it happens (the events are also an async iterator).
   * @default undefined
   */
  onEvent?: (event: StreamEvent) => void;
}

export interface StreamingResult extends ApplyEditsResult {
  /** A texts target: every text after the edits (created files added, deleted ones gone). */
  texts?: Texts;
}

export interface StreamingApply extends AsyncIterable<StreamEvent> {
  /** More of the response. */
  push(chunk: string): void;
  /** The response is whole: resolves with the result (the `done` event's). */
  end(): Promise<StreamingResult>;
  /** Calls `listener` with every event from now on. */
  on(listener: (event: StreamEvent) => void): void;
  /** Resolves once the whole lines pushed so far have been read (their events emitted). */
  settled(): Promise<void>;
}

/** The options of a dry-run reading: no questions, no write hooks. */
function readingOptions(options: ApplyEditsOptions, cache: FileCache): ApplyEditsOptions {
  const { chooseCandidate: _c, hooks: _h, ...rest } = options;
  return { ...rest, dryRun: true, cache: options.cache ?? cache };
}

type Place = Pick<LocatedEvent, "status" | "startLine" | "endLine" | "strategy" | "fuzzy" | "candidates" | "message">;

/** The place a failure names: not found, or ambiguous with its candidates; undefined for other failures (a parse error, a conflict). */
function failurePlace(code: string | undefined, detail: EditError["detail"], message: string): Place | undefined {
  if (code === "NOT_FOUND") return { status: "not-found", message };
  if (code !== "AMBIGUOUS") return undefined;
  const candidates = (detail.candidates ?? []).map((c) => ({ startLine: c.startLine, endLine: c.endLine }));
  return { status: "ambiguous", candidates, message };
}

/**
 * Where an op's report places it. A patch that fails reports one failure
 * for all its hunks, each hunk's in `detail.failures` (with its index):
 * those are the ops then.
 */
function placesOf(report: EditReport, op: number): { op: number; place: Place }[] {
  if (report.status === "applied" && report.startLine !== undefined) {
    const place: Place = {
      status: "unique",
      startLine: report.startLine,
      ...(report.endLine !== undefined && { endLine: report.endLine }),
      ...(report.strategy !== undefined && { strategy: report.strategy }),
      fuzzy: report.fuzzy ?? false,
    };
    return [{ op, place }];
  }
  const error = report.error;
  if (report.status !== "failed" || !error) return [];
  const failures = error.detail.failures;
  if (!Array.isArray(failures)) {
    const place = failurePlace(error.code, error.detail, error.message);
    return place ? [{ op, place }] : [];
  }
  const out: { op: number; place: Place }[] = [];
  for (const f of failures as EditError["detail"][]) {
    const place = failurePlace(String(f.code ?? ""), f, String(f.message ?? error.message));
    if (place) out.push({ op: Number(f.index ?? 0), place });
  }
  return out;
}

/** The ops of an edit still being written: its reports, or for a diff its hunks (a failed patch reports one failure for all of them). */
function opCount(e: PrefixEdit, reports: readonly EditReport[]): number {
  const patch = (e.edit.payload as { patch?: unknown }).patch;
  if (typeof patch === "string") return patch.split("\n").filter((l) => l.startsWith("@@")).length;
  return reports.length;
}

/** Reports of one edit by index: its file's path and its ops' reports, in order. */
function reportsOf(result: ApplyEditsResult, index: number): { path: string; edits: EditReport[] } | undefined {
  for (const file of result.files) {
    const edits = file.edits.filter((e) => e.index === index);
    if (edits.length > 0) return { path: file.path, edits };
  }
  return undefined;
}

const keyOf = (e: PrefixEdit) => `${e.edit.format}\0${e.edit.line ?? "end"}\0${e.index}`;

class Stream implements StreamingApply {
  #text = "";
  #read = 0;
  #ended: Promise<StreamingResult> | undefined;
  #running: Promise<void> | undefined;
  #queue = new EventQueue();
  #started = new Set<string>();
  #completed = new Set<number>();
  /** Per edit key and op: the last located event's fields, to emit only changes. */
  #located = new Map<string, string>();
  #cache = new FileCache();
  #root: Promise<{ root: string; texts?: TextRoot }>;
  #options: StreamingApplyOptions;

  constructor(target: string | Texts, options: StreamingApplyOptions) {
    this.#options = options;
    if (options.onEvent !== undefined && typeof options.onEvent !== "function") throw new EditError("INVALID_INPUT", "onEvent must be a function.");
    if (options.onEvent) this.#queue.listen(options.onEvent);
    if (typeof target === "string") this.#root = Promise.resolve({ root: target });
    else {
      const texts = checkTexts(target);
      this.#root = createTextRoot(texts).then((t) => ({ root: t.root, texts: t }));
    }
    // A failure to set up surfaces at end(); no unhandled rejection meanwhile.
    this.#root.catch(() => undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    return this.#queue.iterate();
  }

  on(listener: (event: StreamEvent) => void): void {
    if (typeof listener !== "function") throw new EditError("INVALID_INPUT", "on: the listener must be a function.");
    this.#queue.listen(listener);
  }

  push(chunk: string): void {
    if (typeof chunk !== "string") throw new EditError("INVALID_INPUT", `push: a chunk must be a string, got ${chunk === null ? "null" : typeof chunk}.`);
    if (this.#ended) throw new EditError("INVALID_INPUT", "push: the response has ended (end() was called).");
    this.#text += chunk;
    if (chunk.includes("\n") && !this.#running) this.#running = this.#readAll();
  }

  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  end(): Promise<StreamingResult> {
    this.#ended ??= this.#finish();
    return this.#ended;
  }

  /** Reads the prefix of whole lines until no new line arrived while reading. */
  async #readAll(): Promise<void> {
    try {
      while (!this.#ended) {
        const prefix = this.#text.slice(0, this.#text.lastIndexOf("\n") + 1);
        if (prefix.length <= this.#read) break;
        this.#read = prefix.length;
        await this.#readPrefix(prefix);
      }
    } catch {
      // A reading is a preview: its failure (the root is unusable, an option is wrong) is end()'s to report.
    } finally {
      this.#running = undefined;
    }
  }

  async #readPrefix(prefix: string): Promise<void> {
    const reading = readPrefix(prefix, this.#options.format ?? "auto", this.#options.target, false);
    for (const e of reading.edits) this.#start(e);
    const inProgress = reading.edits.filter((e) => !e.complete);
    const newlyComplete = reading.edits.filter((e) => e.complete && !this.#completed.has(e.index));
    const locating = inProgress.length > 0 && !(reading.open === "search" && reading.searchLines === 0);
    if (newlyComplete.length === 0 && !locating) return;
    const { root } = await this.#root;
    const result = await applyEdits(root, reading.text, readingOptions(this.#options, this.#cache));
    if (this.#ended) return;
    for (const e of newlyComplete) this.#complete(e, result);
    if (locating) for (const e of inProgress) this.#locate(e, result, reading);
  }

  #start(e: PrefixEdit): void {
    const key = keyOf(e);
    if (this.#started.has(key)) return;
    this.#started.add(key);
    this.#queue.emit({ type: "edit-started", index: e.index, format: e.edit.format, path: e.edit.path, ...(e.edit.line !== undefined && { line: e.edit.line }) });
  }

  /** Located events of an edit still being written: its ops before the last are whole, and so is the last once its block's REPLACE began. */
  #locate(e: PrefixEdit, result: ApplyEditsResult, reading: PrefixReading): void {
    const found = reportsOf(result, e.index);
    if (!found) return;
    const last = opCount(e, found.edits) - 1;
    const closing = reading.open === "replace" && e.index === reading.edits.length - 1;
    found.edits.forEach((report, k) => {
      for (const { op, place } of placesOf(report, k)) this.#emitPlace(e, op, found.path, place, op < last || closing);
    });
  }

  #emitPlace(e: PrefixEdit, op: number, path: string, place: Place, final: boolean): void {
    const key = `${keyOf(e)}\0${op}`;
    const said = this.#located.get(key);
    const signature = JSON.stringify({ ...place, message: undefined, final });
    // A final place is said once; a provisional one each time it changes.
    if (said === signature || said?.endsWith(',"final":true}')) return;
    this.#located.set(key, signature);
    this.#queue.emit({ type: "located", index: e.index, op, path, ...place, final });
  }

  #complete(e: PrefixEdit, result: ApplyEditsResult): void {
    const found = reportsOf(result, e.index);
    this.#completed.add(e.index);
    this.#start(e);
    if (!found) return;
    found.edits.forEach((report, k) => {
      for (const { op, place } of placesOf(report, k)) this.#emitPlace(e, op, found.path, place, true);
    });
    this.#queue.emit({ type: "edit-complete", index: e.index, format: e.edit.format, path: found.path, edits: found.edits });
  }

  async #finish(): Promise<StreamingResult> {
    let texts: TextRoot | undefined;
    try {
      await this.#running;
      const setup = await this.#root;
      texts = setup.texts;
      const { onEvent: _o, ...options } = this.#options;
      const result: StreamingResult = await applyEdits(setup.root, this.#text, { ...options, cache: options.cache ?? this.#cache });
      // The edits no reading saw complete: their reports from the whole response.
      const reading = readPrefix(this.#text, options.format ?? "auto", options.target, true);
      for (const e of reading.edits) if (!this.#completed.has(e.index)) this.#complete(e, result);
      if (texts) result.texts = await texts.collect(result);
      this.#queue.emit({ type: "done", result, ...(result.texts && { texts: result.texts }) });
      this.#queue.close();
      return result;
    } catch (error) {
      this.#queue.close(error);
      throw error;
    } finally {
      await texts?.remove();
    }
  }
}

/**
 * Applies a response as it is written to files under `target` (a root
 * directory), or to `target`'s texts (`{ path: content }`, nothing on disk
 * is touched; the result's `texts` are the texts after the edits). See the
 * module comment for the events and their guarantees.
 */
export function createStreamingApply(target: string | Record<string, string>, options: StreamingApplyOptions = {}): StreamingApply {
  if (typeof options !== "object" || options === null) throw new EditError("INVALID_INPUT", "createStreamingApply: options must be an object.");
  if (typeof target === "string" && target === "") throw new EditError("INVALID_INPUT", "createStreamingApply: the root must be the path of a directory.");
  return new Stream(target, options);
}
