/**
 * The naive baseline: each marker keeps the file's lines between the
 * snippet line before it and the snippet line after it, each found exactly
 * (first occurrence after the previous one); the snippet's other lines are
 * written as they are. No alignment, no leniency, no refusal but "not found".
 */
import { EditError } from "../../src/errors.ts";
import { classifySnippet } from "../../src/lazy/markers.ts";

export function naiveMerge(content: string, snippet: string): string {
  const file = content.replace(/\n$/, "").split("\n");
  const snip = classifySnippet(snippet.split("\n"), new Set(file.map((l) => l.trim())));
  const out: string[] = [];
  let pos = 0;
  const find = (text: string, from: number) => {
    const k = file.indexOf(text, from);
    if (k === -1) throw new EditError("NOT_FOUND", `naive: "${text}" not found`);
    return k;
  };
  for (let s = 0; s < snip.length; s++) {
    const line = snip[s];
    if (!line) continue;
    if (line.kind === "code") {
      out.push(line.text);
      continue;
    }
    const prev = s > 0 ? snip[s - 1] : undefined;
    const next = snip.slice(s + 1).find((l) => l.kind === "code");
    const from = prev && prev.kind === "code" ? find(prev.text, pos) + 1 : pos;
    const to = next ? find(next.text, from) : file.length;
    for (let k = from; k < to; k++) out.push(file[k] as string);
    pos = to;
  }
  return `${out.join("\n")}\n`;
}
