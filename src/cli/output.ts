/**
 * Terminal output: colour decisions, diff colouring, diffstat, error lines.
 * With `--color auto` (the default) colours are on only for a terminal, and
 * never when NO_COLOR is set (no-color.org) or TERM is "dumb"; `always` and
 * `never` are the user's explicit word and beat both (no-color.org: a
 * command-line flag overrides NO_COLOR).
 */

import type { EditError } from "../errors.ts";
import { type Colors, createColors } from "./colors.ts";

export type { Colors };

export const COLOR_MODES = ["auto", "always", "never"] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

export interface Streams {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** `--color`; `auto` when unset. */
  color?: ColorMode;
}

export function colorsFor(streams: Streams, which: "out" | "err"): Colors {
  const mode = streams.color ?? "auto";
  const enabled = mode === "auto" ? streams[which].isTTY === true && !streams.env.NO_COLOR && streams.env.TERM !== "dumb" : mode === "always";
  return createColors(enabled);
}

export function colorDiff(diff: string, c: Colors): string {
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return c.bold(line);
      if (line.startsWith("+")) return c.green(line);
      if (line.startsWith("-")) return c.red(line);
      if (line.startsWith("@@")) return c.cyan(line);
      return line;
    })
    .join("\n");
}

/** Lines added and removed by one file's unified diff (headers not counted). */
export function countChanges(diff: string): { insertions: number; deletions: number } {
  let insertions = 0;
  let deletions = 0;
  let inHunk = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("@@")) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith("+")) insertions++;
    else if (line.startsWith("-")) deletions++;
  }
  return { insertions, deletions };
}

const BAR_WIDTH = 40;

/**
 * `git diff --stat` style: one line per file with its count of changed lines
 * and a bar of `+` and `-` (scaled down when the largest file would not fit),
 * then the totals.
 */
export function formatStat(files: readonly { path: string; diff: string; movedTo?: string }[], c: Colors): string {
  // A moved file is named as git does: `old => new`.
  const rows = files.filter((f) => f.diff !== "").map((f) => ({ path: f.movedTo === undefined ? f.path : `${f.path} => ${f.movedTo}`, ...countChanges(f.diff) }));
  if (rows.length === 0) return " 0 files changed\n";
  const nameWidth = Math.max(...rows.map((r) => r.path.length));
  const largest = Math.max(...rows.map((r) => r.insertions + r.deletions));
  const countWidth = String(largest).length;
  const scale = largest > BAR_WIDTH ? BAR_WIDTH / largest : 1;
  let insertions = 0;
  let deletions = 0;
  const lines = rows.map((r) => {
    insertions += r.insertions;
    deletions += r.deletions;
    // A file with any change keeps at least one mark of each kind it has.
    const plus = r.insertions === 0 ? 0 : Math.max(1, Math.round(r.insertions * scale));
    const minus = r.deletions === 0 ? 0 : Math.max(1, Math.round(r.deletions * scale));
    const bar = `${c.green("+".repeat(plus))}${c.red("-".repeat(minus))}`;
    return ` ${r.path.padEnd(nameWidth)} | ${String(r.insertions + r.deletions).padStart(countWidth)}${bar === "" ? "" : ` ${bar}`}`;
  });
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const totals = [`${plural(rows.length, "file")} changed`];
  if (insertions > 0 || deletions === 0) totals.push(`${plural(insertions, "insertion")}(+)`);
  if (deletions > 0 || insertions === 0) totals.push(`${plural(deletions, "deletion")}(-)`);
  return `${lines.join("\n")}\n ${totals.join(", ")}\n`;
}

/** What a file report tells `--numstat` and `--summary`. */
export interface StatFile {
  path: string;
  diff: string;
  status: string;
  movedTo?: string;
  /** Permission bits before and after, when the edit changes them or creates or deletes the file. */
  oldMode?: number;
  newMode?: number;
  /** A moved or copied file: the share of its lines kept, in percent. */
  similarity?: number;
  copiedFrom?: string;
}

/** git's way of writing a file's mode in a patch: 100755 for an executable file, else 100644. */
export function gitMode(mode: number | undefined): string {
  return mode !== undefined && (mode & 0o111) !== 0 ? "100755" : "100644";
}

/** `git apply --numstat`: added and deleted lines and the path, tab-separated, one file a line. */
export function formatNumstat(files: readonly StatFile[]): string {
  let out = "";
  for (const f of files) {
    if (f.diff === "" && f.status !== "modified") continue;
    const { insertions, deletions } = countChanges(f.diff);
    // git names a renamed file by its new path here.
    out += `${insertions}\t${deletions}\t${f.movedTo ?? f.path}\n`;
  }
  return out;
}

/**
 * `git apply --summary`: files created, deleted, renamed and whose mode
 * changed, as git writes them (` create mode 100644 new.txt`,
 * ` rename old.txt => new.txt (100%)`).
 */
export function formatSummary(files: readonly StatFile[]): string {
  let out = "";
  for (const f of files) {
    if (f.copiedFrom !== undefined) out += ` copy ${renameName(f.copiedFrom, f.path)} (${f.similarity ?? 100}%)\n`;
    else if (f.status === "created") out += ` create mode ${gitMode(f.newMode)} ${f.path}\n`;
    else if (f.status === "deleted") out += ` delete mode ${gitMode(f.oldMode)} ${f.path}\n`;
    if (f.movedTo !== undefined) out += ` rename ${renameName(f.path, f.movedTo)} (${f.similarity ?? 100}%)\n`;
    if (f.status === "modified" && f.oldMode !== undefined && f.newMode !== undefined && gitMode(f.oldMode) !== gitMode(f.newMode)) {
      out += ` mode change ${gitMode(f.oldMode)} => ${gitMode(f.newMode)} ${f.movedTo ?? f.path}\n`;
    }
  }
  return out;
}

/** `a/x.txt => a/y.txt` as git shortens it: the directories both share are written once, `a/{x.txt => y.txt}`. */
export function renameName(from: string, to: string): string {
  let prefix = 0;
  for (let i = 0; i < Math.min(from.length, to.length) && from[i] === to[i]; i++) if (from[i] === "/") prefix = i + 1;
  let suffix = 0;
  for (let k = 1; k <= Math.min(from.length, to.length) - prefix && from[from.length - k] === to[to.length - k]; k++) {
    if (from[from.length - k] === "/") suffix = k;
  }
  if (prefix === 0 && suffix === 0) return `${from} => ${to}`;
  const mid = (p: string) => p.slice(prefix, p.length - suffix);
  return `${from.slice(0, prefix)}{${mid(from)} => ${mid(to)}}${from.slice(from.length - suffix)}`;
}

/** `CODE: message` on stderr, the format every error of the CLI uses. */
export function writeError(streams: Streams, error: Pick<EditError, "code" | "message">, prefix = ""): void {
  const c = colorsFor(streams, "err");
  streams.err.write(`${c.red(`${error.code}:`)} ${prefix}${error.message}\n`);
}

/** A note on stderr: something the user asked for that did not happen, and why. */
export function writeNote(streams: Streams, message: string): void {
  const c = colorsFor(streams, "err");
  streams.err.write(`${c.yellow("note:")} ${message}\n`);
}

/** An EditError as plain JSON (Error fields are not enumerable). */
export function errorToJson(error: EditError): { code: string; message: string; detail: unknown } {
  return { code: error.code, message: error.message, detail: error.detail };
}
