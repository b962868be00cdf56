/**
 * `apply --stat`, `--numstat` and `--summary` of a diff read from the patch
 * alone, as `git apply --stat` reads it: the files and line counts it says,
 * whether or not it would apply to the tree (before, a patch that did not
 * apply printed no line for its file).
 */

import { formatByName, type ResponseFormat } from "../formats/index.ts";
import { detectEdits } from "../formats/response.ts";
import type { FileEdit } from "../formats/types.ts";
import type { UdiffPayload } from "../formats/udiff-format.ts";
import { stripComponents } from "../fs/rewrite-edits.ts";
import { type Colors, countChanges, type StatFile } from "./output.ts";

export interface PatchTableOptions {
  format: ResponseFormat;
  strip?: number;
  reverse: boolean;
}

/**
 * The files of `input` for the tables, or undefined when it is not only
 * unified diffs (other formats say their lines only once found in the file:
 * the tables then come from a dry run).
 */
export function patchTableFiles(input: string, options: PatchTableOptions): StatFile[] | undefined {
  const detected = detectEdits(input, options.format);
  if (detected.errors.length > 0 || detected.edits.length === 0 || detected.edits.some((e) => e.format !== "udiff")) return undefined;
  const udiff = formatByName("udiff");
  const files: StatFile[] = [];
  for (const found of detected.edits as FileEdit<UdiffPayload>[]) {
    const edit = options.reverse && udiff?.reverse ? (udiff.reverse(found as FileEdit<never>) as FileEdit<UdiffPayload>) : found;
    const { isNew, isDeleted, git, patch } = edit.payload;
    // -p N strips the header's path as written (a/src/x.ts); without it the path is read as git writes it.
    const path = options.strip === undefined ? edit.path : (stripComponents(edit.writtenPath ?? edit.path, options.strip) ?? edit.path);
    const movedTo = git?.moveTo;
    files.push({
      path,
      // The section itself: its `@@` hunks are what the counts read (a mode-only section counts 0).
      diff: patch,
      status: isNew ? "created" : isDeleted ? "deleted" : "modified",
      ...(movedTo !== undefined && { movedTo }),
      ...(git?.copyFrom !== undefined && { copiedFrom: git.copyFrom }),
      ...(git?.similarity !== undefined && { similarity: git.similarity }),
      ...(git?.oldMode !== undefined && { oldMode: git.oldMode }),
      ...(git?.newMode !== undefined && { newMode: git.newMode }),
    });
  }
  // git apply -R lists the files last first (measured with git 2.x on the tables' test patch).
  return options.reverse ? files.reverse() : files;
}

/** Longest name `formatApplyStat` writes whole, and the width of a line past which the bars are scaled down. */
const NAME_WIDTH = 50;
const LINE_WIDTH = 70;

/**
 * `git apply --stat`'s table (its layout, not `git diff --stat`'s): each file
 * by its new name (its old one when deleted), padded to the longest name of
 * either side, the count in five columns, bars scaled to fit 70 columns
 * with the name; then the totals.
 */
export function formatApplyStat(files: readonly StatFile[], c: Colors): string {
  const rows = files.map((f) => ({ name: f.movedTo ?? f.path, names: [f.path, ...(f.movedTo === undefined ? [] : [f.movedTo])], ...countChanges(f.diff) }));
  if (rows.length === 0) return " 0 files changed\n";
  const nameWidth = Math.max(...rows.flatMap((r) => r.names.map((n) => n.length)));
  const largest = Math.max(...rows.map((r) => r.insertions + r.deletions));
  const shown = Math.min(nameWidth, NAME_WIDTH);
  const barWidth = shown + largest > LINE_WIDTH ? LINE_WIDTH - shown : largest;
  let insertions = 0;
  let deletions = 0;
  const lines = rows.map((r) => {
    insertions += r.insertions;
    deletions += r.deletions;
    let plus = r.insertions;
    let minus = r.deletions;
    if (largest > 0) {
      // Rounded to the nearest column, the total first so the bar keeps its length.
      const total = Math.floor(((r.insertions + r.deletions) * barWidth + Math.floor(largest / 2)) / largest);
      plus = Math.floor((r.insertions * barWidth + Math.floor(largest / 2)) / largest);
      minus = total - plus;
    }
    const name = r.name.length > shown ? shortened(r.name, shown) : r.name;
    return ` ${name.padEnd(shown)} |${String(r.insertions + r.deletions).padStart(5)} ${c.green("+".repeat(plus))}${c.red("-".repeat(minus))}`;
  });
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const totals = [`${plural(rows.length, "file")} changed`];
  if (insertions > 0 || deletions === 0) totals.push(`${plural(insertions, "insertion")}(+)`);
  if (deletions > 0 || insertions === 0) totals.push(`${plural(deletions, "deletion")}(-)`);
  return `${lines.join("\n")}\n ${totals.join(", ")}\n`;
}

/** A name longer than `width`, cut at a directory where it can be, behind "...". */
function shortened(name: string, width: number): string {
  const from = name.length + 3 - width;
  const slash = name.indexOf("/", from);
  return `...${name.slice(slash === -1 ? from : slash)}`;
}
