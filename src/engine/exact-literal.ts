/**
 * Exact means literal (DESIGN.md, principle 5; issue 32). A find text that
 * the `exact` strategy found — the model's text, byte for byte, where it
 * said — is replaced by the replacement as the model wrote it: no
 * re-indentation, no dropped repeats, no blank-line trimming, no merge. That
 * is the str_replace contract models are trained on.
 *
 * Three exceptions, each a slip no model means, each named in the report
 * (`LiteralException`):
 *
 * - `already-applied`: the whole replacement already stands at the match (an
 *   edit sent again). Decided by already-applied.ts before anything is
 *   written; nothing here.
 * - `elision-filled`: an elision marker in the replacement (`// ... existing
 *   code ...`; a bare `...` only between two such neighbours, elsewhere it is
 *   code) that the find text lacks, standing for find-text lines: its
 *   neighbours in the replacement each stand once in the find text (or it
 *   opens/closes the replacement), and the lines between them are written
 *   back from the matched text. Anything else is refused: a marker is never
 *   written into the file where it stands for lines. One between two
 *   adjacent find lines stands for none: it is the model's own line.
 * - `shift-undone`: the whole replacement shifted by one uniform
 *   indentation against the find text (every kept line `d` deeper, no line
 *   left at the find text's own level, no new line opening a block): the
 *   shift is the model's frame, so the lines go back by `d`. A replacement
 *   that keeps its first line and nests the rest deeper is the model's
 *   nesting, written as sent.
 *
 * One reading of the deletion: deleting all of a line's text (from after its
 * indentation to its end) deletes the line — its indentation and its break
 * — rather than leave a whitespace-only line (or glue the next line onto the
 * indentation).
 *
 * Everything else (re-indentation maps, whitespace kinds, repeated
 * neighbours, final breaks, line numbers, escapes) is for edits that did
 * not match exactly: see replacement.ts and merge.ts.
 */
import { EditError } from "../errors.ts";
import { isReplacementElision } from "../match/elided.ts";
import { capitalize, type SpliceWords } from "../match/vocabulary.ts";
import { leadingWhitespace } from "../text/normalize.ts";

/** Which exception made an exact edit non-literal. */
export type LiteralException = "elision-filled" | "shift-undone";

export interface LiteralText {
  text: string;
  exception?: LiteralException;
}

/**
 * The replacement an exact match writes: `replacement` itself, unless one of
 * the named exceptions applies. `find`: the matched text (it is the file's).
 * `explicit`: a diff's new side, whose lines are all written on purpose (no
 * shift is undone; elisions are the merge's to refuse, see merge.ts).
 */
export function literalText(find: string, replacement: string, words: SpliceWords, explicit: boolean): LiteralText {
  if (explicit || !replacement.includes("\n")) return { text: replacement };
  const findLines = find.split("\n");
  const filled = fillElisions(findLines, replacement.split("\n"), words);
  if (filled) return { text: filled.join("\n"), exception: "elision-filled" };
  const unshifted = withoutUniformShift(findLines, replacement);
  return unshifted === replacement ? { text: replacement } : { text: unshifted, exception: "shift-undone" };
}

/** Whether the replacement has an elision marker the find text lacks (a diff's such hunk goes through the merge, which refuses it). */
export function hasNewElision(find: readonly string[], repl: readonly string[]): boolean {
  const quoted = new Set(find.map((l) => l.trim()));
  return repl.some((l) => isReplacementElision(l) && !quoted.has(l.trim()));
}

/** The only index of `line` in `lines` within [from, to), else -1. */
function onlyIndex(lines: readonly string[], line: string, from: number, to: number): number {
  let at = -1;
  for (let k = from; k < to; k++) {
    if (lines[k] !== line) continue;
    if (at !== -1) return -1;
    at = k;
  }
  return at;
}

function nonBlankFrom(lines: readonly string[], k: number, step: number): number | undefined {
  for (let x = k + step; x >= 0 && x < lines.length; x += step) if ((lines[x] ?? "").trim() !== "") return x;
  return undefined;
}

/**
 * The replacement with each new elision marker written back as the find
 * lines it stands for, or undefined when it has none that stands for lines.
 * Throws INVALID_INPUT when which lines a marker stands for is a guess.
 */
