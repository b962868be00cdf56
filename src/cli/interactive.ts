/**
 * `--interactive`: when an edit matches several places, show each candidate
 * with its line numbers and some context, and let the user pick one or skip.
 */

import type { AmbiguityChoice } from "../fs/apply-edits.ts";
import { colorsFor, type Streams } from "./output.ts";

const CONTEXT = 2;

export function formatCandidates(choice: AmbiguityChoice): string {
  const lines = choice.text.split("\n");
  // A final newline ends the last line; it does not start another.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const width = String(lines.length).length;
  const which = choice.hunk === undefined ? "" : `, hunk ${choice.hunk + 1}`;
  const parts: string[] = [`${choice.path}: edit ${choice.index + 1}${which} matches ${choice.candidates.length} places:`];
  for (const [n, cand] of choice.candidates.entries()) {
    parts.push(`  [${n + 1}] lines ${cand.startLine}-${cand.endLine}`);
    const from = Math.max(1, cand.startLine - CONTEXT);
    const to = Math.min(lines.length, cand.endLine + CONTEXT);
    for (let l = from; l <= to; l++) {
      const mark = l >= cand.startLine && l <= cand.endLine ? ">" : " ";
      parts.push(`    ${mark} ${String(l).padStart(width)} | ${lines[l - 1] ?? ""}`);
    }
  }
  return `${parts.join("\n")}\n`;
}

export async function promptCandidate(choice: AmbiguityChoice, streams: Streams, stdin: NodeJS.ReadStream): Promise<number | null> {
  const c = colorsFor(streams, "err");
  streams.err.write(formatCandidates(choice));
  // Loaded here, not at the top: only an ambiguous edit on a terminal asks, and every start would pay for readline.
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: stdin, output: streams.err, terminal: false });
  try {
    for (;;) {
      const answer = (await rl.question(c.bold(`Pick 1-${choice.candidates.length}, or s to skip: `))).trim().toLowerCase();
      if (answer === "s" || answer === "") return null;
      const n = Number.parseInt(answer, 10);
      if (Number.isInteger(n) && n >= 1 && n <= choice.candidates.length) return n - 1;
    }
  } finally {
    rl.close();
  }
}
