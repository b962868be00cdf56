/**
 * The syntax check of one file's edit: one parse of the text before, the
 * tree told where the text changed (`tree.edit`), and an incremental
 * re-parse of the text after, which reuses every subtree outside the change.
 * The trees of the last texts are kept (tree-cache.ts): the next edit of the
 * text after is not parsed whole again.
 * The report says whether each text parses and which errors the edit
 * introduced (introduced.ts).
 */

import type { Parser, Point, Tree } from "web-tree-sitter";
import { commonPrefixLength, commonSuffixLength } from "../text/common-ends.ts";
import { countBreaks } from "../text/count-breaks.ts";
import { type ChangedRegion, introducedIssues } from "./introduced.ts";
import { lineText, listSyntaxIssues } from "./issues.ts";
import { parseWithin } from "./parse-within.ts";
import { languageOf, type SyntaxLanguage } from "./languages.ts";
import { pythonBlockIssues } from "./python-blocks.ts";
import { pythonIndentIssues } from "./python-indent.ts";
import { loadParser } from "./runtime.ts";
import type { SyntaxIssue, SyntaxReport } from "./report.ts";
import { keepTree, keptNear, keptTree, TOP_PARSE_MAX_CHARS, treeCacheStats } from "./tree-cache.ts";

export type { SyntaxReport } from "./report.ts";


/** The one region where two texts differ. */
export function changedRegion(before: string, after: string): ChangedRegion {
  const start = commonPrefixLength(before, after);
  const tail = commonSuffixLength(before, after, Math.min(before.length, after.length) - start);
  return { start, oldEnd: before.length - tail, newEnd: after.length - tail };
}

function pointAt(text: string, offset: number): Point {
  const row = countBreaks(text, 0, offset);
  return { row, column: offset - (text.lastIndexOf("\n", offset - 1) + 1) };
}

/**
 * An error that starts before the change and runs into it is placed at the
 * change: tree-sitter often wraps a whole block (or file) from its first line
 * in one ERROR when a token inside it breaks, and "line 1" tells the model
 * nothing about its edit at line 40.
 */
function placeAtChange(issue: SyntaxIssue, text: string, region: ChangedRegion): SyntaxIssue {
  if (issue.kind !== "error" || issue.start >= region.start || issue.end <= region.start) return issue;
  const at = pointAt(text, region.start);
  return { ...issue, line: at.row + 1, column: at.column + 1, excerpt: lineText(text, region.start) };
}

const byOffset = (issues: SyntaxIssue[]): SyntaxIssue[] => issues.sort((a, b) => a.start - b.start);

/** The check with a loaded parser: synchronous, for callers that weigh many readings of one edit. */
export function checkSyntaxWith(parser: Parser, language: SyntaxLanguage, before: string, after: string): SyntaxReport {
  const old = parseBefore(parser, before, language);
  try {
    return checkAfter(parser, language, old, after, old.tree);
  } finally {
    old.tree.delete();
  }
}

/** The text before an edit, parsed once: its tree and its issues. */
export interface ParsedBefore {
  text: string;
  tree: Tree;
  issues: SyntaxIssue[];
}

/**
 * Parses the text before an edit; the caller frees `tree`. A caller that checks several texts after against one text before parses it once.
 * With `language`, a kept tree of the text (tree-cache.ts) is used instead of a whole parse, and the tree is kept.
 */
export function parseBefore(parser: Parser, before: string, language?: SyntaxLanguage): ParsedBefore {
  const reused = language !== undefined ? (keptTree(language, before) ?? parseNear(parser, language, before)) : undefined;
  const tree = reused ?? parseWithin(parser, before);
  if (language !== undefined) keepTree(language, before, tree, reused === undefined);
  return { text: before, tree, issues: listSyntaxIssues(tree, before) };
}

/** `after` parsed from `oldTree` (edited to it), or from the top when that tree shows an error (`TOP_PARSE_MAX_CHARS`). */
function parseAfter(parser: Parser, after: string, oldTree: Tree): { tree: Tree; fromTop: boolean } {
  const tree = parseWithin(parser, after, oldTree);
  if (!tree.rootNode.hasError || after.length > TOP_PARSE_MAX_CHARS) return { tree, fromTop: false };
  tree.delete();
  return { tree: parseWithin(parser, after), fromTop: true };
}

