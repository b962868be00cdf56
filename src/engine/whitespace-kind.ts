/**
 * A replacement indented with the other whitespace than the find text: tabs
 * where the file (and the find text, copied from it) indents with spaces,
 * or spaces where it has tabs. The model copied the find text and typed the
 * replacement in its own style; a file does not mix the two on purpose. The
 * replacement's lines are rewritten in the file's whitespace, level for
 * level: its copies of quoted lines say which file indentation each of its
 * indents stands for; without any, a typed tab is one level of the file,
 * and typed spaces start at the level of the code they rewrite (or sit next
 * to, for an insertion).
 *
 * Only when the evidence is whole: the find text's indented lines and the
 * matched region's (it must have some) use one kind, every indented line of
 * the replacement uses the other (except lines copied exactly as quoted), no
 * line near the match is indented with the other, and the edit changes more
 * than indentation.
 */
import { detectIndentUnit } from "../text/document.ts";
import { isBlank, leadingWhitespace } from "../text/normalize.ts";
import { type IndentPair, levelMap } from "./reindent.ts";

export type Kind = "tabs" | "spaces";

/** The kind of an indentation: tabs, then fewer than a unit of spaces, count as tabs (`\t\t  ` aligns under tabs). */
function kindOf(indent: string): Kind | "mixed" | undefined {
  if (indent === "") return undefined;
  if (/^ +$/.test(indent)) return "spaces";
  if (/^\t+ {0,3}$/.test(indent)) return "tabs";
  return "mixed";
}

/**
 * The kind of a line's indentation; none for the single space before a doc
 * comment's `*` at column 0 (alignment, written the same in files of either kind).
 */
function lineKind(line: string): Kind | "mixed" | undefined {
  const indent = leadingWhitespace(line);
  return indent === " " && line[1] === "*" ? undefined : kindOf(indent);
}

/** The one kind of the lines' indentation, undefined when none is indented or they mix. */
function uniformKind(lines: readonly string[]): Kind | undefined {
  let kind: Kind | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const k = lineKind(line);
    if (k === undefined) continue;
    if (k === "mixed" || (kind !== undefined && k !== kind)) return undefined;
    kind = k;
  }
  return kind;
}

/**
 * The replacement's lines in the find text's whitespace, or undefined when
 * they are not written in the other one. `region`: the file's matched lines,
 * which must be in the find text's whitespace (a find text re-indented in
 * the other is the merge's to read); `fileUnit`: the file's indent unit
 * (or how to get it: it samples the file, and most edits return before
 * they need it);
 * `fileIndentsWith`: whether a line of the file near the match is indented
 * with a kind (asked last, as it reads many lines).
 */
export function inFindWhitespace(
  find: readonly string[],
  typedRepl: readonly string[],
  region: readonly string[],
  fileUnit: string | (() => string),
  fileIndentsWith: (kind: Kind) => boolean = () => false,
): string[] | undefined {
  const aligned = docAlignment(find, typedRepl);
  const repl = aligned ?? typedRepl;
  return levelsInFindWhitespace(find, repl, region, fileUnit, fileIndentsWith) ?? aligned;
}

/**
 * A doc comment's line at column 0 typed with a tab for its alignment space
 * (` * x` written `\t* x`) where the find text's are ` *` and none `\t*`:
 * the space back, whatever else the replacement's whitespace says.
 */
function docAlignment(find: readonly string[], repl: readonly string[]): string[] | undefined {
  if (!find.some((l) => l.startsWith(" *")) || find.some((l) => l.startsWith("\t*")) || !repl.some((l) => l.startsWith("\t*"))) return undefined;
  return repl.map((l) => (l.startsWith("\t*") ? ` ${l.slice(1)}` : l));
}

