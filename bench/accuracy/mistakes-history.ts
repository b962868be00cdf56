/**
 * Mistakes about the file's history rather than the edit's text: the model's
 * edit is exact, but against a version of the file that is not the current
 * one.
 *
 * - `resent`: the model sends again an edit it already made (a retried tool
 *   call, a response applied twice). The file holds the edit already.
 * - `stale-history`: the file changed after the model read it; the version it
 *   read is handed to the applier as history (`applyEdits`' `history`
 *   option), the only layer of fuzzpatch that takes one. Baselines see the
 *   current file and the edit only.
 */

import { applyEdit, countSquashed, type MistakeInput, type MistakeOutput, regionOld, withLines } from "./mistake-kit.ts";
import type { Rng } from "./random.ts";
import { diffSpan } from "./render.ts";
import { commentLeader, leadingWhitespace, makeLine, makeWord, renameOneIdentifier } from "./text-gen.ts";

/**
 * The model re-sends an edit that is in the file already: the file is the
 * original with the intended edit applied, the edit is the clean one written
 * against the original. A careful human sees the new text where the old text
 * was, and changes nothing (writing it twice would duplicate an insertion or
 * append a suffix twice). Correct = the file unchanged; a refusal is wrong,
 * as re-sent edits are common and harmless.
 *
 * Insertions and modifications (and a quarter of block replacements) only:
 * they add text of their own that tells "already made" from "never made". A
 * re-sent deletion leaves nothing to recognise it by.
 */
export function resent(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit } = input;
  if (edit.kind === "delete" || (edit.kind === "replace" && !rng.chance(0.25))) return undefined;
  // The generator already drops edits that change nothing; an edit that only re-lays whitespace is not "its own text".
  const squash = (lines: readonly string[]) => lines.join("").replace(/\s+/g, "");
  if (squash(file.lines.slice(edit.changeStart, edit.changeEnd)) === squash(edit.replacement)) return undefined;
  const content = applyEdit(file.lines, edit).join("\n");
  // A modification that only appends to the region's last line leaves the find text in the file, inside the new line: the hard variant, kept.
  const grown = edit.replacement.length - (edit.changeEnd - edit.changeStart);
  const inside = content.includes(regionOld(view).join("\n"));
  // The old text, with a diff's context, still standing exactly at another copy (a README showing the same
  // snippet twice): sending the edit again is then the same text as editing that copy, which is applied.
  // Lines compared trimmed: a copy with other whitespace is a copy to the applier too.
  const trimmed = (lines: readonly string[]) => lines.map((l) => l.trim()).join("\n");
  // The diff formats show the least context (3 lines around the change), so their hunk is what must be unique.
  const [from, to] = diffSpan(view);
  const shown = view.slice(from, to);
  const withContext = trimmed(shown.filter((l) => l.role !== "add").map((l) => l.old));
  const newText = trimmed(shown.filter((l) => l.role !== "del").map((l) => l.new));
  if (occurrences(trimmed(content.split("\n")), withContext) > occurrences(newText, withContext)) return undefined;
  return {
    view,
    content,
    expected: content,
    endLine: edit.end + grown,
    note: `the ${edit.kind} edit is in the file already${inside ? " (its find text still occurs, inside the new text)" : ""}`,
  };
}

