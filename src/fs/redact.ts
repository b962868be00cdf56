/**
 * `fuzzpatch report --redact`: a bundle a user can share without sharing
 * their code. Each line of a file far from what the write changed is
 * replaced by a placeholder, `⟪redacted N⟫` after the line's own
 * indentation (N its line number before the write), so line numbers,
 * indentation and line endings stay, and the placeholder matches no line of
 * the input. Kept: the changed lines, `radius` lines around each change on
 * either side (the diff's 3 lines of context at least), and every line
 * whose text (trimmed) occurs in the input: those the user shares anyway,
 * and the ones the matcher compared the edit with.
 *
 * The same line gets the same placeholder before and after the write, so
 * the redacted "after" is the redacted "before" with the write's change: a
 * replay of the redacted bundle must give it byte for byte, and the report
 * checks that it does (report-bundle.ts), widening the radius if not.
 */

import { diffLinesBounded } from "../text/line-diff.ts";

/** The lines of `text` split after each LF (a line keeps its CR). */
const linesOf = (text: string): string[] => text.split("\n");

/** Every string in the input (a response's text, or the values of its edits), as trimmed lines, and again without a diff's `+`, `-` or ` ` in front. */
export function inputLines(input: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      for (const line of v.split("\n")) {
        const t = line.trim();
        if (t !== "") out.add(t);
        const body = /^[-+ ]/.test(line) ? line.slice(1).trim() : "";
        if (body !== "") out.add(body);
      }
    } else if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v && typeof v === "object") for (const x of Object.values(v)) visit(x);
  };
  visit(input);
  return out;
}

function placeholder(line: string, n: number): string {
  const indent = /^[\uFEFF]?[ \t]*/.exec(line)?.[0] ?? "";
  return `${indent}⟪redacted ${n}⟫${line.endsWith("\r") ? "\r" : ""}`;
}

/**
 * `before` and `after` (undefined: the file did not exist) with their far
 * lines replaced; a line of one side is kept or replaced as its twin on the
 * other side is.
 */
export function redactPair(before: string | undefined, after: string | undefined, keepText: ReadonlySet<string>, radius: number): { before?: string; after?: string } {
  const a = before === undefined ? [] : linesOf(before);
  const b = after === undefined ? [] : linesOf(after);
  const changedA = new Set<number>();
  const changedB = new Set<number>();
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  // A file only read (no after) is compared with nothing: only the input's lines are kept.
  if (after === undefined || before === undefined) {
    for (let k = 0; k < a.length; k++) pairs.push([k, -1]);
    for (let k = 0; k < b.length; k++) pairs.push([-1, k]);
  } else {
    for (const c of diffLinesBounded(a, b)) {
      const n = c.value.length;
      if (c.removed) for (let k = 0; k < n; k++) changedA.add(i++);
      else if (c.added) for (let k = 0; k < n; k++) changedB.add(j++);
      else for (let k = 0; k < n; k++) pairs.push([i++, j++]);
    }
  }
  const near = (changed: ReadonlySet<number>, at: number) => {
    for (let d = -radius; d <= radius; d++) if (changed.has(at + d)) return true;
    return false;
  };
  const outA = [...a];
  const outB = [...b];
  for (const [x, y] of pairs) {
    const line = x >= 0 ? (a[x] as string) : (b[y] as string);
    const keep = keepText.has(line.trim()) || line.trim() === "" || (x >= 0 && near(changedA, x)) || (y >= 0 && near(changedB, y));
    if (keep) continue;
    const text = placeholder(line, (x >= 0 ? x : y) + 1);
    if (x >= 0) outA[x] = text;
    if (y >= 0) outB[y] = text;
  }
  return { ...(before !== undefined && { before: outA.join("\n") }), ...(after !== undefined && { after: outB.join("\n") }) };
}
