/** 9. MultiOccurrence: every non-overlapping exact occurrence, for replaceAll. */
import { rangeCandidate } from "./anchors.ts";
import type { Candidate, Strategy } from "./types.ts";

export const multiOccurrence: Strategy = {
  name: "multi-occurrence",
  exact: true,
  find(ctx, q) {
    const out: Candidate[] = [];
    let next = 0;
    for (const at of ctx.occurrences(q.text)) {
      if (at < next) continue;
      out.push(rangeCandidate(ctx, q, at, at + q.text.length, "multi-occurrence", 1));
      next = at + q.text.length;
    }
    return out;
  },
};
