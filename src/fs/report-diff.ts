/**
 * The diff a file report carries, and the patch of every file
 * (`ApplyEditsResult.diff`, what `fuzzpatch apply --dry-run` prints): a real
 * patch, which `git apply` and fuzzpatch apply to the same bytes the write
 * gives.
 *
 * - A file with a BOM or CRs in its lines is diffed as its characters are
 *   written (`createExactPatch`: the CR and the BOM stay text of their
 *   lines, as `git diff` shows them); the LF-normalised form lost them and
 *   `git apply` rejected every line. A file of CR-terminated lines is one
 *   line to git and to patch(1): its diff is that line, not its CR lines
 *   shown as LF lines, which neither applies to it.
 * - git's extended header (`diff --git`, modes, rename, copy) is written only
 *   where a unified diff cannot say it, so a report's diff stays a plain
 *   unified diff where it can be one. In the patch of every file, a plain
 *   section after a git one gets a `diff --git` header too: git reads the
 *   lines after an extended header as that file's until the next
 *   `diff --git`, so a mode-only section ran into the next file's
 *   `---`/`+++` (re-applied, the wrong file became executable).
 */

import { createExactPatch, createPatch, createPatchOfChanges, type CreatePatchOptions } from "../formats/create-patch.ts";
import type { TextChange } from "../text/common-ends.ts";
import { layoutText, type TextLayout } from "./read-file.ts";

/** What the diff of a report says about its file. */
export interface DiffFile {
  path: string;
  status: string;
  movedTo?: string;
  copiedFrom?: string;
  similarity?: number;
  oldMode?: number;
  newMode?: number;
  diff: string;
}

/** One file's change, as the file layer knows it. */
export interface FileChange {
  oldText: string;
  /** The new text; read only when `changes` cannot say the diff (a rope over the old text: read whole, it is copied). */
  newText: () => string;
  /** The new text as changes of the old one, when known. */
  changes?: readonly TextChange[];
  /** The file's BOM and CRLF, as the write puts them back (none for an undecoded text: its bytes are kept otherwise). */
  layout?: Pick<TextLayout, "bom" | "crlf">;
  created: boolean;
  deleted: boolean;
}

/** The hunks of one file's change, with `---`/`+++` headers from `paths`. */
export function changeHunks(change: FileChange, paths: CreatePatchOptions): string {
  const { oldText, changes, layout } = change;
  const newText = change.deleted ? "" : undefined;
  const whole = () => newText ?? change.newText();
  // CRs the text itself holds (a file of mixed endings, read as it is; a file of CR-terminated
  // lines, which git reads as one line): its characters, diffed whole.
  const carriesCr = oldText.includes("\r") || (changes ? changes.some((c) => c.text.includes("\r")) : whole().includes("\r"));
  if (carriesCr) {
    const raw = (text: string, absent: boolean) => (absent || layout === undefined ? text : layoutText(text, layout));
    return createExactPatch(raw(oldText, change.created), raw(whole(), change.deleted), paths);
  }
  // The bounded line diff of createPatch (numbered hunks): jsdiff's unbounded one took 1 s to show
  // 2,400 `}` lines deleted from 8,000.
  const hunks = changes ? createPatchOfChanges(oldText, changes, paths) : createPatch(oldText, whole(), paths);
  if (layout === undefined || (!layout.bom && !layout.crlf)) return hunks;
  return withLayout(hunks, layout, change);
}

/**
 * The LF diff of a uniformly CRLF or BOM file as its lines are written: a CR
 * at the end of every body line that has a break, the BOM on line 1 of a
 * side that has the file. The same as `createExactPatch` of the written
 * texts, without diffing them whole (the LF diff is made from the edit's
 * changes alone).
 */
function withLayout(hunks: string, layout: Pick<TextLayout, "bom" | "crlf">, change: FileChange): string {
  const lines = hunks.split("\n");
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      [oldLine, newLine] = [Number(header[1]), Number(header[2])];
      inHunk = true;
      continue;
    }
    const kind = line[0];
    if (!inHunk || (kind !== " " && kind !== "-" && kind !== "+")) {
      inHunk = inHunk && line.startsWith("\\");
      continue;
    }
    const old = kind !== "+";
    const neu = kind !== "-";
    const bom = layout.bom && ((old && oldLine === 1 && !change.created) || (neu && newLine === 1 && !change.deleted));
    const cr = layout.crlf && !(lines[i + 1] ?? "").startsWith("\\");
    lines[i] = `${kind}${bom ? BOM : ""}${line.slice(1)}${cr ? "\r" : ""}`;
    if (old) oldLine++;
    if (neu) newLine++;
  }
  return lines.join("\n");
}

const BOM = "\uFEFF";

/** git's way of writing a file's mode: 100755 for an executable file, else 100644. */
function gitMode(bits: number | undefined): string {
  return bits !== undefined && (bits & 0o111) !== 0 ? "100755" : "100644";
}

/**
 * git's extended header lines for what a unified diff cannot say: a mode
 * change, a copy, a rename without a changed line. Empty otherwise, unless
 * `always` (a section of a patch after a git one), which also names a
 * created or deleted file's mode, as git needs there.
 */
export function gitHeader(report: DiffFile, always = false): string {
  const lines: string[] = [];
  if (report.status === "modified" && report.oldMode !== undefined && report.newMode !== undefined) {
    lines.push(`old mode ${gitMode(report.oldMode)}`, `new mode ${gitMode(report.newMode)}`);
  } else if (report.status === "created" && (report.newMode !== undefined || always) && !report.copiedFrom) {
    lines.push(`new file mode ${gitMode(report.newMode)}`);
  } else if (report.status === "deleted" && always) {
    lines.push(`deleted file mode ${gitMode(report.oldMode)}`);
  }
  const to = report.movedTo ?? report.path;
  if (report.copiedFrom !== undefined) lines.push(`similarity index ${report.similarity ?? 100}%`, `copy from ${report.copiedFrom}`, `copy to ${report.path}`);
  else if (report.movedTo !== undefined) lines.push(`similarity index ${report.similarity ?? 100}%`, `rename from ${report.path}`, `rename to ${report.movedTo}`);
  if (lines.length === 0 && !always) return "";
  return `diff --git a/${report.copiedFrom ?? report.path} b/${to}\n${lines.map((l) => `${l}\n`).join("")}`;
}

/** The patch of every file, in order: after a git section, each plain one gets its `diff --git` header. */
export function joinReportDiffs(files: readonly DiffFile[]): string {
  let out = "";
  let git = false;
  for (const f of files) {
    if (f.diff === "") continue;
    const own = f.diff.startsWith("diff --git ");
    out += git && !own ? gitHeader(f, true) + f.diff : f.diff;
    git ||= own;
  }
  return out;
}

/** The share of the old text's lines a diff keeps, in percent (git prints one with a rename or a copy). */
export function similarity(oldText: string, diff: string): number {
  const total = oldText === "" ? 0 : oldText.split("\n").length - (oldText.endsWith("\n") ? 1 : 0);
  if (total === 0) return 100;
  let removed = 0;
  for (const line of diff.split("\n")) if (line.startsWith("-") && !line.startsWith("--- ")) removed++;
  return Math.floor((100 * Math.max(0, total - removed)) / total);
}
