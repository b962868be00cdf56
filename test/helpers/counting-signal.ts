/**
 * An AbortSignal that reads as aborted from its (k+1)-th read of `aborted`
 * on, counting the reads: the deadline passing at an arbitrary point of the
 * work, deterministically, without a clock (the budget reads only
 * `aborted`; a real signal is its prototype, so options accept it).
 */
export function countingSignal(abortAfterReads = Number.POSITIVE_INFINITY): { signal: AbortSignal; reads: () => number } {
  let reads = 0;
  const signal: AbortSignal = Object.create(new AbortController().signal, { aborted: { get: () => ++reads > abortAfterReads } });
  return { signal, reads: () => reads };
}
