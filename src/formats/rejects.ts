/**
 * The text of a `.rej` file (`apply --reject`): what did not apply, in a
 * form a user recognises and a model can send again.
 *
 *   rej-file  := section+
 *   section   := "diff a/" PATH " b/" PATH "\t(rejected hunks)" NL hunk+     (diff hunks, as git apply --reject writes)
 *              | PATH NL (block | json-edit)+                                  (SEARCH/REPLACE blocks, str_replace edits, V4A chunks)
 *   block     := "<<<<<<< SEARCH" NL old "=======" NL new ">>>>>>> REPLACE" NL
 *   json-edit := "```json" NL {"path", "oldString", "newString", "replaceAll": true} NL "```" NL
 *
 * A hunk is written from what the parser read (header numbers, prefixed
 * lines, `\ No newline at end of file`): the same lines git writes for a
 * diff git made. Everything else is written as SEARCH/REPLACE blocks under
 * the file's path, which `fuzzpatch apply FILE.rej` reads back; a
 * str_replace edit with `replaceAll` has no block form (a block replaces one
 * place) and stays a JSON edit.
 */
import type { Hunk } from "./unified-parse.ts";

/** One failed op in its `.rej` form. */
export interface RejectedOp {
  /** A diff hunk; SEARCH/REPLACE blocks (under a path line); a fenced JSON edit (naming its own path). */
  kind: "hunk" | "block" | "json";
  text: string;
}

/**
 * A hunk as a diff writes it: its `@@` line as the patch has it (`written`,
 * with git's function name after it), else one made from its numbers (counts
 * of 1 left out, as git does), then its prefixed lines. `last`: the patch's
 * last hunk, whose blank context lines at the end may have been trimmed.
 */
export function hunkText(h: Hunk, written?: string, last = false): string {
  const range = (start: number | undefined, count: number | undefined) => (start === undefined ? "" : count === 1 ? `${start}` : `${start},${count ?? 1}`);
  const made = h.oldStart === undefined && h.newStart === undefined ? "@@ @@" : `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`;
  const header = written?.startsWith("@@") ? written : made;
  const lastOld = lastOf(h, "add");
  const lastNew = lastOf(h, "delete");
  const out = [header];
  h.lines.forEach((l, k) => {
    out.push(`${l.kind === "add" ? "+" : l.kind === "delete" ? "-" : " "}${l.text}`);
    if ((k === lastOld && h.oldEofNoNewline) || (k === lastNew && h.newEofNoNewline)) out.push("\\ No newline at end of file");
  });
  for (let k = last ? trimmedBlankContext(h) : 0; k > 0; k--) out.push(" ");
  return `${out.join("\n")}\n`;
}

/**
 * Blank context lines the response reader trimmed from the end of a diff
 * (git ends a hunk with ` ` for a blank line; a trailing whitespace line
 * reads as the prose's): as many as the header counts on both sides beyond
 * the lines read, when those counts agree. Not after a final-newline marker.
 */
function trimmedBlankContext(h: Hunk): number {
  if (h.oldLines === undefined || h.newLines === undefined || h.oldEofNoNewline || h.newEofNoNewline) return 0;
  let oldRead = 0;
  let newRead = 0;
  for (const l of h.lines) {
    if (l.kind !== "add") oldRead++;
    if (l.kind !== "delete") newRead++;
  }
  const missing = h.oldLines - oldRead;
  return missing > 0 && missing <= 3 && missing === h.newLines - newRead ? missing : 0;
}

/** The index of the last line of a hunk that is not of kind `other` (-1: none). */
function lastOf(h: Hunk, other: "add" | "delete"): number {
  for (let k = h.lines.length - 1; k >= 0; k--) if (h.lines[k]?.kind !== other) return k;
  return -1;
}

/** A SEARCH/REPLACE block of `search` (the text to find) and `replace`. */
export function blockText(search: string, replace: string): string {
  const side = (s: string) => (s === "" ? "" : `${s}${s.endsWith("\n") ? "" : "\n"}`);
  return `<<<<<<< SEARCH\n${side(search)}=======\n${side(replace)}>>>>>>> REPLACE\n`;
}

/** A str_replace edit that replaces every occurrence, as the JSON edit `apply` reads. */
export function replaceAllText(path: string, oldString: string, newString: string): string {
  return `\`\`\`json\n${JSON.stringify({ path, oldString, newString, replaceAll: true })}\n\`\`\`\n`;
}

/**
 * The `.rej` file of one file: its failed ops in order, a section per run of
 * one kind, each headed by the path the file has after the edit (git names
 * a renamed file by its new path on both sides of the header).
 */
export function rejectFileText(path: string, ops: readonly RejectedOp[]): string {
  let out = "";
  let kind: RejectedOp["kind"] | undefined;
  for (const op of ops) {
    if (op.kind !== kind) {
      const gap = out === "" ? "" : "\n";
      out += op.kind === "hunk" ? `${gap}diff a/${path} b/${path}\t(rejected hunks)\n` : op.kind === "block" ? `${gap}${path}\n` : gap;
      kind = op.kind;
    }
    out += op.text;
  }
  return out;
}
