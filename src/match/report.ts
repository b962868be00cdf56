/**
 * Error messages of the matcher, written for the model that sent the edit:
 * where the candidates or the closest text are (1-based line numbers), how
 * they differ, and what to send next.
 */
import type { AmbiguitySituation, Vocabulary } from "./vocabulary.ts";
import { capitalize } from "./vocabulary.ts";
import { EditError } from "../errors.ts";
import type { Document } from "../text/document.ts";
import { diffLinesBounded } from "../text/line-diff.ts";
import { closestRegion } from "./fuzzy-block.ts";
import type { Candidate, MatchContext, Query, StrategyName } from "./types.ts";

/** Candidates listed by line in an AMBIGUOUS message; the rest are counted ("and N more"). */
const MAX_LISTED = 20;
const MAX_DIFF_LINES = 8;
/** Below this the closest region is mentioned, not shown: it would mislead more than help. */
const SHOW_CLOSEST = 0.5;

const clip = (s: string, max = 100) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const pct = (x: number) => `${Math.floor(x * 100)}%`;

function numbered(doc: Document, from: number, to: number): string {
  const width = String(to).length;
  return doc
    .lines(from, to)
    .map((l, k) => `${String(from + k + 1).padStart(width)} | ${clip(l, 160)}`)
    .join("\n");
}

/** Where a candidate is: the nearest non-blank line above it, or the file's start. */
function describePlace(doc: Document, c: Candidate): string {
  const where = c.endLine > c.startLine ? `lines ${c.startLine + 1}-${c.endLine}` : `line ${c.startLine + 1}`;
  if (c.startLine === 0) return `- ${where} (at the start of the file)`;
  for (let l = c.startLine - 1; l >= Math.max(0, c.startLine - 20); l--) {
    const above = doc.line(l).trim();
    if (above !== "") return `- ${where} (${l === c.startLine - 1 ? "the line above" : `line ${l + 1}, above it,`} is \`${clip(above, 60)}\`)`;
  }
  return `- ${where} (after blank lines)`;
}

/** How far above or below a place to look for a line that tells it from the others. */
const TELL_APART = 20;

/**
 * Where a candidate is, told apart from the other candidates: the nearest
 * non-blank line above it (else below it) whose text differs from the line
 * at the same distance from every other place. Two places with the same line
 * above them were described identically ("the line above is `}`" twice),
 * which told the model nothing it could add.
 */
function distinctPlace(doc: Document, c: Candidate, others: readonly Candidate[]): string | undefined {
  const where = c.endLine > c.startLine ? `lines ${c.startLine + 1}-${c.endLine}` : `line ${c.startLine + 1}`;
  const lineAt = (l: number) => (l >= 0 && doc.hasLine(l) ? doc.line(l).trim() : undefined);
  // The start of the file tells a place apart by itself (describePlace says so).
  if (c.startLine === 0) return undefined;
  for (let k = 1; k <= TELL_APART; k++) {
    const above = lineAt(c.startLine - k);
    if (above && others.every((d) => lineAt(d.startLine - k) !== above)) {
      return `- ${where} (${k === 1 ? "the line above" : `line ${c.startLine - k + 1}, above it,`} is \`${clip(above, 60)}\`)`;
    }
  }
  for (let k = 1; k <= TELL_APART; k++) {
    const below = lineAt(c.endLine - 1 + k);
    if (below && others.every((d) => lineAt(d.endLine - 1 + k) !== below)) {
      return `- ${where} (${k === 1 ? "the line below" : `line ${c.endLine + k}, below it,`} is \`${clip(below, 60)}\`)`;
    }
  }
  return undefined;
}

