/**
 * Refusals of positive cases by kind: the engine's refusal messages read
 * back into a short name each (the check that refused), so bench:lazy can
 * print where its refusals come from, by style and by language.
 */

const KINDS: readonly [string, RegExp][] = [
  ["out-of-order", /out of the order of the lines around it/],
  ["mixed-indent", /indented by different amounts/],
  ["many-places", /stand in \d+ places of the file/],
  ["new-between-markers", /are new, and stand between two markers/],
  ["lone-anchor-depth", /is the only line that places the lines around it/],
  ["none-found", /None of the snippet's code is in the file/],
  ["marker-edge", /but fits none of them between the code around it/],
  ["cross-block", /the start of another block/],
  ["unmarked-deletion", /that no marker keeps/],
  ["balance", /The merged file would have \d+ more/],
  ["syntax", /would have a syntax error the file did not have/],
  ["definition-twice", /is defined \d+ times in the file/],
  ["looks-changed-at-end", /just (?:before|after) where the snippet starts/],
  ["looks-changed-by-kept", /which the marker next to it keeps/],
  ["removal-no-end", /The removal note at snippet line/],
  ["parts-out-of-order", /already covers: the snippet's parts are out of the file's order/],
  ["already-applied", /^already applied/],
  ["no-code", /The snippet has no code between its markers/],
  ["rename-clash", /renaming it, but the file already has/],
  ["repeated-context", /and the code the snippet deletes (?:after|before) them starts/],
  ["twin-block", /the snippet may change either block/],
  ["changed-line-twice", /reads as a change of \d+ of its lines/],
];

/** The refusal's kind, or "other" for a message no kind above names. */
export function refusalKind(message: string): string {
  for (const [kind, re] of KINDS) if (re.test(message)) return kind;
  return "other";
}

/** A table of counts: one row per kind (most first), its "all" count, then one column per group. */
export function kindTable(counts: ReadonlyMap<string, ReadonlyMap<string, number>>, groups: readonly string[]): string {
  const total = (m: ReadonlyMap<string, number>) => m.get("all") ?? 0;
  const rows = [...counts].sort((a, b) => total(b[1]) - total(a[1]));
  const width = groups.map((g) => Math.max(g.length, 5) + 1);
  const head = `${"".padEnd(24)}${"all".padStart(6)}${groups.map((g, k) => g.padStart(width[k] as number)).join("")}`;
  const body = rows.map(([kind, m]) => `${kind.padEnd(24)}${String(total(m)).padStart(6)}${groups.map((g, k) => String(m.get(g) ?? 0).padStart(width[k] as number)).join("")}`);
  return [head, ...body].join("\n");
}
