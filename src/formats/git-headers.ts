/**
 * git's extended header lines: what a `diff --git` section says besides its
 * hunks (modes, renames, copies, binary content). `parsePatch` reads the
 * hunks and paths; this module reads the rest of the section's header, which
 * only the file layer acts on.
 *
 * Grammar (one line each, between `diff --git a/P b/Q` and the first
 * `---` / `@@` line; git writes them in this order):
 *
 *   extended := "old mode " MODE | "new mode " MODE
 *             | "deleted file mode " MODE | "new file mode " MODE
 *             | "copy from " PATH | "copy to " PATH
 *             | "rename from " PATH | "rename to " PATH
 *             | "rename old " PATH | "rename new " PATH      (git before 1.5)
 *             | "similarity index " N "%" | "dissimilarity index " N "%"
 *             | "index " HASH ".." HASH [ " " MODE ]
 *   binary   := "GIT binary patch" | "Binary files " … " differ"
 *   MODE     := octal, e.g. 100644 (file), 100755 (executable), 120000 (symlink)
 *   PATH     := a path without git's a/ b/ prefix, C-quoted when it holds
 *               special characters ("sp\303\244ce")
 *
 * Leniencies: a trailing `\r` (a patch pasted from Windows) and surrounding
 * spaces are dropped. Strictness: a mode git does not write for a text file
 * (a symlink, a submodule) and binary content are refused by the format, by
 * name, instead of being applied as text; so is a `rename`/`copy` line whose
 * path is not the one the `diff --git` line (or the `---`/`+++` line) names
 * for that side, as git apply refuses it (`namesDisagree`).
 */

import { unquoteC } from "./unified-parse.ts";

export interface GitHeaders {
  /** `old mode` / `deleted file mode`: the file's mode before (e.g. 0o100644). */
  oldMode?: number;
  /** `new mode` / `new file mode`: the file's mode after. */
  newMode?: number;
  newFile: boolean;
  deletedFile: boolean;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  /** `similarity index N%`, for a rename or a copy. */
  similarity?: number;
  /** The section holds binary content (`GIT binary patch`, `Binary files … differ`). */
  binary: boolean;
  /** A mode line whose mode is not six octal digits, as written. */
  badMode?: string;
}

/** git's mode of a regular file and of an executable one: the only two fuzzpatch writes. */
export const REGULAR_MODE = 0o100644;
export const EXECUTABLE_MODE = 0o100755;

function readMode(text: string): number | undefined {
  const t = text.trim();
  return /^[0-7]{6}$/.test(t) ? Number.parseInt(t, 8) : undefined;
}

function readPath(text: string): string {
  const t = text.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? unquoteC(t.slice(1, -1)) : t;
}

/** Each extended header line git writes, by its prefix, and what it sets. */
const RULES: readonly (readonly [string, (h: GitHeaders, value: string) => void])[] = [
  ["old mode ", (h, v) => setMode(h, "oldMode", v)],
  ["new mode ", (h, v) => setMode(h, "newMode", v)],
  [
    "deleted file mode ",
    (h, v) => {
      h.deletedFile = true;
      setMode(h, "oldMode", v);
    },
  ],
  [
    "new file mode ",
    (h, v) => {
      h.newFile = true;
      setMode(h, "newMode", v);
    },
  ],
  ["rename from ", (h, v) => (h.renameFrom = readPath(v))],
  ["rename old ", (h, v) => (h.renameFrom = readPath(v))],
  ["rename to ", (h, v) => (h.renameTo = readPath(v))],
  ["rename new ", (h, v) => (h.renameTo = readPath(v))],
  ["copy from ", (h, v) => (h.copyFrom = readPath(v))],
  ["copy to ", (h, v) => (h.copyTo = readPath(v))],
  [
    "similarity index ",
    (h, v) => {
      const n = Number.parseInt(v, 10);
      if (Number.isFinite(n)) h.similarity = n;
    },
  ],
];

function setMode(h: GitHeaders, key: "oldMode" | "newMode", text: string): void {
  const mode = readMode(text);
  if (mode !== undefined) h[key] = mode;
  else h.badMode = text.trim();
}

/**
 * The extended headers of a file section (its lines, `diff --git` first);
 * undefined when the section is not a git one. Reading stops at the first
 * `---` or `@@` line: after that come hunks, whose lines may read like
 * headers (a removed line `-old mode …`) but are content.
 */
