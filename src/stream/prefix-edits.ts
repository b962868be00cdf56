/**
 * What the text of a response seen so far says about its edits: which have
 * started, which are complete (nothing the model writes next can change
 * them), and which one is still being written. The registry's own detection
 * reads the prefix (formats/response.ts), so a format needs nothing extra to
 * stream; this module only decides completeness, by rules that hold for
 * every format:
 *
 * 1. An edit is complete once a later edit has started: every format ends an
 *    edit before the next one begins (a new SEARCH block, a new `---` file
 *    header, a new V4A `*** Update File:` section).
 * 2. An edit that is found at all only when it is closed is complete when
 *    found: a SEARCH/REPLACE block (the parser refuses a block cut off before
 *    `>>>>>>> REPLACE`) and a JSON edit (JSON that parses is whole).
 * 3. An edit inside a code fence that has closed is complete.
 * 4. A V4A section is complete once `*** End Patch` follows it.
 * 5. Everything is complete when the response ends.
 *
 * A SEARCH/REPLACE block still being written is not found by detection (rule
 * 2), so the prefix is read with the block closed after the lines so far
 * (`closeOpenBlock`): its text to find is located while the model writes it.
 */
import { detectEdits } from "../formats/response.ts";
import { findFences } from "../formats/response.ts";
import { classifyMarkerLine } from "../formats/search-replace-parse.ts";
import type { FileEdit } from "../formats/types.ts";

/** The replacement given to a block closed early: a line no file holds, so the block is never "already applied". */
export const PROBE_LINE = "\u27EAfuzzpatch streaming probe\u27EB";

/** Where a response's open SEARCH/REPLACE block is, if its last block is not closed yet. */
export type OpenBlock = "none" | "search" | "replace";

/**
 * The section of a SEARCH/REPLACE block the prefix ends in, by the parser's
 * own marker classifier and its state machine (start -> search -> replace
 * -> start); a `=======` outside a block (a Markdown heading rule) is prose.
 * `searchLines`: the non-blank lines of the open block's SEARCH text so far.
 */
export function openBlockOf(lines: readonly string[]): { state: OpenBlock; searchLines: number } {
  let state: OpenBlock = "none";
  let searchLines = 0;
  for (const line of lines) {
    const kind = classifyMarkerLine(line);
    if (kind === "open" && state === "none") {
      state = "search";
      searchLines = 0;
    } else if (kind === "separator" && state === "search") state = "replace";
    else if (kind === "close" && state !== "none") state = "none";
    else if (kind === "text" && state === "search" && line.trim() !== "") searchLines++;
  }
  return { state, searchLines };
}

/** The prefix with its open block closed: in SEARCH with a probe replacement, in REPLACE as written so far. */
export function closeOpenBlock(prefix: string, open: OpenBlock): string {
  const sep = prefix === "" || prefix.endsWith("\n") ? "" : "\n";
  if (open === "search") return `${prefix}${sep}=======\n${PROBE_LINE}\n>>>>>>> REPLACE\n`;
  if (open === "replace") return `${prefix}${sep}>>>>>>> REPLACE\n`;
  return prefix;
}

export interface PrefixEdit {
  /** Index among the response's edits (they are ordered by the line they start on). */
  index: number;
  edit: FileEdit;
  /** Nothing written after the prefix can change this edit. */
  complete: boolean;
}

export interface PrefixReading {
  /** The text the edits were read from (the prefix, its open block closed). */
  text: string;
  edits: PrefixEdit[];
  /** The prefix ends inside a SEARCH/REPLACE block: the last edit is that block, closed here. */
  open: OpenBlock;
  /** Non-blank lines of the open block's SEARCH text so far. */
  searchLines: number;
}

/** Closed by being found (rule 2). */
const WHOLE_WHEN_FOUND = new Set(["search-replace", "str-replace", "anchored"]);

/**
 * Reads the edits of a prefix of complete lines (`ended`: the whole
 * response). Edits without a line (a response that is one JSON value) are
 * complete only at the end.
 */
export function readPrefix(prefix: string, format: string, defaultPath: string | undefined, ended: boolean): PrefixReading {
  const lines = prefix.replace(/\r\n/g, "\n").split("\n");
  const block = ended ? { state: "none" as const, searchLines: 0 } : openBlockOf(lines);
  const open = block.state;
  const text = closeOpenBlock(prefix, open);
  const found = detectEdits(text, format, defaultPath === undefined ? {} : { defaultPath }).edits;
  const fences = findFences(lines);
  let endPatch = -1;
  for (let i = lines.length - 1; i >= 0 && endPatch === -1; i--) if ((lines[i] as string).trim() === "*** End Patch") endPatch = i;
  const edits = found.map((edit, index): PrefixEdit => {
    const next = found[index + 1];
    const line = edit.line;
    const isProbe = open !== "none" && index === found.length - 1;
    const complete =
      ended ||
      (line !== undefined && next?.line !== undefined && next.line > line) ||
      (!isProbe && line !== undefined && WHOLE_WHEN_FOUND.has(edit.format)) ||
      (line !== undefined && fences.some((f) => f.open < line - 1 && line - 1 < f.close && f.close < lines.length)) ||
      (line !== undefined && edit.format === "v4a" && endPatch >= line);
    return { index, edit, complete };
  });
  return { text, edits, open, searchLines: block.searchLines };
}
