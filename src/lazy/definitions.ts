/**
 * Definitions by kind and name, read from the text (no syntax tree): the
 * header lines of functions, methods, classes and types in the languages
 * models edit most. A snippet without markers that is one or more whole
 * definitions replaces the definitions of the same names (a model that
 * rewrites `def load(...)` sends that function alone).
 */
import { lineKey, similarity } from "./align.ts";
import { type Block, blockAt, indentWidth, isBlank } from "./blocks.ts";

export interface Header {
  kind: "function" | "class" | "type";
  name: string;
}

const CONTROL = new Set(["if", "for", "while", "switch", "catch", "return", "new", "else", "do", "try", "with", "elif", "except", "match", "when", "sizeof", "typeof", "await", "yield", "throw", "delete", "void", "super", "this"]);

const PATTERNS: readonly [RegExp, Header["kind"]][] = [
  [/^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]/, "function"],
  [/^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/, "function"],
  [/^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[[(]/, "function"],
  [/^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/, "function"],
  [/^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)/, "function"],
  [/^(?:export\s+)?(?:default\s+)?(?:public\s+|private\s+|protected\s+|internal\s+)?(?:abstract\s+|final\s+|sealed\s+|static\s+|data\s+|open\s+)*(?:class|object)\s+([A-Za-z_$][\w$]*)/, "class"],
  [/^(?:export\s+)?(?:declare\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:public\s+)?(?:interface|enum|struct|trait|record|type)\s+([A-Za-z_$][\w$]*)/, "type"],
  [/^impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?([A-Za-z_]\w*)/, "type"],
];

