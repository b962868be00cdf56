/**
 * A definition's header line that the file has once holds the body after
 * it alone. moved-lines.ts takes a line out of order for a move the merge
 * makes when the gap it stood in is held on both sides by two lines of
 * context, since a lone anchor may be a copy (`from x import Mul` in a new
 * import block); a `def _entry(self, i, j, **kwargs):` the file has once is
 * no copy (a file defines a name once), and a snippet that shows a function
 * from that header rewrites its body, moving lines within it as it likes
 * (bench:lazy: a `return` moved from before a loop to an `else:` after it).
 * Only the gap after the header: the next definition's header after a gap
 * tells nothing of the lines before it (test/lazy-copies.test.ts: a body
 * copied from a sibling read as a move with it).
 */
import { lineKey } from "./align.ts";
import { readHeader } from "./definitions.ts";
import type { SnippetLine } from "./markers.ts";

/** Whether snippet line `s` is a definition header whose line, word for word, stands once in the file. */
export function uniqueHeader(snip: readonly SnippetLine[], fileLines: readonly string[], s: number): boolean {
  const text = (snip[s] as SnippetLine).text;
  const header = readHeader(text);
  if (!header) return false;
  const key = lineKey(text);
  let n = 0;
  // Read only on the way to a refusal (a line out of order), and only the lines naming the definition.
  for (const line of fileLines) if (line.includes(header.name) && lineKey(line) === key && ++n > 1) return false;
  return n === 1;
}