/** A concurrent change of one line in the file's style: a renamed identifier or an appended comment. */
function changeLine(line: string, input: MistakeInput, rng: Rng): string | undefined {
  const { file } = input;
  if (line.trim() === "") return undefined;
  const js = file.language === "js" || file.language === "ts";
  if (js && !line.includes("//") && rng.chance(0.4)) return `${line} // ${makeWord(rng)}`;
  const renamed = renameOneIdentifier(line, rng, (name) => name + rng.pick(["Next", "Resolved", "Local", "Value"]));
  if (renamed !== undefined || file.language === "json") return renamed;
  const leader = commentLeader(file);
  return leader === "" ? `${line} ${makeWord(rng)}` : `${line} ${leader} ${makeWord(rng)}`;
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/**
 * Unchanged lines needed between a concurrent change and the edit for the
 * two to be independent; fewer is "near". Carry-over (src/engine/carry-over.ts)
 * conflicts changes with fewer than 2 unchanged lines between them, and a
 * careful human merging by hand would ask at that distance too.
 */
const NEAR_GAP = 1;
/** Lines between the region and a far concurrent change: past a diff's 3 context lines, with room to spare. */
const FAR_DISTANCE = 6;

/**
 * The concurrent change touches the edit: a line the edit changes is itself
 * changed, or a kept region line next to the change (at most one unchanged
 * line between). The edit matches the version the model read exactly, and
 * the current file only where it changed. A careful human does not guess
 * which of two overlapping changes wins and asks the model to redo the edit
 * against the current lines. Correct = refusal.
 */
function staleNear(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit } = input;
  // The lines the edit really changes: its change range less the lines it writes back unchanged at either
  // end (blank lines around a deletion), as a line diff, and so the merge, sees them.
  let cs = edit.changeStart;
  let ce = edit.changeEnd;
  let rs = 0;
  let re = edit.replacement.length;
  while (cs < ce && rs < re && file.lines[cs] === edit.replacement[rs]) {
    cs++;
    rs++;
  }
  while (cs < ce && rs < re && file.lines[ce - 1] === edit.replacement[re - 1]) {
    ce--;
    re--;
  }
  // A deletion that can slide over equal lines (a blank line either side) has no one place a diff gives it:
  // how near the concurrent change is depends on the diff's choice, so no case is made of it.
  if (rs === re && cs < ce && (file.lines[cs - 1] === file.lines[ce - 1] || file.lines[ce] === file.lines[cs])) return undefined;
  const changed: number[] = [];
  for (let i = cs; i < ce; i++) changed.push(i);
  const kept: number[] = [];
  for (let i = Math.max(edit.start, cs - 1 - NEAR_GAP); i < Math.min(edit.end, ce + 1 + NEAR_GAP); i++) {
    if (i < cs || i >= ce) kept.push(i);
  }
  const usable = (pool: number[]) => pool.filter((i) => (file.lines[i] ?? "").trim() !== "");
  const inChange = usable(changed);
  const pool = inChange.length > 0 && (usable(kept).length === 0 || rng.chance(0.5)) ? inChange : usable(kept);
  if (pool.length === 0) return undefined;
  const target = rng.pick(pool);
  const original = file.lines[target] ?? "";
  const now = changeLine(original, input, rng);
  if (now === undefined || now === original) return undefined;
  const lines = file.lines.slice();
  lines[target] = now;
  // The quoted text must be gone from the file: a comment appended to the region's last line leaves
  // the find text exact (ending mid-line), and an exact match is applied, never merged (history-merge.ts).
  if (lines.join("\n").includes(regionOld(view).join("\n"))) return undefined;
  // The concurrent change must not be the edit itself (that is `resent`).
  const grown = edit.replacement.length - (edit.changeEnd - edit.changeStart);
  if (lines.slice(edit.start, edit.end).join("\n") === applyEdit(file.lines, edit).slice(edit.start, edit.end + grown).join("\n")) return undefined;
  const where = target >= cs && target < ce ? "a line the edit changes" : "a kept line next to the change";
  return {
    view,
    content: lines.join("\n"),
    history: file.text,
    expected: null,
    note: `line ${target + 1} (${where}) changed since the model read the file; the version it read is the history`,
  };
}

/**
 * The concurrent change is far from the edit (6+ lines from the region: a
 * line renamed, inserted or deleted). The two changes are independent, so a
 * careful human applies the edit and keeps the other change.
 * Correct = the intended edit on the current file.
 */
function staleFar(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  const { view, file, edit, realLineCount } = input;
  const far: number[] = [];
  for (let t = 0; t < realLineCount; t++) {
    const away = t < edit.start ? edit.start - t : t - (edit.end - 1);
    if (away >= FAR_DISTANCE && (file.lines[t] ?? "").trim() !== "") far.push(t);
  }
  if (far.length === 0) return undefined;
  const target = rng.pick(far);
  const original = file.lines[target] ?? "";
  const lines = file.lines.slice();
  const roll = rng.next();
  let what: string;
  let delta: number;
  if (roll < 0.5) {
    const now = changeLine(original, input, rng);
    if (now === undefined || now === original) return undefined;
    lines[target] = now;
    what = "changed";
    delta = 0;
  } else if (roll < 0.8) {
    const added = Array.from({ length: rng.int(1, 2) }, () => leadingWhitespace(original) + makeLine(file, rng));
    lines.splice(target + 1, 0, ...added);
    what = `followed by ${added.length} new line(s)`;
    delta = added.length;
  } else {
    lines.splice(target, 1);
    what = "deleted";
    delta = -1;
  }
  const shift = target < edit.start ? delta : 0;
  const moved = { ...edit, start: edit.start + shift, end: edit.end + shift, changeStart: edit.changeStart + shift, changeEnd: edit.changeEnd + shift };
  // The region must still be the one place the edit fits in the current file.
  const region = lines.slice(moved.start, moved.end);
  if (occurrences(lines.join("\n"), region.join("\n")) !== 1 || countSquashed(withLines(file, lines), region) !== 1) return undefined;
  return {
    view,
    content: lines.join("\n"),
    history: file.text,
    expected: applyEdit(lines, moved).join("\n"),
    startLine: moved.start + 1,
    // The model numbers its diff from the version it read.
    diffStartLine: edit.start + 1,
    note: `line ${target + 1}, ${target < edit.start ? edit.start - target : target - edit.end + 1} lines from the region, ${what} since the model read the file; the version it read is the history`,
  };
}

/**
 * The file changed after the model read it, and the caller passes the version
 * the model read as history. Half the cases change it far from the edit
 * (carry the edit over), half next to or inside it (refuse).
 */
export function staleHistory(input: MistakeInput, rng: Rng): MistakeOutput | undefined {
  return rng.chance(0.5) ? staleNear(input, rng) : staleFar(input, rng);
}
