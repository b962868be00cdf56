/**
 * Inputs for the budget properties of issue 14: files and edits up to 64 kB
 * shaped like the slow paths (periodic text, one huge line, runs of `}` and
 * blank lines, pretty-printed JSON, real code), and edits that nearly match
 * them. The arbitraries yield small specs (a kind, a size, a seed, a few
 * lines), built into text on demand: a failure then prints a reproducer of a
 * few hundred characters instead of 64 kB, and shrinking works on the shape.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";

/** Largest file and largest edit text the properties build (the issue's bound). */
export const MAX_CHARS = 64 * 1024;

/** A small deterministic PRNG (mulberry32): the same seed builds the same text. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

// --- files --------------------------------------------------------------------------

export type FileKind = "one-line-repeated" | "few-lines-cycled" | "huge-line" | "closers" | "json" | "code" | "words";

export interface FileSpec {
  kind: FileKind;
  /** Target size in characters (the text stays at most MAX_CHARS). */
  size: number;
  seed: number;
  /** The lines a periodic file repeats. */
  cycle: string[];
  crlf: boolean;
  bom: boolean;
  finalNewline: boolean;
}

/** Lines that make matchers work hard: short, common, closers, whitespace only. */
const SHORT_LINES = ["}", "", "  ", "\t", "  }", "    }", "});", "{", "]", "x", "return x;", "  foo(a, b);", "// note", "  },", "end", "a = a + 1;"];
const WORDS = ["alpha", "beta", "gamma", "delta", "x", "y", "=", "(", ")", "{", "}", ";", "return", "const", "let", "if", "else", "foo", "bar", "baz", "0", "1", "+"];

/** Files up to `max` characters (MAX_CHARS at most): mostly small and medium, often the largest. */
export const fileSpecUpTo = (max: number): fc.Arbitrary<FileSpec> =>
  fc.record({
    kind: fc.constantFrom<FileKind>("one-line-repeated", "few-lines-cycled", "huge-line", "closers", "json", "code", "words"),
    size: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: Math.min(2_000, max) }), weight: 2 },
      { arbitrary: fc.integer({ min: Math.min(2_000, max), max: Math.min(16_000, max) }), weight: 2 },
      { arbitrary: fc.integer({ min: Math.min(16_000, max), max: Math.min(MAX_CHARS, max) }), weight: 3 },
    ),
    seed: fc.nat(),
    cycle: fc.array(fc.oneof(fc.constantFrom(...SHORT_LINES), fc.string({ unit: fc.constantFrom(...WORDS.map((w) => `${w} `), "  ", "\t"), maxLength: 8 })), { minLength: 1, maxLength: 5 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
  });

let codeLines: readonly string[] | undefined;
/** typescript.js (about 9 MB, 200k lines of real code), read once. */
function realCode(): readonly string[] {
  if (!codeLines) {
    const path = createRequire(import.meta.url).resolve("typescript/lib/typescript.js");
    codeLines = readFileSync(path, "utf8").split("\n");
  }
  return codeLines;
}

/** Lines until the next one would pass `size` (or MAX_CHARS). */
function fill(size: number, next: (i: number) => string): string[] {
  const limit = Math.min(size, MAX_CHARS);
  const out: string[] = [];
  let chars = 0;
  for (let i = 0; ; i++) {
    const line = next(i);
    if (chars + line.length + 1 > limit) break;
    out.push(line);
    chars += line.length + 1;
  }
  return out;
}