// A method: modifiers, maybe a return type, a name, a parameter list, and no `;` or `=` before it.
const METHOD = /^(?:(?:public|private|protected|internal|static|final|abstract|async|override|synchronized|readonly|virtual|get|set|\*)\s+)*(?:([\w<>[\],.?]+)\s+)??([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^;=]*$/;

// Words that start a statement, not a return type: `if isinstance(x, T):`, `assert idiff(...) ==`, `return f(`
// read as methods named isinstance, idiff, f (bench:lazy: 50-odd "definitions" that were `if` blocks).
const STATEMENT = new Set([...CONTROL, "elif", "assert", "raise", "del", "not", "and", "or", "in", "is", "lambda", "print", "case", "of", "instanceof", "from", "import", "go", "defer", "let", "const", "var"]);

/** The kind and name a line declares, or undefined. */
export function readHeader(line: string): Header | undefined {
  const t = line.trim();
  for (const [re, kind] of PATTERNS) {
    const m = re.exec(t);
    if (m) return { kind, name: m[1] as string };
  }
  const m = METHOD.exec(t);
  if (m && !CONTROL.has(m[2] as string) && !(m[1] !== undefined && STATEMENT.has(m[1])) && /[{:]\s*$|\)\s*$|,\s*$|\(\s*$/.test(t) && !/^(?:[A-Za-z_$][\w$.]*)\s*\(.*\)\s*;?\s*$/.test(t.replace(/\s*\{\s*$/, "x")) && !isCallArguments(t)) {
    return { kind: "function", name: m[2] as string };
  }
  return undefined;
}

/** A lambda argument: Python's `lambda:`, `lambda x, y:` after an argument list's `(` or `,`. */
const LAMBDA_ARGUMENT = /[(,]\s*lambda\b[\w\s,*=]*:/;

/**
 * Whether a line that reads like a method header (a name, then an open
 * argument list) is a call spread over lines: it passes a lambda
 * (`raises(E, lambda: f(`, sympy's tests hold hundreds), or it ends inside
 * a second parenthesis (`assertEqual(f(`): a parameter list holds neither.
 * A TypeScript parameter named `lambda` with a type reads as the lambda too;
 * with the file's syntax tree (tree-definitions.ts) the tree decides anyway.
 */
function isCallArguments(t: string): boolean {
  if (LAMBDA_ARGUMENT.test(t)) return true;
  let depth = 0;
  for (const ch of t) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
  }
  return depth > 1;
}

/** A line that belongs to the definition below it: a decorator, an attribute, a doc comment. */
function isPreamble(t: string): boolean {
  return /^(?:@|#\[|\/\/\/|\/\*\*|\*|\*\/|\/\/)/.test(t);
}

export interface Unit {
  /** Snippet lines of the unit, preamble included. */
  start: number;
  end: number;
  /** The header's snippet line. */
  header: number;
  def: Header;
}

/** The snippet as whole top-level definitions, or undefined when it is not only that. */
export function splitUnits(lines: readonly string[]): Unit[] | undefined {
  let depth = Number.POSITIVE_INFINITY;
  for (const l of lines) if (!isBlank(l)) depth = Math.min(depth, indentWidth(l));
  const units: Unit[] = [];
  let k = 0;
  while (k < lines.length) {
    while (k < lines.length && isBlank(lines[k] as string)) k++;
    if (k >= lines.length) break;
    const start = k;
    while (k < lines.length && isPreamble((lines[k] as string).trim()) && indentWidth(lines[k] as string) === depth) k++;
    const line = lines[k];
    if (line === undefined || indentWidth(line) !== depth) return undefined;
    const def = readHeader(line);
    if (!def) return undefined;
    const block = blockAt(lines, k);
    const end = block ? block.end : k + 1;
    units.push({ start, end, header: k, def });
    k = end;
  }
  return units.length > 0 ? units : undefined;
}

export interface DefinitionPlace {
  header: number;
  block: Block | undefined;
  /** First line of the definition with its preamble (decorators, doc comment). */
  start: number;
  end: number;
}

/** Every definition of this kind and name in the file. */
export function findDefinitions(fileLines: readonly string[], def: Header, withPreamble: boolean): DefinitionPlace[] {
  const out: DefinitionPlace[] = [];
  for (let k = 0; k < fileLines.length; k++) {
    const line = fileLines[k] as string;
    if (!line.includes(def.name)) continue;
    const h = readHeader(line);
    if (!h || h.name !== def.name || h.kind !== def.kind) continue;
    const block = blockAt(fileLines, k);
    let start = k;
    if (withPreamble) while (start > 0 && isPreamble((fileLines[start - 1] as string).trim()) && indentWidth(fileLines[start - 1] as string) === indentWidth(line)) start--;
    out.push({ header: k, block, start, end: block ? block.end : k + 1 });
  }
  return out;
}

/** Whether the unit's last line ends the definition as the file's does (a whole definition, not its first lines). */
export function endsLike(unitLines: readonly string[], fileLines: readonly string[], place: DefinitionPlace): boolean {
  const lastOf = (ls: readonly string[], from: number, to: number): string => {
    for (let k = to - 1; k >= from; k--) if (!isBlank(ls[k] as string)) return lineKey(ls[k] as string);
    return "";
  };
  const unitLast = lastOf(unitLines, 0, unitLines.length);
  if (place.block?.close !== undefined) return /^[)\]}]/.test(unitLast) && unitLast === lineKey(fileLines[place.block.close] as string);
  const fileLast = lastOf(fileLines, place.header, place.end);
  if (unitLast === fileLast) return true;
  // An indented block ends where its indentation does, in the snippet as in the file: a changed last
  // line (`return x` -> `return f(x)`) ends it too when the unit is not much shorter than the file's
  // definition (its first lines alone would be). Else the marker merge kept the old last lines after it.
  // A bare `...` line may be a marker for the body (the marker merge decides) unless the definition has
  // such lines itself (a doctest's continuation): then the unit is not leniently whole.
  const bare = (l: string) => l.trim() === "..." || l.trim() === "…";
  if (unitLines.some(bare) && !fileLines.slice(place.start, place.end).some(bare)) return false;
  const count = (ls: readonly string[], from: number, to: number) => ls.slice(from, to).filter((l) => !isBlank(l)).length;
  return similarity(unitLast, fileLast) >= 0.5 || count(unitLines, 0, unitLines.length) >= count(fileLines, place.header, place.end) - 2;
}
