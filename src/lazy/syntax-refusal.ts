/**
 * The merge refused when its result has a syntax error the file did not
 * have (read with the file's grammar: the `syntax` option of applyLazyEdit,
 * a checker loaded before the merge, src/syntax/merge-checker.ts). Bracket
 * balance (balance.ts) sees a marker that swallowed a closing brace; the
 * tree also sees a block split in the wrong place, a statement cut in two,
 * a Python line left at the wrong depth. A merge that breaks the file is
 * never the right reading of a snippet: either the snippet's lines were
 * placed wrong or its code is itself incomplete, and either way the model
 * must send it again.
 */
import { EditError } from "../errors.ts";
import type { SyntaxChecker } from "../syntax/merge-checker.ts";
import type { SyntaxIssue } from "../syntax/report.ts";
import type { SnippetLine } from "./markers.ts";
import { quoteLine, segmentsOf } from "./merge.ts";

/** Merged lines looked at on each side of the error for one the snippet wrote. */
const NEAR = 40;

/**
 * The snippet line the merged line `at` (0-based) came from: one of the
 * snippet's code lines with its text (the one of the same rank among the
 * lines of that text), else the nearest merged line that is; the snippet's
 * first code line when none is near.
 */
function snippetLineAt(snip: readonly SnippetLine[], merged: readonly string[], at: number): SnippetLine | undefined {
  const code = snip.filter((l) => l.kind === "code" && l.text.trim() !== "");
  const byText = new Map<string, SnippetLine[]>();
  for (const l of code) {
    const list = byText.get(l.text.trim()) ?? [];
    list.push(l);
    byText.set(l.text.trim(), list);
  }
  const fromSnippet = (m: number): SnippetLine | undefined => {
    const t = (merged[m] ?? "").trim();
    const list = t === "" ? undefined : byText.get(t);
    if (!list) return undefined;
    let rank = 0;
    for (let k = Math.max(0, m - NEAR * 4); k < m; k++) if ((merged[k] as string).trim() === t) rank++;
    return list[Math.min(rank, list.length - 1)];
  };
  for (let d = 0; d <= NEAR; d++) {
    const found = fromSnippet(at - d) ?? fromSnippet(at + d);
    if (found) return found;
  }
  const seg = segmentsOf(snip)[0];
  return code.find((l) => seg !== undefined && l.index >= seg.start) ?? code[0];
}

/**
 * Throws CONFLICT when `after` (the merged text, `merged` its lines) has
 * syntax errors `before` had not; nothing when it has none, or the checker
 * could not tell.
 */
export function checkMergedSyntax(
  checker: SyntaxChecker,
  before: string,
  after: string,
  merged: readonly string[],
  snip: readonly SnippetLine[],
  range: { startLine?: number; endLine?: number },
): void {
  const introduced = checker(before, after);
  const first = introduced?.[0];
  if (!introduced || !first) return;
  const from = snippetLineAt(snip, merged, first.line - 1);
  const more = introduced.length > 1 ? ` (and ${introduced.length - 1} more)` : "";
  throw new EditError(
    "CONFLICT",
    `The merged file would have a syntax error the file did not have, at line ${first.line}: ${what(first)}${more}${from ? `, near the part at snippet line ${from.index + 1} (${quoteLine(from.text)})` : ""}. A marker or a block's first or last line is not where the snippet shows it, or the snippet's code is incomplete. Show the whole block you change (its first and last lines), with "// ... existing code ..." only for whole lines left out.`,
    {
      syntax: introduced.slice(0, 5).map(describe),
      ...(from && { segment: from.index + 1 }),
      candidates: [{ startLine: range.startLine ?? 1, endLine: range.endLine ?? Math.max(1, merged.length) }],
    },
  );
}

/**
 * The error as the model reads it: the message and the line. An "unexpected" text that starts above
 * the line (tree-sitter wraps a block from its header in one ERROR; check.ts places it at the
 * change) is the line alone: the header it quotes is not the mistake.
 */
function what(issue: SyntaxIssue): string {
  const quoted = /^unexpected "(.*?)…?"$/.exec(issue.message)?.[1];
  if (quoted !== undefined && !issue.excerpt.includes(quoted)) return quoteLine(issue.excerpt);
  return `${issue.message} (${quoteLine(issue.excerpt)})`;
}

function describe(issue: SyntaxIssue): { line: number; message: string } {
  return { line: issue.line, message: issue.message };
}
