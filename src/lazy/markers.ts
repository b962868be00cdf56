/**
 * Lazy snippets: which lines of a snippet stand for code left out (markers),
 * which stand for code taken out (removal notes), and which are code.
 *
 *   snippet   := line*
 *   line      := marker | removal | code
 *   marker    := indent comment-open ws* elision ws* comment-close?
 *              | indent ("..." | "…")                      a bare ellipsis line (Python, prose)
 *   removal   := indent comment-open ws* ("remove" | "removed" | "delete" | "deleted") words comment-close?
 *   comment-open  := "//" | "#" | "--" | ";" | "%" | "/*" | "<!--" | "{/*" | "'"
 *   comment-close := "*\/" | "-->" | "*\/}"
 *   elision   := ellipsis? wording? ellipsis?             at least one of the two
 *   wording   := "existing code" | "rest of (the) code|file|class|function|method|…"
 *              | "keep existing code" | "other methods|functions|…" | "unchanged …"
 *              | "same as before" | "remaining …" | "previous …" | "omitted" | "etc"
 *
 * Leniencies, each for a model habit:
 * 1. Every comment syntax models use for the same note: `// ...`, `# ...`,
 *    `-- ...`, `/* ... *\/`, `<!-- ... -->`, JSX `{/* ... *\/}`.
 * 2. Any wording around the ellipsis (`// ... existing code ...`,
 *    `# ... rest of the file unchanged ...`, `// … other methods …`), and
 *    the wording alone (`// existing code here`, `# rest of class`).
 * 3. The Unicode ellipsis `…` for `...` (typeset by some models).
 * 4. A bare `...` line (aider's Python habit). Where the file itself has
 *    bare `...` lines (a Python stub body, a doctest), it is code only if it
 *    aligns with one of them and a line next to it aligns next to that one,
 *    or it is the body of a new block (apply-lazy-edit.ts decides, after a
 *    first alignment).
 * 5. A removal note (`// remove the old helper`, `# deleted: foo()`) that is
 *    not a line of the file: what lies between its neighbours is deleted,
 *    and the note itself is not written.
 *
 * Strictness: a comment that is a line of the file is code, whatever it
 * says (`# rest of the loop is unrolled`); a marker's wording is short
 * (at most 80 characters), so prose comments are not read as markers.
 */

export type SnippetLineKind = "code" | "marker" | "removal";

export interface SnippetLine {
  kind: SnippetLineKind;
  /** The line as written (LF-split, no break). */
  text: string;
  /** Leading whitespace. */
  indent: string;
  /** 0-based line of the snippet. */
  index: number;
}

const OPENERS = ["{/*", "<!--", "/*", "//", "#", "--", ";", "%", "'"] as const;
const CLOSERS = ["*/}", "-->", "*/"] as const;

/** The text of a one-line comment without its delimiters, or undefined when the line is no comment. */
export function commentBody(trimmed: string): string | undefined {
  for (const open of OPENERS) {
    if (!trimmed.startsWith(open)) continue;
    let body = trimmed.slice(open.length);
    for (const close of CLOSERS) {
      if (body.trimEnd().endsWith(close)) {
        body = body.trimEnd().slice(0, -close.length);
        break;
      }
    }
    // `#include`, `#!/bin/sh`, `--flag`: no space or ellipsis after the opener is code.
    if (open === "#" || open === "--" || open === ";" || open === "'" || open === "%") {
      if (!/^[\s.…]/.test(body)) return undefined;
    }
    return body.trim();
  }
  return undefined;
}

const ELLIPSIS = /(?:\.\.\.|…)/;
// The wording models put in markers; matched at the start of the note (after an ellipsis).
const WORDING =
  /^(?:\(?\s*)(?:(?:keep|keeping|the)\s+)?(?:existing|rest\s+of|remaining|other|unchanged|same\s+as\s+(?:before|original|above)|previous|omitted|more|etc\b|code\s+(?:unchanged|omitted|here)|original|everything\s+else|lines?\s+omitted|(?:no|unchanged)\s+changes?)/i;
const REMOVAL = /^(?:remove|removed|removing|delete|deleted|deleting)\b/i;

/** Whether a comment's body reads as an elision note. */
export function isElisionNote(body: string): boolean {
  if (body.length > 80) return false;
  const words = body.replace(/^[\s.…]+/, "").replace(/[\s.…]+$/, "");
  // `// ...`, `// ... existing code ...`, `/* … */`: the note opens with an ellipsis.
  if (/^(?:\.\.\.|…)/.test(body)) return true;
  if (!WORDING.test(words)) return false;
  // `// rest of code ...`, `# existing code here`: the wording alone names what is left out.
  return ELLIPSIS.test(body) || /\b(?:code|file|class|function|functions|methods?|lines?|implementation|body|imports?|content|unchanged|same|before|omitted|here|etc|else|props|fields|properties|tests?|cases|config|definitions|sections?|routes|styles|components?|items|elements|logic)\b/i.test(words);
}

function classify(text: string, index: number, fileLines: ReadonlySet<string>, bareEllipsisIsCode: boolean): SnippetLine {
  const trimmed = text.trim();
  const indent = text.slice(0, text.length - text.trimStart().length);
  const line = (kind: SnippetLineKind): SnippetLine => ({ kind, text, indent, index });
  if (trimmed === "" || fileLines.has(trimmed)) return line("code");
  if (trimmed === "..." || trimmed === "…") return line(bareEllipsisIsCode ? "code" : "marker");
  const body = commentBody(trimmed);
  if (body === undefined) return line("code");
  if (REMOVAL.test(body) && body.length <= 120) return line("removal");
  return line(isElisionNote(body) ? "marker" : "code");
}

/** Each line of the snippet, classified against the file's trimmed lines. */
export function classifySnippet(snippetLines: readonly string[], fileTrimmed: ReadonlySet<string>): SnippetLine[] {
  const bareEllipsisIsCode = fileTrimmed.has("...");
  return snippetLines.map((t, k) => classify(t, k, fileTrimmed, bareEllipsisIsCode));
}

/** Whether a text holds at least one marker line (a file-less check, for format detection). */
export function hasMarker(text: string): boolean {
  for (const l of text.split("\n")) {
    const t = l.trim();
    if (t === "..." || t === "…") return true;
    const body = commentBody(t);
    if (body !== undefined && isElisionNote(body)) return true;
  }
  return false;
}