export function ambiguityError(
  doc: Document,
  strategy: StrategyName,
  cands: readonly Candidate[],
  vocab: Vocabulary,
  situation: Omit<AmbiguitySituation, "farApart" | "sameText"> & {
    /** The search stopped once ambiguity was certain (engine/place-cap.ts): there are more places than `cands`. */
    more?: boolean;
  },
): EditError {
  const shown = cands.slice(0, MAX_LISTED);
  const listed = shown.map((c) => distinctPlace(doc, c, shown.filter((d) => d !== c)) ?? describePlace(doc, c));
  if (cands.length > MAX_LISTED) listed.push(`- and ${cands.length - MAX_LISTED} more`);
  const how = strategy === "exact" ? "exactly" : `with the ${strategy} strategy`;
  const starts = cands.map((c) => c.startLine).sort((a, b) => a - b);
  const farApart = starts.every((st, k) => k === 0 || st - (starts[k - 1] ?? 0) >= 2 * situation.hintWindow);
  // Replacing every place helps only when the places hold the same text (not a rival reading).
  const sameText = cands.every((c) => c.strategy === strategy);
  const message = [
    `${capitalize(vocab.find)} matches ${situation.more ? `more than ${cands.length}` : cands.length} places in the file ${how}:`,
    ...listed,
    `${vocab.moreContext} (a line above or below that differs between these places) so that it matches exactly one place${vocab.disambiguate({ ...situation, farApart, sameText })}`,
  ].join("\n");
  return new EditError("AMBIGUOUS", message, {
    strategies: [strategy],
    candidates: cands.map((c) => ({
      startLine: c.startLine + 1,
      endLine: c.endLine,
      strategy: c.strategy,
      score: c.score,
    })),
  });
}

/** Side by side: the query lines that differ from the region's, with file line numbers. */
function differingLines(doc: Document, q: Query, start: number, size: number): string[] {
  const region = doc.lines(start, start + size);
  const parts = diffLinesBounded(
    region.map((l) => l.trim()),
    q.lines.map((l) => l.trim()),
  );
  const out: string[] = [];
  let fileLine = start;
  for (let p = 0; p < parts.length && out.length < MAX_DIFF_LINES; p++) {
    const part = parts[p];
    if (!part) continue;
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      fileLine += count;
      continue;
    }
    if (part.removed) {
      part.value.forEach((v, k) => {
        out.push(`  file line ${fileLine + k + 1}: ${clip(v)}`);
      });
      fileLine += count;
    } else {
      for (const v of part.value) out.push(`  your text:   ${clip(v)}`);
    }
  }
  return out.slice(0, MAX_DIFF_LINES);
}

/** Why the search may have missed the place: it stopped at a cap (see anchors.ts). */
function capText(ctx: MatchContext, q: Query, vocab: Vocabulary): string {
  const caps = ctx.capsFor(q);
  if (caps.length === 0) return "";
  const parts = caps.map((c) => `${c.what === "windows" ? "line windows" : `${c.what} blocks`}: ${c.examined} of ${c.total}`);
  return ` The search stopped early because the file has too many places where the text's lines could fit (compared ${parts.join("; ")}); make ${vocab.find} start and end with lines that occur rarely in the file.`;
}

export function notFoundError(ctx: MatchContext, q: Query, tried: readonly StrategyName[], vocab: Vocabulary): EditError {
  const head = `${capitalize(vocab.find)} was not found in the file.`;
  const triedText = `Tried ${tried.length} strategies: ${tried.join(", ")}.${capText(ctx, q, vocab)}`;
  const closest = ctx.doc.text !== "" && q.text.trim() !== "" ? closestRegion(ctx, q) : undefined;
  if (!closest || closest.score < SHOW_CLOSEST) {
    const hint = closest
      ? `The most similar text, lines ${closest.start + 1}-${closest.start + closest.size}, is only ${pct(closest.score)} similar.`
      : "No line of it occurs in the file.";
    return new EditError(
      "NOT_FOUND",
      [
        head,
        triedText,
        hint,
        `Read the file again and copy ${vocab.find} exactly as it is there (including indentation), or check that this is the right file.`,
      ].join("\n"),
      { strategies: [...tried] },
    );
  }
  const { doc } = ctx;
  const from = Math.max(0, closest.start - 2);
  let to = closest.start + closest.size + 2;
  while (to > 0 && !doc.hasLine(to - 1)) to--;
  const text = doc.lines(closest.start, closest.start + closest.size).join("\n");
  const message = [
    head,
    triedText,
    `The closest text is lines ${closest.start + 1}-${closest.start + closest.size} (${pct(closest.score)} similar). Lines that differ:`,
    ...differingLines(doc, q, closest.start, closest.size),
    `Lines ${from + 1}-${to} of the file:`,
    numbered(doc, from, to),
    `If that is the place, send the edit again with ${vocab.find} copied exactly from these lines.`,
  ].join("\n");
  return new EditError("NOT_FOUND", message, {
    strategies: [...tried],
    closest: {
      startLine: closest.start + 1,
      endLine: closest.start + closest.size,
      similarity: closest.score,
      text,
    },
  });
}
