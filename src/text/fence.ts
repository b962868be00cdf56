/**
 * Markdown code fences in a model's response, read by scanning the line.
 *
 * No regular expression: the pattern this replaces,
 * /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/, backtracks quadratically on a line of
 * three backticks, spaces and a final backtick (100k spaces: 8.5 s). A fence
 * is up to three spaces, a run of at least three backticks or tildes, then an
 * info string; a backtick fence's info string holds no backtick (as the old
 * pattern had it, for tilde fences too).
 */

export interface FenceOpener {
  /** The run of backticks or tildes. */
  marker: string;
  /** The info string, trimmed (`diff`, `json`, `ts title="x"`), as written. */
  info: string;
}

function leadingSpaces(line: string): number {
  let i = 0;
  while (i < line.length && i < 4 && line.charCodeAt(i) === 32) i++;
  return i;
}

/** The fence a line opens, or undefined when it opens none. */
export function readFenceOpener(line: string): FenceOpener | undefined {
  const indent = leadingSpaces(line);
  if (indent > 3) return undefined;
  const ch = line[indent];
  if (ch !== "`" && ch !== "~") return undefined;
  let end = indent;
  while (line[end] === ch) end++;
  if (end - indent < 3) return undefined;
  const rest = line.slice(end);
  if (rest.includes("`")) return undefined;
  return { marker: line.slice(indent, end), info: rest.trim() };
}

/** Whether `line` closes a fence opened by `marker`: the same character, at least as many, nothing after but blank space. */
export function closesFence(line: string, marker: string): boolean {
  const indent = leadingSpaces(line);
  if (indent > 3) return false;
  const ch = marker[0];
  let end = indent;
  while (line[end] === ch) end++;
  return end - indent >= marker.length && line.slice(end).trim() === "";
}
