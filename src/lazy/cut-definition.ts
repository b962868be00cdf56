/**
 * A definition whose end, as the syntax tree reads it, falls inside its
 * block: the file's next line after it (blank lines skipped) is deeper than
 * the definition's header, so the text says the block goes on. A tree
 * reads so where the file has a syntax error (a stray `else:` after the
 * body ended the method early), and a merge within the tree's lines alone
 * then misses the lines the block has past that end (bench:lazy,
 * sympy-12481: the file's block twice, the second copy cut off by the
 * tree's end, so the snippet's lines seemed to stand once). Such a
 * definition's lines are not a scope to merge within.
 */
import type { ReadDefinition } from "../syntax/definitions-reader.ts";
import { indentWidth, isBlank } from "./blocks.ts";

export function endsInsideBlock(fileLines: readonly string[], def: ReadDefinition): boolean {
  let f = def.end;
  while (f < fileLines.length && isBlank(fileLines[f] as string)) f++;
  return f < fileLines.length && indentWidth(fileLines[f] as string) > indentWidth(fileLines[def.nameLine] as string);
}
