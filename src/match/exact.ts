/** 1. Exact: the find text as a substring, every occurrence (overlapping ones too, so "aa" in "aaa" is ambiguous). */
import { rangeCandidate } from "./anchors.ts";
import type { Candidate, Strategy } from "./types.ts";

export const exact: Strategy = {
  name: "exact",
  exact: true,
  find(ctx, q) {
    const out: Candidate[] = [];
    for (const at of ctx.occurrences(q.text)) {
      out.push(rangeCandidate(ctx, q, at, at + q.text.length, "exact", 1));
    }
    return out;
  },
};
