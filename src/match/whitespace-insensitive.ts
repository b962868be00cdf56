/**
 * WhitespaceInsensitive (fuzzpatch): lines equal once all whitespace is
 * removed. Models add or drop spaces inside lines: `foo(a,b)` written as
 * `foo( a, b )`, `x=1` as `x = 1`. Whole lines only, never a span, so the
 * rest of each line must agree too.
 */
import { removeWhitespace } from "../text/normalize.ts";
import { lineCandidate, noLineWiseWindow, windowsByWord } from "./anchors.ts";
import type { Strategy } from "./types.ts";

export const whitespaceInsensitive: Strategy = {
  name: "whitespace-insensitive",
  exact: true,
  find(ctx, q) {
    if (noLineWiseWindow(ctx, q)) return [];
    const keys = q.lines.map(removeWhitespace);
    if (keys.every((k) => k === "")) return [];
    return windowsByWord(ctx, q, { of: removeWhitespace, keys }).map((s) =>
      lineCandidate(ctx, q, s, q.lines.length, "whitespace-insensitive", 1),
    );
  },
};
