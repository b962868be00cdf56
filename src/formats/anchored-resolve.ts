/**
 * Where a tag of the anchored view is in the file now. The tags of one call
 * name lines of the version the model read; the file may have moved since
 * (the model's own earlier edit, another writer). The rules, strictest
 * first, and never a guess:
 *
 * 1. The version read is known (the tools keep what they served: a version
 *    in which every tag of the call stands at its number): its lines are
 *    mapped onto the current file by a line diff. A tagged line that the
 *    diff keeps is found; one it changed or removed is STALE; one beside an
 *    added copy of itself cannot be told from the copy: STALE.
 * 2. Otherwise, a tag whose number and hash agree with the current file
 *    applies as is.
 * 3. Otherwise the line with that tag nearest the number, if it is the only
 *    one within RELOCATE_WINDOW lines (lines were inserted or deleted above)
 *    and the line now at the number does not look like the tagged line
 *    edited (then the hit may be a copy of it: a `}`, a repeated call).
 * 4. Otherwise STALE, with the current lines of the region and their fresh
 *    tags in the message, so the model can retry in one call.
 *
 * A number without a tag (or with another dialect's tag, which cannot be
 * checked) is checked against the content the ref quotes; without one it
 * is refused as unverified. Ranges (anchored-apply.ts) add: both ends must
 * move together and, with the version read, nothing inside may have changed.
 */
import { EditError } from "../errors.ts";
import { diffLinesBounded } from "../text/line-diff.ts";
import { lineTag, taggedLine, tagText } from "../text/line-tags.ts";
import { similarity } from "../text/similarity.ts";
import type { TagRef } from "./anchored-parse.ts";

/**
 * Lines searched on each side of a tag's number for the line that moved.
 * 0.30% of real lines have a look-alike (same tag, other content) within 32
 * lines, 0.72% within 100 (bench/anchor-tags.ts): a wider window finds
 * longer moves but risks more look-alikes when the tagged line itself
 * changed. Moves beyond it are found through the version read, if known.
 */
export const RELOCATE_WINDOW = 32;

/** How a ref was found: its report strategy. */
export type TagFound = "anchor" | "anchor-moved" | "anchor-history" | "line-checked";

/** The lines of one text, with their tags computed once. */
export class TaggedLines {
  readonly lines: readonly string[];
  private tags: (string | undefined)[];

  constructor(lines: readonly string[]) {
    this.lines = lines;
    this.tags = new Array(lines.length);
  }

  tagAt(index: number): string {
    let tag = this.tags[index];
    if (tag === undefined) {
      tag = lineTag(this.lines[index] ?? "");
      this.tags[index] = tag;
    }
    return tag;
  }

  /** The 1-based line `line` has tag `hash`. */
  agrees(line: number, hash: string): boolean {
    return line >= 1 && line <= this.lines.length && this.tagAt(line - 1) === hash;
  }
}

/** A line diff's map from the version read onto the current file: index in the version -> index now, or -1 (changed or removed). */
export interface VersionMap {
  version: TaggedLines;
  map: Int32Array;
  /** Current lines no version line maps to (added since). */
  added: Uint8Array;
}

export function mapVersion(version: TaggedLines, current: TaggedLines): VersionMap {
  const map = new Int32Array(version.lines.length).fill(-1);
  const added = new Uint8Array(current.lines.length).fill(1);
  let i = 0;
  let j = 0;
  // Lines compared as tagged: trailing whitespace is not part of a line's identity.
  for (const part of diffLinesBounded(version.lines, current.lines, tagText)) {
    const count = part.count ?? part.value.length;
    if (part.removed) i += count;
    else if (part.added) j += count;
    else {
      for (let n = 0; n < count; n++) {
        map[i] = j;
        added[j] = 0;
        i++;
        j++;
      }
    }
  }
  return { version, map, added };
}

export type Resolved = { line: number; found: TagFound } | { error: EditError };