function fileLines(s: FileSpec): string[] {
  const r = prng(s.seed);
  switch (s.kind) {
    case "one-line-repeated":
      return fill(s.size, () => s.cycle[0] ?? "");
    case "few-lines-cycled":
      return fill(s.size, (i) => s.cycle[i % s.cycle.length] ?? "");
    case "huge-line": {
      // One line holding nearly all the text, a few short lines around it.
      const unit = r() < 0.5 ? `${pick(r, WORDS)} ` : "";
      let line = "";
      while (line.length < Math.min(s.size, MAX_CHARS - 64)) line += unit || `${pick(r, WORDS)} `;
      return [...s.cycle.slice(0, 1), line.slice(0, MAX_CHARS - 64), ...s.cycle.slice(1, 2)];
    }
    case "closers":
      return fill(s.size, () => pick(r, ["}", "}", "", "", "  ", "\t", "  }", "    }", " \t "]));
    case "json":
      return jsonLines(s);
    case "code": {
      const code = realCode();
      const from = s.seed % code.length;
      return fill(s.size, (i) => code[(from + i) % code.length] ?? "");
    }
    case "words":
      return fill(s.size, () => Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick(r, WORDS)).join(" "));
  }
}

export interface BuiltFile {
  /** The lines a model sees (LF, no BOM). */
  lines: string[];
  /** The file's bytes as a string: CRLF and BOM as the spec says. */
  raw: string;
}

const builtFiles = new Map<string, BuiltFile>();
/** The file a spec describes (cached: several entry points read one file). */
export function buildFile(s: FileSpec): BuiltFile {
  const key = JSON.stringify(s);
  const known = builtFiles.get(key);
  if (known) return known;
  const lines = fileLines(s);
  const eol = s.crlf ? "\r\n" : "\n";
  const raw = (s.bom ? "\uFEFF" : "") + lines.join(eol) + (s.finalNewline && lines.length > 0 ? eol : "");
  const built = { lines, raw };
  if (builtFiles.size > 64) builtFiles.clear();
  builtFiles.set(key, built);
  return built;
}

function jsonLines(s: FileSpec): string[] {
  const r = prng(s.seed);
  const items: unknown[] = [];
  for (let i = 0; i * 150 < s.size; i++) items.push({ id: i % 50, name: `item${i % 7}`, tags: ["a", pick(r, ["b", "c"])], nested: { ok: r() < 0.5, value: null } });
  const all = JSON.stringify(items, null, 2).split("\n");
  return fill(s.size, (i) => all[i] ?? "]");
}

// --- edits --------------------------------------------------------------------------

export type Noise = "reindent" | "dedent" | "tabs" | "token" | "drop" | "add" | "elide" | "numbers" | "escaped" | "trailing" | "crlf";
export type Replacement = "changed" | "empty" | "same" | "doubled" | "elided" | "fresh";

export interface EditSpec {
  /** A window of the file, the whole file, the window twice, or text not in the file. */
  window: "span" | "whole" | "repeated" | "absent";
  /** First line of the window (modulo the line count). */
  at: number;
  /** Lines in the window (capped so the text stays at most MAX_CHARS). */
  length: number;
  noise: Noise[];
  /** Which line a one-line noise (token, drop, add) hits, modulo the window. */
  noiseAt: number;
  replacement: Replacement;
}

export const editSpec: fc.Arbitrary<EditSpec> = fc.record({
  window: fc.constantFrom<EditSpec["window"]>("span", "span", "span", "whole", "repeated", "absent"),
  at: fc.nat(),
  length: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 5_000 })),
  noise: fc.array(fc.constantFrom<Noise>("reindent", "dedent", "tabs", "token", "drop", "add", "elide", "numbers", "escaped", "trailing", "crlf"), { maxLength: 2 }),
  noiseAt: fc.nat(),
  replacement: fc.constantFrom<Replacement>("changed", "changed", "empty", "same", "doubled", "elided", "fresh"),
});

/** An edit built against a file: the window's place, its (noisy) find lines and the replacement lines. */
export interface BuiltEdit {
  /** 0-based first line of the window in the file (for hunk headers and context). */
  at: number;
  /** Lines of the file the window covers. */
  count: number;
  find: string[];
  replace: string[];
  /** Join the find lines with CRLF (the `crlf` noise). */
  crlf: boolean;
}

