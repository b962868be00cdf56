/**
 * The trees of the texts parsed last, so that the next check of an edit to
 * the same text does not parse it whole again: an MCP session edits a file
 * one call after another, each call's text before being the last call's
 * text after. On TypeScript's typescript.js (9 MB, 200k lines) a full parse
 * cost ~1.5 s of CPU per `edit_file` call (76 % of its profile), the
 * incremental re-parse of the edited text a few ms.
 *
 * Kept: the two texts used last (the text before an edit, and the text
 * after it, which the next edit starts from; a caller weighing several
 * readings of one edit reuses the first). A tree is used through a copy
 * (`tree.edit` changes the tree it is given), and a tree pushed out is
 * deleted: its memory is in the WebAssembly heap, not collected.
 *
 * A text that is none of them but shares most of one (another version of
 * the file: a batch applies a model's successive tries at one file one
 * after another) is parsed from that tree, edited, instead of from the top
 * (`keptNear`).
 */
import type { Tree } from "web-tree-sitter";
import { commonPrefixLength, commonSuffixLength } from "../text/common-ends.ts";
import type { SyntaxLanguage } from "./languages.ts";

const KEPT = 2;

interface Kept {
  language: SyntaxLanguage;
  text: string;
  tree: Tree;
}

const kept: Kept[] = [];

/** Texts parsed from a kept tree of another text (check.ts `parseNear`): tests read it to see the path taken. Not a public API. */
export const treeCacheStats = { near: 0, twoRegions: 0 };

/** A copy of the kept tree of `text` in `language` (the caller deletes it), or undefined. */
export function keptTree(language: SyntaxLanguage, text: string): Tree | undefined {
  for (let i = kept.length - 1; i >= 0; i--) {
    const k = kept[i] as Kept;
    // The same string compares at once; an equal copy (a file read again) in one pass over its bytes.
    if (k.language !== language || k.text.length !== text.length || k.text !== text) continue;
    kept.splice(i, 1);
    kept.push(k);
    return k.tree.copy();
  }
  return undefined;
}

/** A kept text near another: `via` (when set) is the kept text with only its first differing region made the other's, so the tree is told two small changes, not one spanning both. */
export interface NearText {
  text: string;
  tree: Tree;
  via?: string;
}

/** Characters of the probe `twoRegions` looks for: long enough to be found once in a source file. */
const PROBE = 64;

/**
 * How `text` is `from` with two regions changed (a model's next try at a
 * file: the last try's change undone in one place, this one's made in
 * another): the characters both share, and the text between (`from` with the
 * first region changed). Found by a probe from the middle of where they
 * differ, met exactly once in `from`'s, and the common run around it.
 * Undefined when there is no such run.
 */
function twoRegions(from: string, text: string, prefix: number, suffix: number): { shared: number; via: string } | undefined {
  const fromEnd = from.length - suffix;
  const textEnd = text.length - suffix;
  if (textEnd - prefix < 2 * PROBE || fromEnd - prefix < PROBE) return undefined;
  const at = prefix + ((textEnd - prefix - PROBE) >> 1);
  const probe = text.slice(at, at + PROBE);
  const found = from.indexOf(probe, prefix);
  if (found === -1 || found + PROBE > fromEnd || from.indexOf(probe, found + 1) !== -1) return undefined;
  // The common run through the probe: back from it, and on from its start.
  let back = 0;
  while (at - back > prefix && found - back > prefix && text.charCodeAt(at - back - 1) === from.charCodeAt(found - back - 1)) back++;
  const on = commonPrefixLength(from.slice(found, fromEnd), text.slice(at, textEnd));
  return { shared: prefix + suffix + back + on, via: text.slice(0, at - back) + from.slice(found - back) };
}

/**
 * A kept text in `language` that `text` shares most of (its common start and
 * end at least half of `text`, or its common start, end and one run between
 * two differing regions: `twoRegions`; the one sharing the most), with a copy
 * of its tree (the caller edits and deletes it), for an incremental parse of
 * `text`. Only an error-free tree: error recovery is where a parse from an
 * edited tree could read a text otherwise than a parse from the top.
 * Undefined when none. The real edits' sympy-13773 tries 4 and 6 differ 528
 * characters from the start and 7,710 from the end of 67 kB: one region
 * spanning both is nearly the whole text, two are a few lines each.
 */
export function keptNear(language: SyntaxLanguage, text: string): NearText | undefined {
  let best: Kept | undefined;
  let bestVia: string | undefined;
  let bestShared = Math.ceil(text.length / 2);
  for (const k of kept) {
    if (k.language !== language || k.tree.rootNode.hasError) continue;
    const prefix = commonPrefixLength(k.text, text);
    const suffix = commonSuffixLength(k.text, text, Math.min(k.text.length, text.length) - prefix);
    const two = prefix + suffix < bestShared ? twoRegions(k.text, text, prefix, suffix) : undefined;
    const shared = Math.max(prefix + suffix, two?.shared ?? 0);
    if (shared >= bestShared) {
      best = k;
      bestVia = two && two.shared > prefix + suffix ? two.via : undefined;
      bestShared = shared;
    }
  }
  return best && { text: best.text, tree: best.tree.copy(), ...(bestVia !== undefined && { via: bestVia }) };
}

/**
 * Texts up to this long that do not parse clean are parsed again from the
 * top after an incremental parse (check.ts `parseAfter`): the errors a broken
 * text shows depend on the tree it was parsed from (tree-sitter recovers from
 * the nodes it reuses), and a report must not depend on which trees were
 * kept. Past it, a broken text keeps its incremental tree, and that tree is
 * kept: a parse from the top of a 9 MB file costs ~1.5 s, which a file that
 * was broken before its edit would pay on every check. Measured: 7 of the
 * 642 real Python files are broken, 44 kB on average.
 */
export const TOP_PARSE_MAX_CHARS = 1 << 20;

/**
 * Keeps a copy of `tree` (of `text` in `language`), pushing out the least
 * recently used. A tree with an error up to TOP_PARSE_MAX_CHARS only when it
 * was parsed from the top (`fromTop`): the next check would start from a tree
 * a fresh parse does not give.
 */
export function keepTree(language: SyntaxLanguage, text: string, tree: Tree, fromTop = false): void {
  if (!fromTop && tree.rootNode.hasError && text.length <= TOP_PARSE_MAX_CHARS) return;
  if (kept.some((k) => k.language === language && k.text === text)) return;
  kept.push({ language, text, tree: tree.copy() });
  while (kept.length > KEPT) kept.shift()?.tree.delete();
}

/** Deletes every kept tree (tests). */
export function clearKeptTrees(): void {
  for (const k of kept.splice(0)) k.tree.delete();
}