/** The fresh view of lines `first`..`last` (1-based, clamped): what a STALE message shows. */
export function freshLines(current: TaggedLines, first: number, last: number): string {
  const a = Math.max(1, first);
  const b = Math.min(current.lines.length, last);
  if (b < a) return "(the file has no lines there)";
  const out: string[] = [];
  for (let n = a; n <= b; n++) out.push(taggedLine(n, (current.lines[n - 1] as string).replace(/\r$/, "")));
  return out.join("\n");
}

/** Context lines shown on each side of a stale line. */
const SHOWN = 3;

export interface ResolveContext {
  current: TaggedLines;
  path: string;
  /** The version read mapped onto the current file, when known. */
  read?: VersionMap;
  /** "Edit 2 (from)": names the ref in messages. */
  label: string;
}

function stale(ctx: ResolveContext, ref: TagRef, why: string, near: number): EditError {
  // A number past the end (lines deleted since) shows the end of the file.
  const around = Math.max(1, Math.min(near, ctx.current.lines.length));
  const first = around - SHOWN;
  const last = around + SHOWN;
  const a = Math.max(1, first);
  const b = Math.min(ctx.current.lines.length, last);
  return new EditError(
    "STALE",
    `${ctx.label}: ${ref.raw.trim()} ${why}\nLines ${a}-${b} of ${ctx.path} now read:\n${freshLines(ctx.current, first, last)}\nSend the edit again with these tags.`,
    { path: ctx.path, line: ref.line, startLine: a, endLine: b },
  );
}

/** Where `ref` is in the current file (see the module comment for the rules). */
export function resolveRef(ref: TagRef, ctx: ResolveContext): Resolved {
  const { current } = ctx;
  const n = current.lines.length;
  if (ref.hash === undefined) return resolveUntagged(ref, ctx);
  if (ctx.read) {
    const i = ref.line - 1;
    const j = ctx.read.map[i] ?? -1;
    if (j < 0) {
      const near = nearestMapped(ctx.read, i);
      return { error: stale(ctx, ref, "names a line that has changed or been removed since you read the file.", near + 1) };
    }
    // A copy of the line added next to it (anywhere in the run of equal lines it stands in): the diff's
    // choice of which copy is new is arbitrary, so which one the model read cannot be told.
    const text = tagText(current.lines[j] as string);
    let lo = j;
    let hi = j;
    while (lo > 0 && tagText(current.lines[lo - 1] as string) === text) lo--;
    while (hi < n - 1 && tagText(current.lines[hi + 1] as string) === text) hi++;
    for (let k = lo; k <= hi; k++) {
      if (ctx.read.added[k] === 1) {
        return { error: stale(ctx, ref, `names a line of which a copy was added next to it since you read the file (lines ${lo + 1}-${hi + 1} are all this line); which one is meant cannot be told.`, j + 1) };
      }
    }
    return { line: j + 1, found: j === i ? "anchor" : "anchor-history" };
  }
  if (current.agrees(ref.line, ref.hash)) return { line: ref.line, found: "anchor" };
  const hits: number[] = [];
  const lo = Math.max(1, ref.line - RELOCATE_WINDOW);
  const hi = Math.min(n, ref.line + RELOCATE_WINDOW);
  for (let m = lo; m <= hi; m++) if (current.tagAt(m - 1) === ref.hash) hits.push(m);
  if (hits.length === 1) {
    const hit = hits[0] as number;
    // The line at the number may be the tagged line, edited, and the hit a copy of it (a `}`, a blank line,
    // a repeated call): then moving the edit to the copy would be wrong. Moved lines leave an unrelated line there.
    if (ref.line <= n && looksEdited(current.lines[ref.line - 1] as string, current.lines[hit - 1] as string)) {
      return {
        error: stale(ctx, ref, `does not match line ${ref.line} any more, which looks like the tagged line edited; line ${hit} has the tag but may be another copy of it.`, ref.line),
      };
    }
    return { line: hit, found: "anchor-moved" };
  }
  if (hits.length > 1) {
    return { error: stale(ctx, ref, `does not match line ${ref.line} any more, and lines ${hits.join(", ")} all have its tag; which one is meant cannot be told.`, ref.line) };
  }
  const why =
    ref.line > n
      ? `is past the end of the file, which has ${n} line${n === 1 ? "" : "s"} now, and no line within ${RELOCATE_WINDOW} lines of it has its tag.`
      : `does not match line ${ref.line} (now tagged ${current.tagAt(ref.line - 1)}), and no line within ${RELOCATE_WINDOW} lines has its tag: the line has changed since you read it.`;
  return { error: stale(ctx, ref, why, Math.min(ref.line, n)) };
}