/** The first lines of `ls` whose text (with breaks) stays within `max` characters. */
function capChars(ls: readonly string[], max = MAX_CHARS): string[] {
  const out: string[] = [];
  let chars = 0;
  for (const l of ls) {
    if (chars + l.length + 1 > max) break;
    out.push(l);
    chars += l.length + 1;
  }
  // A single line over the cap is cut, not dropped: the edit must find something.
  if (out.length === 0 && ls.length > 0) out.push((ls[0] as string).slice(0, max - 1));
  return out;
}

function addNoise(ls: string[], noise: Noise, at: number, firstLine: number): string[] {
  const i = ls.length === 0 ? 0 : at % ls.length;
  switch (noise) {
    case "reindent":
      return ls.map((l) => `  ${l}`);
    case "dedent":
      return ls.map((l) => l.trimStart());
    case "tabs":
      return ls.map((l) => l.replace(/^( {2})+/, (m) => "\t".repeat(m.length / 2)));
    case "token": {
      const l = ls[i] ?? "";
      const k = Math.floor(l.length / 2);
      const changed = l.length === 0 ? "x" : l.slice(0, k) + (l[k] === "Q" ? "R" : "Q") + l.slice(k + 1);
      return ls.map((x, j) => (j === i ? changed : x));
    }
    case "drop":
      return ls.length > 1 ? ls.filter((_, j) => j !== i) : ls;
    case "add":
      return [...ls.slice(0, i), "  added_line(1);", ...ls.slice(i)];
    case "elide":
      return ls.length >= 3 ? [ls[0] as string, at % 2 === 0 ? "..." : "// ... existing code ...", ls[ls.length - 1] as string] : ls;
    case "numbers":
      return ls.map((l, j) => (at % 2 === 0 ? `${firstLine + j + 1} | ${l}` : `${firstLine + j + 1}\t${l}`));
    case "escaped":
      return [ls.join("\\n")];
    case "trailing":
      return ls.map((l) => `${l}  `);
    case "crlf":
      return ls;
  }
}

function replacementLines(find: string[], kind: Replacement, at: number, seed: number): string[] {
  const i = find.length === 0 ? 0 : at % find.length;
  switch (kind) {
    case "changed":
      return find.length === 0 ? ["changed();"] : find.map((l, j) => (j === i ? `${l} // changed` : l));
    case "empty":
      return [];
    case "same":
      return find;
    case "doubled":
      return capChars([...find, ...find]);
    case "elided":
      return find.length >= 2 ? [find[0] as string, "// ... existing code ...", find[find.length - 1] as string] : [...find, "// ..."];
    case "fresh": {
      const r = prng(seed);
      return Array.from({ length: 1 + Math.floor(r() * 6) }, () => Array.from({ length: 3 }, () => pick(r, WORDS)).join(" "));
    }
  }
}

export function buildEdit(file: BuiltFile, e: EditSpec): BuiltEdit {
  const n = file.lines.length;
  let at = n === 0 ? 0 : e.at % n;
  let window: string[];
  switch (e.window) {
    case "whole":
      at = 0;
      window = capChars(file.lines);
      break;
    case "absent": {
      // Lines of the file's shape that it does not hold, around one line it does: a near miss of nothing.
      const r = prng(e.at);
      const foreign = Array.from({ length: Math.min(e.length, 40) }, (_, j) => `zq${Math.floor(r() * 1e6)}_${j} = ${pick(r, WORDS)};`);
      window = capChars([...foreign.slice(0, 1), ...(n > 0 ? [file.lines[at] as string] : []), ...foreign.slice(1)]);
      break;
    }
    case "repeated": {
      const span = capChars(file.lines.slice(at, at + e.length), MAX_CHARS / 2);
      window = [...span, ...span];
      break;
    }
    default:
      window = capChars(file.lines.slice(at, at + e.length));
  }
  const count = e.window === "absent" ? 0 : Math.min(window.length, n - at);
  let find = window;
  for (const noise of e.noise) find = addNoise(find, noise, e.noiseAt, at);
  find = capChars(find);
  return { at, count, find, replace: replacementLines(find, e.replacement, e.noiseAt, e.at), crlf: e.noise.includes("crlf") };
}