/**
 * `text` parsed from the tree of a kept text it shares most of (tree-cache.ts
 * `keptNear`), told where they differ; undefined when none is kept or the
 * text has a syntax error: error recovery from an edited tree can read a
 * broken text otherwise than a parse from the top (the property test found
 * a deleted "f(" read differently), a well-formed text has one reading.
 */
function parseNear(parser: Parser, language: SyntaxLanguage, text: string): Tree | undefined {
  const near = keptNear(language, text);
  if (!near) return undefined;
  let tree: Tree | undefined;
  try {
    // Two regions: the first changed, then the second (each edit in the text the last one left).
    if (near.via !== undefined) {
      editTree(near.tree, near.text, near.via);
      editTree(near.tree, near.via, text);
    } else editTree(near.tree, near.text, text);
    tree = parseWithin(parser, text, near.tree);
  } finally {
    near.tree.delete();
  }
  if (!tree.rootNode.hasError) {
    treeCacheStats.near++;
    if (near.via !== undefined) treeCacheStats.twoRegions++;
    return tree;
  }
  tree.delete();
  return undefined;
}

/** Tells `tree` (of `before`) where `after` differs from it: the one changed region. */
export function editTree(tree: Tree, before: string, after: string, region = changedRegion(before, after)): void {
  tree.edit({
    startIndex: region.start,
    oldEndIndex: region.oldEnd,
    newEndIndex: region.newEnd,
    startPosition: pointAt(before, region.start),
    oldEndPosition: pointAt(before, region.oldEnd),
    newEndPosition: pointAt(after, region.newEnd),
  } as Parameters<typeof tree.edit>[0]);
}

/** The Python errors tree-sitter reads past, over [start, end) of `text`. */
export function pythonIssues(tree: Tree, text: string, start: number, end: number): SyntaxIssue[] {
  return [...pythonIndentIssues(tree, text, start, end), ...pythonBlockIssues(tree, text, start, end)];
}

/** The check of `after` against a parsed text before; `oldTree` (that tree, or a copy of it) is edited in place and left to the caller. */
export function checkAfter(parser: Parser, language: SyntaxLanguage, old: ParsedBefore, after: string, oldTree: Tree): SyntaxReport {
  const before = old.text;
  const region = changedRegion(before, after);
  // Python's indentation errors, empty blocks and stray returns, read on the change's lines before the old tree is edited (python-indent.ts, python-blocks.ts).
  const indentBefore = language === "python" ? pythonIssues(oldTree, before, region.start, region.oldEnd) : [];
  editTree(oldTree, before, after, region);
  const { tree: newTree, fromTop } = parseAfter(parser, after, oldTree);
  try {
    keepTree(language, after, newTree, fromTop);
    const indentAfter = language === "python" ? pythonIssues(newTree, after, region.start, region.newEnd) : [];
    const now = byOffset([...listSyntaxIssues(newTree, after), ...indentAfter]);
    const startLine = countBreaks(after, 0, region.start) + 1;
    const endLine = Math.max(startLine, startLine + countBreaks(after, region.start, Math.max(region.start, region.newEnd - 1)));
    return {
      language,
      parsesBefore: old.issues.length === 0 && indentBefore.length === 0,
      parsesAfter: now.length === 0,
      introduced: introducedIssues(byOffset([...old.issues, ...indentBefore]), now, region).map((issue) => placeAtChange(issue, after, region)),
      changed: { startLine, endLine },
    };
  } finally {
    newTree.delete();
  }
}

/**
 * The syntax check of an edit that turned `before` into `after` in the file
 * at `path`; undefined when the path is of no known language. Loads the
 * runtime and the grammar on first use.
 */
export async function checkSyntax(path: string, before: string, after: string): Promise<SyntaxReport | undefined> {
  const language = languageOf(path, after);
  if (language === undefined) return undefined;
  return checkSyntaxWith(await loadParser(language), language, before, after);
}
