/**
 * A unified diff made easier for a person to read: the leading whitespace
 * that every content line shares (a change deep inside a class) is removed,
 * so the diff starts at the left margin. Content lines keep their prefix
 * character; headers (`---`/`+++`, `@@`, `diff --git`), `\ No newline` markers
 * and prose are left alone. For display only: the result is not meant to be
 * applied.
 */

import { leadingWhitespace } from "../text/normalize.ts";

function isContent(line: string): boolean {
  const c = line[0];
  return c === " " || c === "-" || c === "+";
}

/** Marks which lines are hunk content: lines after an `@@` header until a file header or prose. */
function findContentLines(lines: string[]): boolean[] {
  const content = lines.map(() => false);
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.startsWith("@@")) {
      inHunk = true;
      continue;
    }
    // Same rule as the parser: `---` directly followed by `+++` is a file header.
    if (line.startsWith("---") && (lines[i + 1] ?? "").startsWith("+++")) {
      inHunk = false;
      i++;
      continue;
    }
    if (line.startsWith("diff --git ")) {
      inHunk = false;
      continue;
    }
    if (!inHunk) continue;
    if (isContent(line)) content[i] = true;
    else if (line !== "" && !line.startsWith("\\")) inHunk = false;
  }
  return content;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/**
 * Returns `patchText` with the common leading indentation of its content
 * lines removed (after the ` `/`-`/`+` prefix). Whitespace-only lines do not
 * count towards the common indentation. Tabs and spaces are compared as
 * characters, so a mixed-indentation diff is trimmed only by what all lines
 * really share.
 */
export function formatDiffForDisplay(patchText: string): string {
  const lines = patchText.split("\n");
  const content = findContentLines(lines);
  let common: string | undefined;
  lines.forEach((line, i) => {
    if (!content[i]) return;
    const body = line.slice(1);
    if (body.trim() === "") return;
    const indent = leadingWhitespace(body);
    common = common === undefined ? indent : commonPrefix(common, indent);
  });
  const cut = common?.length ?? 0;
  if (cut === 0) return patchText;
  return lines
    .map((line, i) => {
      if (!content[i]) return line;
      const body = line.slice(1);
      // Blank or short whitespace-only lines lose what they have of the indentation.
      const remove = Math.min(cut, leadingWhitespace(body).length);
      return line[0] + body.slice(remove);
    })
    .join("\n");
}
