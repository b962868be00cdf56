/**
 * The files cases are cut from: real source nobody here wrote, read at run
 * time from the installed dependencies (or from a user's repository with
 * `--root`). Nothing is downloaded and nothing is copied into the repo.
 *
 * Files are grouped by package and a case picks a group first, then a file,
 * so the hundreds of `fast-check` modules do not drown out `commander`'s one
 * big file. Listing is sorted, so the same seed picks the same files on any
 * machine with the same lockfile.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Rng } from "./random.ts";

export type Language = "js" | "ts" | "md" | "json" | "other";

export interface CorpusFile {
  /** Path shown in reports, relative to the corpus root. */
  path: string;
  text: string;
  /** `text` split on "\n" (corpus files never contain "\r"). */
  lines: string[];
  /** Each line with all whitespace removed, for fuzzy uniqueness checks. */
  squashed: string[];
  language: Language;
  /** The file's indentation unit: "\t" or a run of spaces. */
  indentUnit: string;
}

export interface Corpus {
  root: string;
  /** Candidate paths (absolute), grouped by package or top-level folder. */
  groups: string[][];
  fileCount: number;
  /** Loads and validates a file; undefined when it is not a usable text file. */
  load(absPath: string): CorpusFile | undefined;
  /** A usable file chosen by `rng` (group first, then file). */
  pick(rng: Rng): CorpusFile;
}

export interface CorpusOptions {
  /**
   * A user's repository to draw files from instead of the dependencies.
   * @default undefined (use `<projectRoot>/node_modules`)
   */
  root?: string;
  /**
   * The project whose `node_modules` is the default corpus.
   * @default process.cwd()
   */
  projectRoot?: string;
}

/** Files above this are skipped: huge files are bundles or generated data. */
export const MAX_FILE_BYTES = 300 * 1024;
/** A line longer than this means minified or generated text. */
const MAX_LINE_LENGTH = 400;
const MIN_LINES = 20;

const DEPENDENCY_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".md", ".json"];
const REPOSITORY_EXTENSIONS = [
  ...DEPENDENCY_EXTENSIONS,
  ".tsx",
  ".jsx",
  ".py",
  ".rs",
  ".go",
  ".java",
  ".kt",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".hpp",
  ".cs",
  ".rb",
  ".php",
  ".swift",
  ".css",
  ".scss",
  ".html",
  ".vue",
  ".svelte",
  ".yml",
  ".yaml",
  ".toml",
  ".sh",
  ".txt",
];
// Folders that hold other people's or generated files inside a user's repository.
const REPOSITORY_SKIP = new Set([
  "node_modules",
  ".git",
  "dist",
  "build",
  "out",
  "coverage",
  "target",
  "vendor",
  ".venv",
  "__pycache__",
]);

function languageOf(path: string): Language {
  if (/\.[cm]?js$|\.jsx$/.test(path)) return "js";
  if (/\.[cm]?ts$|\.tsx$/.test(path)) return "ts";
  if (path.endsWith(".md")) return "md";
  if (path.endsWith(".json")) return "json";
  return "other";
}

/**
 * The most common indentation step between consecutive lines: "\t" or N spaces.
 * Kept apart from the engine's own detection (src/text/document.ts) on
 * purpose: the benchmark writes expected outputs in the file's conventions and
 * must not inherit the engine's mistakes.
 */
export function detectIndentUnit(lines: readonly string[]): string {
  let tabs = 0;
  const steps = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (line.startsWith("\t")) {
      tabs++;
      continue;
    }
    const width = line.length - line.trimStart().length;
    const step = width - previous;
    if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
    previous = width;
  }
  let best = 2;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount) {
      best = step;
      bestCount = count;
    }
  }
  if (tabs > bestCount) return "\t";
  return " ".repeat(best);
}

function listFiles(dir: string, extensions: readonly string[], skip: ReadonlySet<string>, out: string[]): void {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (skip.has(entry.name)) continue;
    const full = join(dir, entry.name);
    // Symlinks are not followed: they lead out of the tree or into loops.
    if (entry.isDirectory()) listFiles(full, extensions, skip, out);
    else if (entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext))) out.push(full);
  }
}

/** The package a node_modules path belongs to ("typescript", "@types/node"). */
function groupKey(root: string, absPath: string, byPackage: boolean): string {
  const parts = relative(root, absPath).split(sep);
  if (!byPackage) return parts.length > 1 ? (parts[0] ?? "") : ".";
  // Nested node_modules: the innermost package wins.
  const last = parts.lastIndexOf("node_modules");
  const rest = last >= 0 ? parts.slice(last + 1) : parts;
  const first = rest[0] ?? "";
  return first.startsWith("@") ? `${first}/${rest[1] ?? ""}` : first;
}

/** Validates one file's bytes; undefined when binary, minified or otherwise unusable. */
export function parseCorpusFile(path: string, bytes: Buffer): CorpusFile | undefined {
  if (bytes.length > MAX_FILE_BYTES || bytes.includes(0)) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // CRLF and BOM files are left out so every mistake starts from a clean
  // LF view; the CRLF mistake kind converts files itself.
  if (text.includes("\r") || text.startsWith("\uFEFF")) return undefined;
  const lines = text.split("\n");
  if (lines.length < MIN_LINES) return undefined;
  let total = 0;
  for (const line of lines) {
    if (line.length > MAX_LINE_LENGTH) return undefined;
    total += line.length;
  }
  if (total / lines.length > 120) return undefined;
  return {
    path,
    text,
    lines,
    squashed: lines.map((line) => line.replace(/\s+/g, "")),
    language: languageOf(path),
    indentUnit: detectIndentUnit(lines),
  };
}

export function findCorpus(options: CorpusOptions = {}): Corpus {
  const projectRoot = options.projectRoot ?? process.cwd();
  const fromRepository = options.root !== undefined;
  const root = options.root ?? join(projectRoot, "node_modules");
  const paths: string[] = [];
  const skip = fromRepository ? REPOSITORY_SKIP : new Set([".bin", ".cache", ".package-lock.json"]);
  listFiles(root, fromRepository ? REPOSITORY_EXTENSIONS : DEPENDENCY_EXTENSIONS, skip, paths);
  paths.sort();
  const byGroup = new Map<string, string[]>();
  for (const path of paths) {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      continue;
    }
    if (size > MAX_FILE_BYTES || size < 200) continue;
    const key = groupKey(root, path, !fromRepository);
    const group = byGroup.get(key) ?? [];
    group.push(path);
    byGroup.set(key, group);
  }
  const groups = [...byGroup.keys()].sort().map((key) => byGroup.get(key) ?? []);
  const cache = new Map<string, CorpusFile | undefined>();
  const load = (absPath: string): CorpusFile | undefined => {
    if (cache.has(absPath)) return cache.get(absPath);
    let file: CorpusFile | undefined;
    try {
      file = parseCorpusFile(relative(root, absPath), readFileSync(absPath));
    } catch {
      file = undefined;
    }
    cache.set(absPath, file);
    return file;
  };
  return {
    root,
    groups,
    fileCount: paths.length,
    load,
    pick(rng: Rng): CorpusFile {
      for (let attempt = 0; attempt < 200; attempt++) {
        const group = rng.pick(groups);
        const file = load(rng.pick(group));
        if (file) return file;
      }
      throw new Error(`no usable text files under ${root}`);
    },
  };
}