/** `now` could be `tagged` edited: one holds the other, or most of their characters agree. */
function looksEdited(now: string, tagged: string): boolean {
  const a = now.trim();
  const b = tagged.trim();
  if (a === "" || b === "") return a === b;
  return a.includes(b) || b.includes(a) || similarity(a, b) >= 0.8;
}

/** The current line of the nearest version line kept by the diff, for where to show a changed line's region. */
function nearestMapped(read: VersionMap, i: number): number {
  for (let d = 1; d < read.map.length; d++) {
    const before = read.map[i - d];
    if (before !== undefined && before >= 0) return before + 1;
    const after = read.map[i + d];
    if (after !== undefined && after >= 0) return Math.max(0, after - 1);
  }
  return 0;
}

/** A line number without a checkable tag: checked against the content it quotes, else refused. */
function resolveUntagged(ref: TagRef, ctx: ResolveContext): Resolved {
  const { current } = ctx;
  const n = current.lines.length;
  const what = ref.foreign !== undefined ? `has a tag (${ref.foreign}) that is not one of this view's (three letters, as in 12#${lineTag("example")})` : "has no tag";
  if (ref.line > n) return { error: stale(ctx, ref, `${what}, and the file has only ${n} line${n === 1 ? "" : "s"}.`, n) };
  if (ref.quoted === undefined) {
    return {
      error: new EditError(
        "INVALID_INPUT",
        `${ctx.label}: ${ref.raw.trim()} ${what}, so nothing says it is still the line you mean (unverified). Lines ${Math.max(1, ref.line - SHOWN)}-${Math.min(n, ref.line + SHOWN)} of ${ctx.path} read:\n${freshLines(current, ref.line - SHOWN, ref.line + SHOWN)}\nSend the edit again with these tags.`,
        { path: ctx.path, line: ref.line },
      ),
    };
  }
  const quoted = ref.quoted.trim();
  if (quoted === (current.lines[ref.line - 1] as string).trim()) return { line: ref.line, found: "line-checked" };
  return { error: stale(ctx, ref, `${what}, and the text it quotes is not line ${ref.line} any more.`, ref.line) };
}

/**
 * The version the model read: the newest of `versions` in which every
 * tagged ref stands at its number. Undefined when the current text is that
 * version (and the tags stand in it), or none is.
 */
export function findReadVersion(
  versions: readonly string[],
  current: string,
  refs: readonly TagRef[],
  splitLines: (text: string) => string[],
): { text: string; version: TaggedLines } | undefined {
  const tagged = refs.filter((r) => r.hash !== undefined);
  if (tagged.length === 0) return undefined;
  for (let k = versions.length - 1; k >= 0; k--) {
    const text = versions[k] as string;
    const version = new TaggedLines(splitLines(text));
    // The model read the file as it is now: no map (an older version in which the tags also stand says nothing more).
    if (text === current && tagged.every((r) => version.agrees(r.line, r.hash as string))) return undefined;
    if (text === current) continue;
    if (tagged.every((r) => version.agrees(r.line, r.hash as string))) return { text, version };
  }
  return undefined;
}