export const joinFind = (b: BuiltEdit): string => b.find.join(b.crlf ? "\r\n" : "\n");
export const joinReplace = (b: BuiltEdit): string => b.replace.join("\n");

// --- edit texts in each format ------------------------------------------------------

export const searchReplaceBlock = (b: BuiltEdit): string => `<<<<<<< SEARCH\n${b.find.join("\n")}\n=======\n${b.replace.map((l) => `${l}\n`).join("")}>>>>>>> REPLACE\n`;

export type HunkStyle = "fuzzy" | "numbered" | "numbered-off" | "context" | "unprefixed-context";

/** One hunk from a built edit: `-` find lines, `+` replacement lines, with the file's neighbours as context in some styles. */
export function hunk(file: BuiltFile, b: BuiltEdit, style: HunkStyle): string {
  const withContext = style === "context" || style === "unprefixed-context" || style.startsWith("numbered");
  const mark = style === "unprefixed-context" ? "" : " ";
  const before = withContext && b.at > 0 ? [file.lines[b.at - 1] as string] : [];
  const after = withContext && b.at + b.count < file.lines.length ? [file.lines[b.at + b.count] as string] : [];
  const body = [...before.map((l) => mark + l), ...b.find.map((l) => `-${l}`), ...b.replace.map((l) => `+${l}`), ...after.map((l) => mark + l)];
  const oldCount = before.length + b.find.length + after.length;
  const newCount = before.length + b.replace.length + after.length;
  const start = b.at - before.length + 1 + (style === "numbered-off" ? 17 : 0);
  const header = style.startsWith("numbered") ? `@@ -${start},${oldCount} +${start},${newCount} @@` : "@@ @@";
  return `${header}\n${body.join("\n")}\n`;
}

export type ResponseStyle = "search-replace" | "search-replace-unfenced" | "udiff" | "json";

/** A model's response holding the edits for `path`, in one format, with some prose around. */
export function response(path: string, file: BuiltFile, edits: readonly BuiltEdit[], style: ResponseStyle): string {
  switch (style) {
    case "search-replace":
      return `Here is the change.\n\n${path}\n\`\`\`ts\n${edits.map(searchReplaceBlock).join("\n")}\`\`\`\n\nThat should do it.\n`;
    case "search-replace-unfenced":
      return `${path}\n${edits.map(searchReplaceBlock).join("")}`;
    case "udiff":
      return `The diff:\n\n\`\`\`diff\n--- a/${path}\n+++ b/${path}\n${edits.map((b) => hunk(file, b, "fuzzy")).join("")}\`\`\`\n`;
    case "json":
      return JSON.stringify(edits.map((b) => ({ path, oldString: joinFind(b), newString: joinReplace(b) })));
  }
}

/** The file with the built edit's window replaced by its replacement lines (the text after a perfect edit). */
export function spliced(file: BuiltFile, b: BuiltEdit): string {
  const lines = [...file.lines.slice(0, b.at), ...b.replace, ...file.lines.slice(b.at + b.count)];
  return lines.join("\n");
}

/** A few words on an input's shape, for the slowest-input report. */
export function describeFile(s: FileSpec): string {
  const f = buildFile(s);
  return `${s.kind} file of ${f.raw.length} chars, ${f.lines.length} lines${s.crlf ? ", CRLF" : ""}${s.bom ? ", BOM" : ""}`;
}

export function describeEdit(file: BuiltFile, e: EditSpec): string {
  const b = buildEdit(file, e);
  const noise = e.noise.length === 0 ? "exact" : e.noise.join("+");
  return `${e.window} window of ${b.count} lines, ${noise}, find ${joinFind(b).length} chars, replacement ${e.replacement} (${joinReplace(b).length} chars)`;
}
