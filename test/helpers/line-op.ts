/** An engine op of one reading, `find` lines replaced by `replace` lines, with no hints: what the replacement-place tests ask about. */
import type { EditOp } from "../../src/engine/ops.ts";

export function lineOp(find: readonly string[], replace: readonly string[]): EditOp {
  return {
    readings: [{ find: find.join("\n"), replace: replace.join("\n"), lines: { find: [...find], replace: [...replace] } }],
    hints: {},
    origin: { index: 0, line: 1, label: "" },
    overlap: "conflict",
    requireChange: false,
  };
}
