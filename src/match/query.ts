import type { Query } from "./types.ts";

/** Prepares the model's find text; CRLF written by the model is read as LF. */
export function createQuery(find: string): Query {
  const text = find.replaceAll("\r\n", "\n");
  const endsWithNewline = text.endsWith("\n");
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split("\n");
  return { text, lines, endsWithNewline, trimmed: lines.map((l) => l.trim()) };
}

/** A query made of lines, as strategies that rewrite the find text need. */
export function queryFromLines(lines: readonly string[], endsWithNewline: boolean): Query {
  const text = lines.join("\n") + (endsWithNewline ? "\n" : "");
  return { text, lines, endsWithNewline, trimmed: lines.map((l) => l.trim()) };
}
