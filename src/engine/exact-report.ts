/**
 * What an exact match writes as lines (a hunk whose old side stands exactly
 * once), and what its report says about it. A literal replacement that ends
 * with the lines already following the match writes them twice — the
 * model's text, as sent (issue 32) — and the report warns that they now
 * stand twice, so that the model can fix it if it did not mean it.
 */
import type { Candidate } from "../match/types.ts";
import type { Document } from "../text/document.ts";
import { hasNewElision } from "./exact-literal.ts";
import type { AppliedOp } from "./ops.ts";
import type { Splice } from "./splice.ts";

/**
 * The new lines of a whole-line exact match: the new side as written, when
 * the region equals the old side byte for byte. Undefined otherwise (blank
 * space around a line), and for a new side with an elision marker its old
 * side lacks: the merge refuses that (merge.ts, expandElisions).
 */
export function exactLines(doc: Document, cand: Candidate, lines: { find: readonly string[]; replace: readonly string[] }): string[] | undefined {
  if (cand.endLine - cand.startLine !== lines.find.length) return undefined;
  for (let k = 0; k < lines.find.length; k++) if (doc.line(cand.startLine + k) !== lines.find[k]) return undefined;
  if (hasNewElision(lines.find, lines.replace)) return undefined;
  return [...lines.replace];
}

/** The longest repeat looked for: the check is quadratic in it, and a model repeats a few lines. */
const MOST_REPEATED = 200;
/** The most lines shown in a warning. */
const SHOWN = 3;

/**
 * A warning when the last lines written repeat the file lines that follow
 * lines [from, to) and are not the find text's own last lines (kept ones).
 */
export function repeatWarnings(doc: Document, from: number, to: number, find: readonly string[], written: readonly string[]): string[] | undefined {
  // hasLine, not lineCount: the line table is read only as far as the lines compared.
  const cap = Math.min(written.length, MOST_REPEATED);
  let most = 0;
  while (most < cap && doc.hasLine(to + most)) most++;
  // The longest run: the last n written lines equal file lines [to, to + n).
  let n = 0;
  for (let m = most; m >= 1; m--) {
    let same = true;
    for (let k = 0; k < m && same; k++) same = written[written.length - m + k] === doc.line(to + k);
    if (same) {
      n = m;
      break;
    }
  }
  if (n === 0) return undefined;
  const repeated = written.slice(written.length - n);
  if (repeated.every((l) => l.trim() === "")) return undefined;
  // The find text's own last lines, kept: nothing added twice.
  if (find.length >= n && find.slice(find.length - n).every((l, k) => l === repeated[k])) return undefined;
  const shown = repeated.filter((l) => l.trim() !== "").slice(0, SHOWN).map((l) => `\`${l.trim()}\``);
  const first = from + written.length - n + 1;
  return [
    `${n === 1 ? `line ${first}` : `lines ${first}-${first + n - 1}`} as written repeat the ${n === 1 ? "line" : `${n} lines`} right after the replaced text (${shown.join(", ")}${n > SHOWN ? ", ..." : ""}): ${n === 1 ? "it now stands" : "they now stand"} twice. If that was not meant, remove one copy.`,
  ];
}

/** Lines of a text, without the empty piece after a final break. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

/** repeatWarnings for an exact range match, when it ends at a line's end or start (else what follows shares its line). */
export function exactRangeWarnings(doc: Document, cand: Candidate, s: Splice): string[] | undefined {
  const t = doc.text;
  const atLineStart = s.end > 0 && t[s.end - 1] === "\n";
  const atLineEnd = s.end === t.length || t[s.end] === "\n";
  if (s.text === "" || (atLineStart ? !s.text.endsWith("\n") : !atLineEnd)) return undefined;
  const to = atLineStart ? doc.lineAt(s.end) : doc.lineAt(s.end) + 1;
  const find = linesOf(cand.query.text);
  return repeatWarnings(doc, doc.lineAt(s.start), to, find, linesOf(s.text));
}

export function withWarnings(report: AppliedOp, warnings: string[] | undefined): AppliedOp {
  return warnings && warnings.length > 0 ? { ...report, warnings } : report;
}
