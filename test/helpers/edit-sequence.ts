/**
 * Edits made to a text one after the other, as a file's edits of one call
 * are: each `[x, y, text]` replaces [min(x, y), max(x, y)) of the text the
 * ones before gave (offsets clamped to it). Returns the final text and the
 * changes of the first text kept meanwhile (text/change-list.ts).
 */
import assert from "node:assert/strict";
import { withChange } from "../../src/text/change-list.ts";
import type { TextChange } from "../../src/text/common-ends.ts";

export function makeEdits(a: string, edits: readonly (readonly [number, number, string])[]): { b: string; changes: TextChange[] } {
  let b = a;
  let changes: TextChange[] = [];
  for (const [x, y, inserted] of edits) {
    const start = Math.min(x, y, b.length);
    const end = Math.min(Math.max(x, y), b.length);
    changes = withChange(a, changes, { start, end, text: inserted }) ?? assert.fail("under MAX_CHANGES");
    b = b.slice(0, start) + inserted + b.slice(end);
  }
  return { b, changes };
}
