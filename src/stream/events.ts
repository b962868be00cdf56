/**
 * The events of a streaming apply, and the queue that hands them to an
 * async iterator and to listeners in the order they happen.
 */
import type { LineRange } from "../errors.ts";
import type { ApplyEditsResult, EditReport } from "../fs/apply-edits.ts";

/** An edit of the response was seen (its format and the path it names as written). */
export interface EditStartedEvent {
  type: "edit-started";
  /** The edit's index in the response (as in `EditReport.index`). */
  index: number;
  format: string;
  path: string;
  /** 1-based line of the response where it starts. */
  line?: number;
}

/**
 * Where one op of an edit (a block, a hunk, a chunk) can be. `final: false`:
 * the text to find is still being written; the status is that of the text
 * seen so far (where it stands now, on how many places, or nowhere) and may
 * change. `final: true`: the text to find is complete and this is the
 * engine's answer for it: `not-found` and `ambiguous` are early refusals
 * (the op will not change the file: it fails, or its replacement already
 * stands there), `unique` is where it applies unless its replacement turns
 * out to stand there already.
 */
export interface LocatedEvent {
  type: "located";
  index: number;
  /** The op's position in its edit (0-based). */
  op: number;
  path: string;
  status: "unique" | "ambiguous" | "not-found";
  final: boolean;
  startLine?: number;
  endLine?: number;
  strategy?: string;
  fuzzy?: boolean;
  /** `ambiguous`: the places. */
  candidates?: LineRange[];
  /** `not-found` and `ambiguous`: the engine's message (what was searched, the closest text). */
  message?: string;
}

/** An edit is complete: its ops' reports, as `applyEdits` gives them for the whole response (`ApplyEditsResult.files[].edits`). */
export interface EditCompleteEvent {
  type: "edit-complete";
  index: number;
  format: string;
  /** The file's path as reported. */
  path: string;
  edits: EditReport[];
}

/** The response ended: the result of `applyEdits` on all of it (files are written only now); `texts` for a texts target. */
export interface DoneEvent {
  type: "done";
  result: ApplyEditsResult;
  texts?: Record<string, string>;
}

export type StreamEvent = EditStartedEvent | LocatedEvent | EditCompleteEvent | DoneEvent;

/** Events in order, for one async iterator at a time and any number of listeners. */
export class EventQueue {
  #items: StreamEvent[] = [];
  #waiting: ((r: IteratorResult<StreamEvent>) => void)[] = [];
  #closed = false;
  #failure: unknown;
  #listeners: ((event: StreamEvent) => void)[] = [];

  listen(listener: (event: StreamEvent) => void): void {
    this.#listeners.push(listener);
  }

  emit(event: StreamEvent): void {
    for (const listener of this.#listeners) listener(event);
    const waiter = this.#waiting.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.#items.push(event);
  }

  close(failure?: unknown): void {
    this.#closed = true;
    this.#failure = failure;
    for (const waiter of this.#waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  async *iterate(): AsyncGenerator<StreamEvent> {
    while (true) {
      const item = this.#items.shift();
      if (item) {
        yield item;
        continue;
      }
      if (this.#closed) {
        if (this.#failure !== undefined) throw this.#failure;
        return;
      }
      const next = await new Promise<IteratorResult<StreamEvent>>((resolve) => this.#waiting.push(resolve));
      if (next.done) {
        if (this.#failure !== undefined) throw this.#failure;
        return;
      }
      yield next.value;
    }
  }
}
