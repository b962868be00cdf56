/** `count` windows of three distinct, non-trivial lines that occur 2-10 times in the file, spread over it: find texts refused as AMBIGUOUS. */
export function findAmbiguous(lines: string[], count: number): string[][] {
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= lines.length; i++) {
    const w = lines.slice(i, i + 3);
    if (!w.every((l) => l.trim().length > 12) || new Set(w).size !== 3) continue;
    const key = w.join("\n");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const found = [...counts].filter(([, n]) => n >= 2 && n <= 10).map(([k]) => k.split("\n"));
  return Array.from({ length: Math.min(count, found.length) }, (_, k) => found[Math.floor((k * found.length) / count)] as string[]);
}