function levelsInFindWhitespace(
  find: readonly string[],
  repl: readonly string[],
  region: readonly string[],
  fileUnit: string | (() => string),
  fileIndentsWith: (kind: Kind) => boolean,
): string[] | undefined {
  // The find text's own indented lines tell its whitespace: a file with none may want the other (a Makefile's tabs).
  const findKind = uniformKind(find);
  if (findKind === undefined) return undefined;
  // The matched lines must be indented that way too: a region with no indented line (the find
  // text's indentation is then the model's own, not a copy of the file's) says nothing of its kind.
  if (uniformKind(region) !== findKind) return undefined;
  const other: Kind = findKind === "tabs" ? "spaces" : "tabs";
  // Each quoted line's indentations, by its text (`}` is quoted at several).
  const quoted = new Map<string, Set<string>>();
  for (const line of find) {
    if (isBlank(line)) continue;
    const at = quoted.get(line.trim()) ?? new Set<string>();
    at.add(leadingWhitespace(line));
    quoted.set(line.trim(), at);
  }
  const pairs: IndentPair[] = [];
  let written = 0;
  for (const line of repl) {
    if (isBlank(line)) continue;
    const indent = leadingWhitespace(line);
    const kind = lineKind(line);
    if (kind === undefined) continue;
    const copyOf = quoted.get(line.trim());
    // A line copied exactly as quoted says nothing.
    if (copyOf?.has(indent)) continue;
    if (kind !== other) return undefined;
    written++;
    if (copyOf?.size === 1) pairs.push({ model: indent, file: [...copyOf][0] as string });
  }
  if (written === 0) return undefined;
  // A file that already indents lines near here with the other whitespace may mean it here too.
  if (fileIndentsWith(other)) return undefined;
  // Only the indentation changes: then the whitespace is the edit (`\tx` -> `    x`).
  const texts = (lines: readonly string[]) => lines.filter((l) => !isBlank(l)).map((l) => l.trim()).join("\n");
  if (texts(find) === texts(repl)) return undefined;
  // Spaces for tabs without a copy to learn the width from: the first new
  // line stands at the level of the code around it (the model writes new
  // code at the level of the code it changes).
  if (pairs.length === 0 && other === "spaces") {
    const reference = levelOfChange(repl, find, other);
    if (reference) pairs.push(reference);
  }
  const unit = findKind === "tabs" ? "\t" : spacesUnit(typeof fileUnit === "string" ? fileUnit : fileUnit(), find);
  const typed = repl.filter((l) => !isBlank(l) && kindOf(leadingWhitespace(l)) === other);
  const map =
    pairs.length > 0
      ? levelMap({ pairs, modelLines: typed, fileUnit: unit, fileUsesTabs: findKind === "tabs" })
      : byUnits(other === "tabs" ? "\t" : detectIndentUnit(typed), unit);
  return repl.map((line) => {
    const indent = leadingWhitespace(line);
    if (isBlank(line) || kindOf(indent) !== other) return line;
    // Spaces after tabs align (a doc comment's ` * ` under `/**`): the tabs are the level, the spaces stay.
    const level = other === "tabs" ? indent.replace(/ +$/, "") : indent;
    return map(level) + indent.slice(level.length) + line.slice(indent.length);
  });
}

/** The file's unit of spaces: its own, else the find text's, else four. */
function spacesUnit(fileUnit: string, find: readonly string[]): string {
  if (fileUnit !== "" && fileUnit.trim() === "") return fileUnit;
  const unit = detectIndentUnit([...find]);
  return unit !== "" && unit.trim() === "" ? unit : "    ";
}

/** Without a copy to learn from, one indent step of the replacement (`from`) is one unit of the file (`to`). */
function byUnits(from: string, to: string): (indent: string) => string {
  return (indent) => {
    if (from === "\t") {
      const tabs = indent.length - indent.replace(/^\t+/, "").length;
      return to.repeat(tabs) + indent.slice(tabs);
    }
    const step = Math.max(1, from.length);
    return to.repeat(Math.floor(indent.length / step)) + " ".repeat(indent.length % step);
  };
}

/**
 * Which file indentation the replacement's new lines start at: the first
 * new line stands for the first quoted line the replacement does not keep
 * (the lines it rewrites, in order); for an insertion, the first new line
 * stands at the next line copied as quoted, unless that one closes a block,
 * else at the previous one.
 */
function levelOfChange(repl: readonly string[], find: readonly string[], other: Kind): IndentPair | undefined {
  const typed = repl.filter((l) => !isBlank(l) && kindOf(leadingWhitespace(l)) === other);
  if (typed.length === 0) return undefined;
  const kept = new Set(repl.map((l) => l.trim()));
  const replaced = find.filter((l) => !isBlank(l) && !kept.has(l.trim())).map(leadingWhitespace);
  if (replaced.length > 0) return { model: leadingWhitespace(typed[0] as string), file: replaced[0] as string };
  const copied = new Set(find.filter((l) => !isBlank(l)));
  const first = repl.indexOf(typed[0] as string);
  const near = (from: number, step: number): string | undefined => {
    for (let k = from; k >= 0 && k < repl.length; k += step) if (copied.has(repl[k] as string)) return repl[k];
    return undefined;
  };
  const next = near(first + 1, 1);
  const at = next !== undefined && !/^\s*[}\])]/.test(next) ? next : near(first - 1, -1);
  return at === undefined ? undefined : { model: leadingWhitespace(typed[0] as string), file: leadingWhitespace(at) };
}
