/**
 * The walk over the snippet's runs of code (between markers) of which no
 * line is aligned yet, and the aligned lines around such a run: shared by
 * the passes that place what the exact alignment left (align.ts,
 * block-anchors.ts, closing-lines.ts). `out` holds the file line of each
 * snippet line, -1 when none.
 */
import type { SnippetLine } from "./markers.ts";

/** Calls `fn(s, e)` for each run [s, e) of snippet code lines between markers of which no line is aligned yet (`fn` may align some). */
export function forEachUnplacedSegment(snip: readonly SnippetLine[], out: Int32Array, fn: (s: number, e: number) => void): void {
  const n = snip.length;
  for (let s = 0; s < n; s++) {
    if (snip[s]?.kind !== "code") continue;
    let e = s;
    while (e < n && snip[e]?.kind === "code") e++;
    let any = false;
    for (let k = s; k < e && !any; k++) any = (out[k] as number) >= 0;
    if (!any) fn(s, e);
    s = e;
  }
}

/** The file line after the last aligned snippet line before snippet line `s` (0 when none). */
export function alignedBefore(out: Int32Array, s: number): number {
  for (let k = s - 1; k >= 0; k--) if ((out[k] as number) >= 0) return (out[k] as number) + 1;
  return 0;
}

/** The file line of the first aligned snippet line from snippet line `e` on (`fileLength` when none). */
export function alignedAfter(out: Int32Array, e: number, fileLength: number): number {
  for (let k = e; k < out.length; k++) if ((out[k] as number) >= 0) return out[k] as number;
  return fileLength;
}
