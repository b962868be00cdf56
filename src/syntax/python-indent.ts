/**
 * Python's indentation errors, which tree-sitter's Python grammar reads
 * past: its scanner ignores an indent that opens no block and closes blocks
 * on a dedent to a column no open block has, so `x = 1` followed by a line
 * 8 columns deeper, or a line dedented to a column between two levels,
 * parses clean there while CPython refuses the file (IndentationError:
 * "unexpected indent", "unindent does not match any outer indentation
 * level"). In the tree both show the same way: two statements of one block
 * (or of the module) that start their lines at different indentation. The
 * later one is blamed, as CPython blames it (the statement after the
 * changed lines too). Measured on the real edits: 4
 * expected files that CPython's `compile` refuses with IndentationError
 * parsed clean for tree-sitter; this rule reports each at CPython's line.
 *
 * Only the lines of a changed region are looked at (a statement there
 * against its nearest sibling statement), so the cost is the change's, not
 * the file's; the introduced-error comparison (introduced.ts) runs on the
 * same window of the text before and after. A statement sharing its line
 * with another (`if x: y = 1`), a comment, and the lines inside a string or
 * brackets are not statements starting a line, and are left alone.
 */
import type { Node, Tree } from "web-tree-sitter";
import { countBreaks } from "../text/count-breaks.ts";
import { lineText } from "./issues.ts";
import type { SyntaxIssue } from "./report.ts";

/** Lines of a change looked at, at most: an edit rewriting a whole large file is checked on its first lines. */
const MAX_ROWS = 2000;
/** Siblings passed over (comments, statements sharing a line) to find the nearest one that starts a line. */
const MAX_SKIP = 20;

const isBlockLike = (n: Node | null): boolean => n?.type === "block" || n?.type === "module";

/** The whitespace before `offset` on its line, or undefined when other text stands there. */
function indentBefore(text: string, offset: number): string | undefined {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const indent = text.slice(start, offset);
  return indent.trim() === "" ? indent : undefined;
}

/** The nearest sibling statement in direction `next` that starts its line, with its indentation. */
function sibling(node: Node, text: string, next: boolean): { node: Node; indent: string } | undefined {
  let s = next ? node.nextNamedSibling : node.previousNamedSibling;
  for (let k = 0; s && k < MAX_SKIP; k++, s = next ? s.nextNamedSibling : s.previousNamedSibling) {
    if (s.type === "comment" || s.isError || s.isMissing) continue;
    const indent = indentBefore(text, s.startIndex);
    if (indent !== undefined) return { node: s, indent };
  }
  return undefined;
}

/** The statement that starts at `offset` as a child of a block or the module, if one does. */
function statementAt(tree: Tree, offset: number): Node | undefined {
  let n: Node | null = tree.rootNode.descendantForIndex(offset);
  while (n && !isBlockLike(n.parent)) n = n.parent;
  if (!n || n.startIndex !== offset || n.type === "comment" || n.isError || n.isMissing) return undefined;
  return n;
}

/**
 * The statements starting a line in [start, end) of `text` (the text `tree`
 * was parsed from) whose indentation differs from their nearest sibling
 * statement's, as syntax errors.
 */
export function pythonIndentIssues(tree: Tree, text: string, start: number, end: number): SyntaxIssue[] {
  const out: SyntaxIssue[] = [];
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  let row = countBreaks(text, 0, lineStart);
  for (let rows = 0; lineStart < Math.max(end, start + 1) && lineStart < text.length && rows < MAX_ROWS; rows++, row++) {
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(lineStart, lineEnd);
    const first = lineStart + line.length - line.trimStart().length;
    const node = first < lineEnd ? statementAt(tree, first) : undefined;
    if (node) {
      // A statement is blamed against the one before it, as CPython does. The one after it is blamed where
      // it is not read on its own: after the first of a block (which sets the block's indentation), and
      // past the changed lines (an edit that dedents its last statement leaves the next one too deep).
      const indent = text.slice(lineStart, first);
      const prev = sibling(node, text, false);
      const after = sibling(node, text, true);
      const blamed = prev !== undefined && prev.indent !== indent;
      // Once this one is blamed, the one after it at the block's indentation is not wrong.
      const next = !blamed && (!prev || (after && after.node.startIndex >= end)) ? after : undefined;
      if (blamed && !out.some((i) => i.start === node.startIndex)) out.push(indentIssue(text, node, indent, prev.indent, row));
      if (next && next.indent !== indent && !out.some((i) => i.start === next.node.startIndex)) {
        out.push(indentIssue(text, next.node, next.indent, indent, next.node.startPosition.row));
      }
    }
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return out;
}

function indentIssue(text: string, node: Node, indent: string, before: string, row: number): SyntaxIssue {
  const nl = text.indexOf("\n", node.startIndex);
  return {
    kind: "error",
    line: row + 1,
    column: node.startPosition.column + 1,
    endLine: row + 1,
    start: node.startIndex,
    end: nl < 0 ? text.length : nl,
    message: `inconsistent indentation: ${describe(indent)}, where the statement before it in the same block has ${describe(before)}`,
    excerpt: lineText(text, node.startIndex),
  };
}

function describe(indent: string): string {
  if (indent === "") return "column 1";
  const tabs = indent.includes("\t");
  return tabs && indent.replaceAll("\t", "") === "" ? `${indent.length} tab${indent.length > 1 ? "s" : ""}` : `${indent.length} ${tabs ? "characters" : "spaces"}`;
}
