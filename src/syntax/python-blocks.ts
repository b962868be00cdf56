/**
 * Two Python errors tree-sitter's grammar reads past, which CPython's
 * compiler refuses (SyntaxError):
 * 1. A block with no statement: `if x:` followed by a line at its own
 *    depth reads as an if with an empty block (CPython: "expected an
 *    indented block"). A comment is no statement (tree-sitter puts it
 *    after the block).
 * 2. `return` outside a function: a return statement with no function
 *    definition around it (CPython: "'return' outside function").
 * Measured on bench:lazy: 5 of its 51 wrong Python merges were such files
 * (one empty block, four returns left outside the function they ended),
 * each one tree-sitter parsed clean.
 *
 * Only the nodes over a changed region (from the line before it: an empty
 * block ends on its header's line) are looked at, and the whole of a
 * statement outside any function that one of them is (a line `if x:` put at
 * column 1 in a function's middle makes the function's rest its body, and
 * each return in it a stray one), so the cost is the change's, not the
 * file's; the introduced-error comparison (introduced.ts) runs on the same
 * window before and after, as for python-indent.ts.
 */
import type { Node, Tree } from "web-tree-sitter";
import { lineText } from "./issues.ts";
import type { SyntaxIssue } from "./report.ts";

/** Nodes visited at most: an edit rewriting a whole large file is checked on its first ones. */
const MAX_NODES = 20_000;

const FUNCTION = new Set(["function_definition", "lambda"]);
/** Statements whose whole body is not searched for stray returns: a definition's returns are its own. */
const DEFINITION = new Set(["function_definition", "class_definition", "decorated_definition"]);

/** Whether `node` stands inside a function definition. */
function inFunction(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) if (FUNCTION.has(p.type)) return true;
  return false;
}

function issue(text: string, node: Node, message: string): SyntaxIssue {
  return {
    kind: "error",
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    endLine: node.endPosition.row + 1,
    start: node.startIndex,
    end: node.endIndex,
    message,
    excerpt: lineText(text, node.startIndex),
  };
}

/** The empty blocks and the returns outside a function among the nodes of `tree` over [start, end] of `text`. */
export function pythonBlockIssues(tree: Tree, text: string, start: number, end: number): SyntaxIssue[] {
  const out: SyntaxIssue[] = [];
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const from = lineStart > 0 ? text.lastIndexOf("\n", lineStart - 2) + 1 : 0;
  const cursor = tree.walk();
  // The statement outside a function whose whole subtree is searched, while the walk is inside it.
  let whole: Node | undefined;
  try {
    let visited = 0;
    for (;;) {
      const node = cursor.currentNode;
      if (whole && (node.startIndex >= whole.endIndex || node.endIndex <= whole.startIndex)) whole = undefined;
      const near = node.startIndex <= end && node.endIndex >= from;
      if (!whole && near && node.parent?.type === "module" && !DEFINITION.has(node.type)) whole = node;
      const over = near || (whole !== undefined && !DEFINITION.has(node.type));
      if (over && node.type === "block" && node.namedChildren.every((c) => c?.type === "comment")) {
        // Placed on the header's line: the empty block is where its body should start.
        out.push(issue(text, node.parent ?? node, "expected an indented block"));
      } else if (over && node.type === "return_statement" && !inFunction(node)) out.push(issue(text, node, "'return' outside function"));
      if (++visited >= MAX_NODES) break;
      if (over && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
  return out;
}
