/**
 * Generated ties that only the code's syntax breaks, for `bench:syntax`.
 *
 * Each case is a file with two look-alike places for one str_replace edit
 * whose find text was typed with other indentation (so it is matched by a
 * whitespace-tolerant strategy at both, equally well: a tie), and whose
 * replacement fits one place only:
 *
 * - `py-else`: an `else:` added after an `if` body; the look-alike `if`
 *   already has an `else:`, where a second one is a syntax error.
 * - `js-else`: the same in JavaScript, `else` on its own line (Stroustrup).
 * - `go-func`: a function added after a `}`; the look-alike `}` closes an
 *   `if` inside a function, where a `func` declaration cannot stand (the
 *   wrong reading nests it: an unbalanced block).
 * - `py-both` (control): a change that parses at either place. Syntax must
 *   not decide it: the right answer is to refuse (AMBIGUOUS).
 * - `py-frame`: one place, two readings of its indentation. The find text
 *   (an `if` and its body) was quoted shallower than the file has it, and the
 *   replacement wraps it in a new `try:`/`with` block written at the file's
 *   indentation. No line the model kept or changed stands at either side's
 *   indentation, so the merge has no evidence of the frame (merge.ts, a tied
 *   vote): read in the find text's frame, the block is re-based one level
 *   too deep under the statement before it (an unexpected indent, which only
 *   the check's Python indentation rule sees: python-indent.ts).
 *
 * Names, the order of the two places, the indentation unit and the filler
 * functions around them vary with the seed.
 */
import type { Rng } from "./accuracy/random.ts";

export const TIE_KINDS = ["py-else", "js-else", "go-func", "py-both", "py-frame"] as const;
export type TieKind = (typeof TIE_KINDS)[number];

export interface TieCase {
  kind: TieKind;
  path: string;
  content: string;
  oldString: string;
  newString: string;
  /** The file after the intended edit; undefined: the edit is a real tie, refusing is right. */
  expected?: string;
}

const NAMES = ["items", "rows", "entries", "records", "nodes", "values"];
const FIELDS = ["ok", "valid", "ready", "active", "done", "visible"];
const VERBS = ["count", "sum", "tally", "collect", "gather", "measure"];

function pyFiller(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(`def helper_${rng.int(100, 999)}_${k}(x):\n    return x + ${rng.int(1, 9)}\n`);
  return out.join("\n\n");
}

function pyTie(rng: Rng, kind: "py-else" | "py-both"): TieCase {
  const list = rng.pick(NAMES);
  const field = rng.pick(FIELDS);
  const [a, b] = rng.shuffle(VERBS);
  const body = `            total += item.${field}_value\n`;
  const head = (name: string) => `def ${name}(${list}):\n    total = 0\n    for item in ${list}:\n        if item.${field}:\n${body}`;
  const elseBlock = (n: number) => `        else:\n            total -= ${n}\n`;
  const target = (withElse: boolean) => `${head(`${a}_${list}`)}${withElse ? elseBlock(1) : ""}    return total\n`;
  const decoy = `${head(`${b}_${list}`)}${elseBlock(2)}    return total\n`;
  const targetFirst = rng.chance(0.5);
  const filler = pyFiller(rng, rng.int(0, 3));
  const join = (t: string) => [filler, targetFirst ? t : decoy, targetFirst ? decoy : t].filter((x) => x !== "").join("\n\n");
  const oldString = `if item.${field}:\n    total += item.${field}_value`;
  if (kind === "py-both") return { kind, path: "a.py", content: join(target(false)), oldString, newString: `if item.${field}:\n    total += item.${field}_value * 2` };
  return { kind, path: "a.py", content: join(target(false)), oldString, newString: `${oldString}\nelse:\n    total -= 1`, expected: join(target(true)) };
}

