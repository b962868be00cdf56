/**
 * A text as the change it made to another: a batch worker sends a result's
 * text back to the pool this way, since the pool holds the case's own text.
 * Cloning a whole text between threads (the real edits: 50 kB a case, a
 * rope flattened, copied out and in again) cost ~80 µs of CPU a case; the
 * change is a few lines. Exact in UTF-16 code units (a cut inside a
 * surrogate pair is put back together).
 */
import { commonPrefixLength, commonSuffixLength } from "../text/common-ends.ts";

/** `text` is `base` with [start, base.length - tail) replaced by `middle`. */
export interface TextDelta {
  start: number;
  tail: number;
  middle: string;
}

export function textDelta(base: string, text: string): TextDelta {
  const start = commonPrefixLength(base, text);
  const tail = commonSuffixLength(base, text, Math.min(base.length, text.length) - start);
  return { start, tail, middle: text.slice(start, text.length - tail) };
}

export function withDelta(base: string, delta: TextDelta): string {
  return base.slice(0, delta.start) + delta.middle + base.slice(base.length - delta.tail);
}