function fillElisions(find: readonly string[], repl: readonly string[], words: SpliceWords): string[] | undefined {
  if (!hasNewElision(find, repl) && !repl.some(isBareEllipsis)) return undefined;
  const quoted = new Set(find.map((l) => l.trim()));
  const out: string[] = [];
  let filled = false;
  let skipBlank = false;
  for (let k = 0; k < repl.length; k++) {
    const line = repl[k] ?? "";
    if (skipBlank && line.trim() === "") continue;
    skipBlank = false;
    const bare = isBareEllipsis(line);
    if ((!bare && !isReplacementElision(line)) || quoted.has(line.trim())) {
      out.push(line);
      continue;
    }
    const prev = nonBlankFrom(repl, k, -1);
    const next = nonBlankFrom(repl, k, 1);
    const a = prev === undefined ? -1 : onlyIndex(find, repl[prev] ?? "", 0, find.length);
    const b = next === undefined ? find.length : onlyIndex(find, repl[next] ?? "", a + 1, find.length);
    // A bare `...` is code (Python's Ellipsis) unless find lines it skips stand on both sides of it.
    if (bare && !(prev !== undefined && next !== undefined && a >= 0 && b > a + 1)) {
      out.push(line);
      continue;
    }
    const known = (prev === undefined || a >= 0) && b >= 0 && (prev !== undefined || next !== undefined);
    if (!known) throw elisionGuess(line, k, words);
    // Between two adjacent find lines it stands for nothing: the model's own line.
    if (b === a + 1) {
      out.push(line);
      continue;
    }
    // The blank lines around the marker are its framing: the find lines between the anchors bring their own.
    while (out.length > 0 && (out[out.length - 1] ?? "").trim() === "" && (prev === undefined || out.length - 1 > prev)) out.pop();
    for (let j = a + 1; j < b; j++) out.push(find[j] ?? "");
    skipBlank = true;
    filled = true;
  }
  return filled ? out : undefined;
}

/** `...` alone on a line: an elision only where the find lines around it say so (fillElisions). */
function isBareEllipsis(line: string): boolean {
  const t = line.trim();
  return t === "..." || t === "\u2026";
}

function elisionGuess(marker: string, k: number, w: SpliceWords): EditError {
  return new EditError(
    "INVALID_INPUT",
    `Line ${k + 1} of ${w.replacement}, \`${marker.trim()}\`, elides lines, but ${w.find} has no such line, and the lines next to it do not show which lines of ${w.find} it stands for. Nothing was changed. ${capitalize(w.replacement)} must be sent in full, without elided lines.`,
  );
}

const width = (l: string) => leadingWhitespace(l).length;
const OPENS_BLOCK = /[{([:]$|=>$/;

/**
 * A replacement written shifted as a whole while its find text is exact:
 * every line the model kept from the find text sits `d` columns deeper, no
 * line is shallower than the find text so shifted, and no new line opens a
 * block (the shift would be for it). The lines go back by `d`, a deletion's
 * too. Not when only the indentation changes: then the shift is the edit.
 */
export function withoutUniformShift(find: readonly string[], text: string): string {
  const repl = text.split("\n");
  // Find lines by their text, in order: each replacement line looks up its own, never rescans the find text.
  const at = new Map<string, number[]>();
  find.forEach((f, i) => {
    const list = at.get(f.trim());
    if (list) list.push(i);
    else at.set(f.trim(), [i]);
  });
  const cursor = new Map<string, number>();
  let d: number | undefined;
  let kept = 0;
  let from = 0;
  const fresh: string[] = [];
  for (const r of repl) {
    if (r.trim() === "") continue;
    const key = r.trim();
    const list = at.get(key) ?? [];
    // `from` only grows, so each text's cursor only moves on (a line repeated a thousand times stays linear).
    let c = cursor.get(key) ?? 0;
    while (c < list.length && (list[c] as number) < from) c++;
    cursor.set(key, c);
    const k = list[c] ?? -1;
    if (k < 0) {
      fresh.push(r);
      continue;
    }
    from = k + 1;
    const f = find[k] as string;
    // The same indentation characters, more or fewer of them.
    const [long, short] = width(r) >= width(f) ? [leadingWhitespace(r), leadingWhitespace(f)] : [leadingWhitespace(f), leadingWhitespace(r)];
    if (!long.startsWith(short)) return text;
    const delta = width(r) - width(f);
    if (d === undefined) d = delta;
    else if (d !== delta) return text;
    kept++;
  }
  // Deeper only: a shallower replacement may be a wrapper taken away.
  if (d === undefined || d <= 0 || kept === 0) return text;
  if (fresh.some((l) => OPENS_BLOCK.test(l.trimEnd()))) return text;
  const shift = d;
  // A line shallower than the shifted find text opens the block the shift is for (a new `if c:` around it).
  let floor = Number.POSITIVE_INFINITY;
  for (const f of find) if (f.trim() !== "") floor = Math.min(floor, width(f) + shift);
  if (repl.some((l) => l.trim() !== "" && width(l) < floor)) return text;
  const unshifted = repl.map((l) => (l.trim() === "" ? l : l.slice(shift)));
  // Only the indentation (and blank lines) change: then the shift is the edit. A deletion shifted
  // as a whole (no new line, accuracy bench `reindent-whole`) is not that.
  const solid = (lines: readonly string[]) => lines.filter((l) => l.trim() !== "").map((l) => l.trim());
  if (fresh.length === 0 && solid(unshifted).join("\n") === solid(find).join("\n")) return text;
  return unshifted.join("\n");
}
