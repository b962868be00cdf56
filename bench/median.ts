/** The median the benches report: the middle of the sorted samples (the upper one of an even count), 0 for none. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
}