function jsTie(rng: Rng): TieCase {
  const unit = rng.pick(["  ", "    "]);
  const i = (n: number) => unit.repeat(n);
  const list = rng.pick(NAMES);
  const field = rng.pick(FIELDS);
  const [a, b] = rng.shuffle(VERBS);
  const fn = (name: string, tail: string) =>
    `function ${name}(${list}) {\n${i(1)}let total = 0;\n${i(1)}for (const item of ${list}) {\n${i(2)}if (item.${field}) {\n${i(3)}total += item.size;\n${i(2)}}\n${tail}${i(1)}}\n${i(1)}return total;\n}\n`;
  const elseBlock = (n: number) => `${i(2)}else {\n${i(3)}total -= ${n};\n${i(2)}}\n`;
  const decoy = fn(b as string, elseBlock(2));
  const targetFirst = rng.chance(0.5);
  const filler = Array.from({ length: rng.int(0, 3) }, (_, k) => `function helper${k}(x) {\n${i(1)}return x * ${rng.int(2, 9)};\n}\n`).join("\n");
  const join = (t: string) => [filler, targetFirst ? t : decoy, targetFirst ? decoy : t].filter((x) => x !== "").join("\n");
  const oldString = `if (item.${field}) {\n  total += item.size;\n}`;
  return {
    kind: "js-else",
    path: "a.js",
    content: join(fn(a as string, "")),
    oldString,
    newString: `${oldString}\nelse {\n  total -= 1;\n}`,
    expected: join(fn(a as string, elseBlock(1))),
  };
}

function goTie(rng: Rng): TieCase {
  const field = rng.pick(FIELDS);
  const [a, b] = rng.shuffle(VERBS);
  const call = `${rng.pick(["cleanup", "flush", "release", "closeAll"])}()`;
  const outer = `func ${a}() {\n\t${call}\n}\n`;
  const inner = `func ${b}() {\n\tif ${field} {\n\t\t${call}\n\t}\n}\n`;
  const added = `func ${rng.pick(["extra", "reset", "drain"])}() {\n\tlog()\n}\n`;
  const outerFirst = rng.chance(0.5);
  const file = (withAdded: boolean) => {
    const o = withAdded ? `${outer}\n${added}` : outer;
    return `package main\n\nvar ${field} = true\n\n${outerFirst ? `${o}\n${inner}` : `${inner}\n${o}`}`;
  };
  return {
    kind: "go-func",
    path: "a.go",
    content: file(false),
    oldString: `    ${call}\n}`,
    newString: `    ${call}\n}\n\n${added.replaceAll("\t", "    ").trimEnd()}`,
    expected: file(true),
  };
}

function pyFrame(rng: Rng): TieCase {
  const unit = rng.pick([2, 4]);
  const at = (depth: number, line: string) => `${" ".repeat(depth * unit)}${line}`;
  const list = rng.pick(NAMES);
  const field = rng.pick(FIELDS);
  const verb = rng.pick(VERBS);
  const body = [`total += item.${field}_value`, `seen.append(item)`].slice(0, rng.int(1, 2));
  const wrapper = rng.pick(["try", "with"]);
  const region = (wrap: boolean): string[] => {
    const d = wrap ? 3 : 2;
    const inner = [at(d, `if item.${field}:`), ...body.map((b) => at(d + 1, b))];
    if (!wrap) return inner;
    return wrapper === "try" ? [at(2, "try:"), ...inner, at(2, "except ValueError:"), at(3, "pass")] : [at(2, "with lock:"), ...inner];
  };
  const file = (wrap: boolean) =>
    [
      `def ${verb}_${list}(${list}, lock, seen):`,
      at(1, "total = 0"),
      at(1, `for item in ${list}:`),
      at(2, `count = len(seen)`),
      ...region(wrap),
      at(2, "log(count)"),
      at(1, "return total"),
      "",
    ].join("\n");
  const filler = pyFiller(rng, rng.int(0, 2));
  const whole = (t: string) => (filler === "" ? t : `${filler}\n\n${t}`);
  // Quoted shallower than the file: at column 0, or one unit in.
  const quoted = rng.int(0, 1);
  const oldString = [`if item.${field}:`, ...body.map((b) => " ".repeat(unit) + b)].map((l) => " ".repeat(quoted * unit) + l).join("\n");
  return { kind: "py-frame", path: "a.py", content: whole(file(false)), oldString, newString: region(true).join("\n"), expected: whole(file(true)) };
}

/** Case `index` of kind `TIE_KINDS[index % TIE_KINDS.length]`, from its own generator. */
export function generateTie(rng: Rng, index: number): TieCase {
  const kind = TIE_KINDS[index % TIE_KINDS.length] as TieKind;
  if (kind === "py-frame") return pyFrame(rng);
  if (kind === "js-else") return jsTie(rng);
  if (kind === "go-func") return goTie(rng);
  return pyTie(rng, kind);
}
