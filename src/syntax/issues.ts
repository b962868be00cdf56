/**
 * The syntax errors in a parsed tree: tree-sitter marks what it could not
 * read as ERROR nodes (text skipped over) and MISSING nodes (a token it
 * inserted to go on, such as a closing brace). Offsets are UTF-16 code
 * units, as web-tree-sitter gives them for a JavaScript string, so they
 * index the text directly.
 */

import type { Node, Tree } from "web-tree-sitter";
import type { SyntaxIssue } from "./report.ts";

export type { SyntaxIssue } from "./report.ts";


/** Issues listed per tree at most: a file of another dialect can hold thousands. */
export const MAX_ISSUES = 200;
const EXCERPT = 80;
const QUOTED = 40;

/** The text of the line at `offset`, trimmed, at most 80 characters. */
export function lineText(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const nl = text.indexOf("\n", offset);
  const line = text.slice(start, nl < 0 ? text.length : nl).trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
}

function quote(text: string): string {
  const first = text.trim().split("\n")[0]?.trim() ?? "";
  return JSON.stringify(first.length > QUOTED ? `${first.slice(0, QUOTED - 1)}…` : first);
}

function issueOf(node: Node, text: string): SyntaxIssue {
  const missing = node.isMissing;
  const body = text.slice(node.startIndex, node.endIndex);
  return {
    kind: missing ? "missing" : "error",
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    endLine: node.endPosition.row + 1,
    start: node.startIndex,
    end: node.endIndex,
    message: missing ? `missing ${JSON.stringify(node.type)}` : body.trim() === "" ? "syntax error" : `unexpected ${quote(body)}`,
    excerpt: lineText(text, node.startIndex),
  };
}

/**
 * The ERROR and MISSING nodes of `tree` over `text`, in document order: the
 * outermost ERROR of a nest only (its inner ones are the same mistake), and
 * only under nodes that contain an error (a clean subtree is skipped whole,
 * so a large valid file costs one look at its root).
 */
export function listSyntaxIssues(tree: Tree, text: string, max = MAX_ISSUES): SyntaxIssue[] {
  const out: SyntaxIssue[] = [];
  if (!tree.rootNode.hasError) return out;
  const cursor = tree.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) {
        out.push(issueOf(node, text));
        if (out.length >= max) break;
        descend = false;
      } else descend = node.hasError;
      if (descend && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
  return out;
}
