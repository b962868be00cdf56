/**
 * Small text generators and token helpers for the benchmark: nonsense words
 * that occur in no real file (so "absent" text is absent even fuzzily), lines
 * in a file's own language, identifier renames that look like what a model
 * misremembers.
 */

import type { CorpusFile } from "./corpus.ts";
import type { Rng } from "./random.ts";

const ONSETS = ["b", "br", "d", "dr", "f", "gl", "k", "kr", "m", "n", "p", "pl", "qu", "sk", "st", "tr", "v", "z"];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ou"];
const CODAS = ["", "", "n", "r", "x", "m", "sk", "lt"];

/** A pronounceable word of 2–3 syllables that no dictionary or codebase uses. */
export function makeWord(rng: Rng): string {
  const syllables = rng.int(2, 3);
  let word = "";
  for (let i = 0; i < syllables; i++) word += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
  return word;
}

function camel(a: string, b: string): string {
  return a + b.charAt(0).toUpperCase() + b.slice(1);
}

/** A plausible line of new content in the file's language (nonsense names). */
export function makeLine(file: CorpusFile, rng: Rng): string {
  const w = (): string => makeWord(rng);
  switch (file.language) {
    case "js":
    case "ts":
      return rng.pick([
        () => `const ${camel(w(), w())} = ${w()}(${w()}, ${rng.int(2, 99)});`,
        () => `if (${w()}.${camel(w(), w())}) return ${w()};`,
        () => `${w()}.${camel(w(), w())}(${w()});`,
        () => `// ${w()} ${w()} ${w()} before ${w()}`,
        () => `let ${w()} = "${w()} ${w()}";`,
      ])();
    case "md":
      return `${w()} ${w()} the ${w()} ${w()} with ${w()}.`;
    case "json":
      return `"${camel(w(), w())}": "${w()}",`;
    default:
      return `${commentLeader(file)} ${w()} ${w()} ${w()}`;
  }
}

/** The line-comment leader used by the file's language. */
export function commentLeader(file: CorpusFile): string {
  if (/\.(py|rb|sh|ya?ml|toml)$/.test(file.path)) return "#";
  if (file.language === "md") return "";
  return "//";
}

/** Generated lines (with the given indentation) none of which occur in the file, even ignoring whitespace. */
export function makeAbsentLines(file: CorpusFile, indents: readonly string[], rng: Rng): string[] {
  const present = new Set(file.squashed);
  return indents.map((indent) => {
    for (;;) {
      const line = makeLine(file, rng);
      if (!present.has(line.replace(/\s+/g, ""))) return indent + line;
    }
  });
}

export function leadingWhitespace(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const KEYWORDS = new Set(
  "const let var function return if else for while do switch case break continue new this typeof instanceof in of class extends import export from default async await yield try catch finally throw null undefined true false void delete interface type readonly declare namespace module public private protected static get set the and a to is".split(
    " ",
  ),
);

/** Identifier tokens of a line (start offset and text), keywords excluded. */
export function identifiers(line: string, minLength = 3): { index: number; text: string }[] {
  const out: { index: number; text: string }[] = [];
  for (const m of line.matchAll(IDENTIFIER)) {
    if (m[0].length >= minLength && !KEYWORDS.has(m[0])) out.push({ index: m.index ?? 0, text: m[0] });
  }
  return out;
}

// Abbreviations models swap in both directions when recalling code.
const SYNONYMS: [string, string][] = [
  ["options", "opts"],
  ["value", "val"],
  ["index", "idx"],
  ["result", "res"],
  ["error", "err"],
  ["callback", "cb"],
  ["element", "el"],
  ["length", "len"],
  ["string", "str"],
  ["message", "msg"],
  ["config", "cfg"],
  ["request", "req"],
  ["response", "res"],
  ["argument", "arg"],
  ["parameter", "param"],
  ["number", "num"],
  ["object", "obj"],
  ["array", "arr"],
  ["context", "ctx"],
  ["event", "evt"],
];

/**
 * A name a model plausibly writes instead of `name`: an abbreviation or its
 * expansion, the singular/plural, or a different case of the first letter.
 */
export function misrememberName(name: string, rng: Rng): string {
  const candidates: string[] = [];
  for (const [long, short] of SYNONYMS) {
    if (name.includes(long)) candidates.push(name.replace(long, short));
    else if (name === short) candidates.push(long);
  }
  if (name.endsWith("s") && name.length > 3) candidates.push(name.slice(0, -1));
  else candidates.push(`${name}s`);
  const first = name.charAt(0);
  const flipped = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  if (flipped !== first) candidates.push(flipped + name.slice(1));
  const choice = rng.pick(candidates.filter((c) => c !== name));
  return choice;
}

/** Replaces one identifier occurrence in a line; undefined when the line has none. */
export function renameOneIdentifier(line: string, rng: Rng, rename: (name: string) => string): string | undefined {
  const ids = identifiers(line);
  if (ids.length === 0) return undefined;
  const target = rng.pick(ids);
  const renamed = rename(target.text);
  if (renamed === target.text) return undefined;
  return line.slice(0, target.index) + renamed + line.slice(target.index + target.text.length);
}