export function readGitHeaders(section: readonly string[]): GitHeaders | undefined {
  const first = section[0];
  if (first === undefined || !first.startsWith("diff --git ")) return undefined;
  const h: GitHeaders = { newFile: false, deletedFile: false, binary: false };
  for (let i = 1; i < section.length; i++) {
    const line = (section[i] as string).replace(/\r$/, "");
    if (line.startsWith("---") || line.startsWith("@@") || line.startsWith("diff --git ")) break;
    if (line.startsWith("GIT binary patch") || (line.startsWith("Binary files ") && line.trimEnd().endsWith(" differ"))) {
      h.binary = true;
      break;
    }
    const rule = RULES.find(([prefix]) => line.startsWith(prefix));
    if (rule) rule[1](h, line.slice(rule[0].length));
  }
  return h;
}

/** Whether a git mode is one fuzzpatch writes: a regular file, executable or not. */
export function isTextFileMode(mode: number): boolean {
  return mode === REGULAR_MODE || mode === EXECUTABLE_MODE;
}

/**
 * The permission bits a file gets for a git mode, from the bits it has: the
 * execute bits follow the read bits for 100755 and are cleared for 100644,
 * the others kept (a 0o600 file made executable is 0o700, as git's checkout
 * would give under a 077 umask).
 */
export function permissionsFor(gitMode: number, current: number | undefined): number {
  const base = current ?? 0o644;
  if (gitMode === EXECUTABLE_MODE) return base | ((base & 0o444) >> 2);
  return base & ~0o111;
}

/** Text that is a git section with extended headers only (a rename, a mode change, an empty new file): no hunk to detect it by. */
export function looksLikeGitHeadersOnly(text: string): boolean {
  const lines = text.split("\n");
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!(lines[i] as string).startsWith("diff --git ")) continue;
    const next = (lines[i + 1] as string).replace(/\r$/, "");
    if (/^(?:old mode|new mode|new file mode|deleted file mode|rename from|copy from|similarity index|GIT binary patch|Binary files) /.test(`${next} `)) return true;
  }
  return false;
}

/**
 * The two paths of a `diff --git a/P b/Q` line, when they can be told apart:
 * a name may hold " b/" itself, so only a line with one such split (or two
 * equal halves) is read.
 */
export function gitLineNames(line: string): { old: string; new: string } | undefined {
  const rest = line.slice("diff --git ".length).trim();
  // Quoted (C-escaped) names are left to the ---/+++ lines.
  if (!rest.startsWith("a/") || rest.includes('"')) return undefined;
  const sep = rest.indexOf(" b/");
  if (sep === -1) return undefined;
  if (rest.indexOf(" b/", sep + 1) === -1) return { old: rest.slice(2, sep), new: rest.slice(sep + 3) };
  // Several candidates: only the cut into two equal names is sure ("a/N b/N": 2n + 5 characters).
  const n = (rest.length - 5) / 2;
  const name = rest.slice(2, 2 + n);
  return Number.isInteger(n) && rest.slice(2 + n) === ` b/${name}` ? { old: name, new: name } : undefined;
}

/**
 * Where a git section's `rename`/`copy` lines disagree with the paths the
 * section names elsewhere (`diff --git a/P b/Q`, `--- a/P`, `+++ b/Q`):
 * e.g. `diff --git a/x b/y` with `copy to z`. git apply refuses such a patch
 * (which path would it write?); so does fuzzpatch, instead of writing one of
 * them. Returns a description of the first disagreement, else undefined.
 */
export function namesDisagree(section: readonly string[], git: GitHeaders, header: { oldPath?: string; newPath?: string }): string | undefined {
  const names = gitLineNames((section[0] as string).replace(/\r$/, ""));
  const checks: [string, string | undefined, string | undefined, string][] = [
    ["rename from", git.renameFrom, names?.old, "the diff --git line"],
    ["rename to", git.renameTo, names?.new, "the diff --git line"],
    ["copy from", git.copyFrom, names?.old, "the diff --git line"],
    ["copy to", git.copyTo, names?.new, "the diff --git line"],
    ["rename from", git.renameFrom, header.oldPath, "the --- line"],
    ["rename to", git.renameTo, header.newPath, "the +++ line"],
    ["copy from", git.copyFrom, header.oldPath, "the --- line"],
    ["copy to", git.copyTo, header.newPath, "the +++ line"],
  ];
  for (const [what, said, other, where] of checks) {
    if (said !== undefined && other !== undefined && said !== other) return `"${what} ${said}" names another file than ${where} (${other})`;
  }
  return undefined;
}
