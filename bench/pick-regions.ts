/** Lines an edit of the speed benches replaces (bench/speed.ts, bench/edit-file-in-process.ts). */
export const REGION_LINES = 12;

/** `count` regions of REGION_LINES indented, distinct, non-blank lines, unique in the file, spread from 5 % to 95 %. */
export function pickRegions(lines: readonly string[], content: string, count: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    for (let i = Math.floor(lines.length * (0.05 + (0.9 * k) / count)); i < lines.length - REGION_LINES; i++) {
      const block = lines.slice(i, i + REGION_LINES);
      if (!block.every((l) => l.trim().length > 3 && l.startsWith("  ")) || new Set(block).size !== REGION_LINES) continue;
      const text = block.join("\n");
      if (content.indexOf(text) !== content.lastIndexOf(text)) continue;
      out.push(i);
      break;
    }
  }
  return out;
}
