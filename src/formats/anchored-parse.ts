/**
 * Parser for anchored edits: edits that name lines by the tags of the
 * anchored read view (`12#qxm:    return x;`, src/text/line-tags.ts) and
 * give only the new text.
 *
 * Grammar (JSON; the `edit_lines` tool's arguments, or a JSON edit):
 *
 *   call    := { "path": string, "edits": edit[] }
 *   edit    := { "op": "replace", "from": ref, "to"?: ref, "lines": lines }
 *            | { "op": "insert_after" | "insert_before", "at": ref, "lines": lines }
 *            | { "op": "delete", "from": ref, "to"?: ref }
 *   ref     := LINE "#" TAG [ ":" content ]        this view's tag: 12#qxm
 *   lines   := string[]                            one string per line, no line breaks
 *
 *   `from`..`to` is inclusive; `to` absent means the one line `from`. Every
 *   ref names a line of the version the model read; the edits of one call
 *   are placed together on that version and applied bottom-up, all or none
 *   (anchored-apply.ts). A replace with `lines: []` deletes.
 *
 * Leniencies, each for a model habit:
 * 1. Tags pasted into `lines` (`"12#qxm:    return x;"`): a model copies
 *    view lines whole. Stripped when every non-blank line carries one, or
 *    when the tag is the tag of the rest of the line.
 * 2. A ref without its tag (`12`, `"12"`): the model wrote a line number.
 *    Read as a plain line number, which must be checked: against the
 *    content the ref quotes (`"12:    return x;"`, `"12→    return x;"`)
 *    if any; without it the edit is refused as unverified (anchored-apply).
 * 3. Other dialects of tags: `12:a3|` and `12:a3` (hex after a colon),
 *    `12#QXRW|` (capitals, four letters, a bar): read; a tag of this view's
 *    form (three letters) in any case is checked, one of another form
 *    (hex, other length) cannot be and counts as a plain line number.
 * 4. The shapes of other hashline tools (json-edits.ts finds them):
 *    `{ op: "append" | "prepend", pos?, end?, lines }` (after / before `pos`,
 *    at the end / start of the file without one), `replace` with `pos`/`end`
 *    and `lines: null` to delete; `{ set_line: { anchor, new_text } }`,
 *    `{ replace_lines: { start_anchor, end_anchor, new_text } }`,
 *    `{ insert_after: { anchor, text } }`; and `{ type: "set_line", line,
 *    text }` with `start_line`/`end_line`. Models trained on those tools
 *    send their shapes to ours.
 * 5. `lines` as one string with line breaks (a trailing one ends the last
 *    line), a string holding `\n` inside an array, CRLF breaks.
 *
 * Strictness: an unknown op, a ref that is not a line reference, a replace
 * or insert without lines, a range whose end is above its start: PARSE,
 * naming the edit (1-based) and the field.
 */
import { EditError } from "../errors.ts";
import { lineTag, TAG_ALPHABET, TAG_LENGTH } from "../text/line-tags.ts";

/** One line edit as a caller writes it: the `edit_lines` tool's shape. Refs are tags of the anchored view ("12#qxm"). */
export type LineEdit =
  | { op: "replace"; from: string; to?: string; lines: readonly string[] }
  | { op: "insert_after" | "insert_before"; at: string; lines: readonly string[] }
  | { op: "delete"; from: string; to?: string };

export interface TagRef {
  /** 1-based line number as cited. */
  line: number;
  /** The tag, lower-cased, when it has this view's form. */
  hash?: string;
  /** A tag of another dialect (hex, other length): read, not checkable. */
  foreign?: string;
  /** Content the ref quotes after its number or tag, to check a ref with no tag. */
  quoted?: string;
  /** The ref as written, for messages. */
  raw: string;
}

/** Where an insertion goes: after/before a line, or at an end of the file (peers' append/prepend without an anchor). */
export type InsertPoint = TagRef | "start" | "end";

/** Replace lines `from`..`to` (`to` absent: the one line) with `lines`; a delete has none. */
export interface RangeOp {
  op: "replace" | "delete";
  from: TagRef;
  to?: TagRef;
  lines: string[];
  /** 0-based place in the call. */
  index: number;
}

export interface InsertOp {
  op: "insert_after" | "insert_before";
  at: InsertPoint;
  lines: string[];
  index: number;
}

export type AnchoredOp = RangeOp | InsertOp;

export function isInsert(op: AnchoredOp): op is InsertOp {
  return op.op === "insert_after" || op.op === "insert_before";
}

export interface AnchoredPayload {
  ops: AnchoredOp[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const OP_NAMES: Record<string, AnchoredOp["op"] | "append" | "prepend"> = {
  replace: "replace",
  set_line: "replace",
  replace_lines: "replace",
  set: "replace",
  insert_after: "insert_after",
  append: "append",
  insert_before: "insert_before",
  prepend: "prepend",
  insert: "insert_after",
  delete: "delete",
  delete_lines: "delete",
  remove: "delete",
};
/** Peer shapes that nest an edit under its op's name: `{ set_line: { anchor, new_text } }`. */
const NESTED = ["set_line", "replace_lines", "insert_after", "insert_before", "delete_lines"];

function opNameOf(item: Obj): string | undefined {
  for (const k of ["op", "type", "operation", "action"]) if (typeof item[k] === "string") return (item[k] as string).toLowerCase().replaceAll("-", "_");
  return undefined;
}

/** Whether a list of edits is anchored (ours or a peer's), not str_replace pairs: the file layer's JSON reader asks. */
export function looksAnchored(edits: unknown): boolean {
  if (!Array.isArray(edits)) return false;
  return edits.some((e) => {
    if (!isObj(e)) return false;
    const name = opNameOf(e);
    if (name !== undefined && Object.hasOwn(OP_NAMES, name) && !Object.hasOwn(e, "old_text") && !Object.hasOwn(e, "oldString") && !Object.hasOwn(e, "old_string"))
      return true;
    return NESTED.some((k) => isObj(e[k]));
  });
}

const TAG_CHARS = /^[A-Za-z0-9]+/;

/** A ref as a TagRef, or what is wrong with it. */
export function parseTagRef(value: unknown): TagRef | string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) return `${JSON.stringify(value)} is not a line number.`;
    return { line: value, raw: String(value) };
  }
  if (typeof value !== "string") return `must be a line tag such as "12#${lineTag("example")}", got ${value === undefined ? "nothing" : JSON.stringify(value)}.`;
  const raw = value;
  const text = value.replace(/^\s+/, "");
  const num = /^\d{1,9}/.exec(text);
  if (!num) return `${JSON.stringify(short(raw))} is not a line tag: write the number and tag the view shows, such as "12#${lineTag("example")}".`;
  const ref: TagRef = { line: Number(num[0]), raw };
  let rest = text.slice(num[0].length);
  if (rest.startsWith("#")) {
    const tag = TAG_CHARS.exec(rest.slice(1));
    if (!tag) return `${JSON.stringify(short(raw))} has "#" and no tag after it.`;
    setHash(ref, tag[0]);
    rest = rest.slice(1 + tag[0].length);
    if (rest === "" || /^\s+$/.test(rest)) return ref;
    // A tag is checked by itself: what follows it (`12#abc|`, a pasted line) is kept only to be shown.
    if (rest[0] === ":" || rest[0] === "|") return rest.length === 1 ? ref : { ...ref, quoted: rest.slice(1) };
    return `${JSON.stringify(short(raw))} is not a line tag: after "${num[0]}#${tag[0]}" comes ${JSON.stringify(short(rest))}.`;
  }
  if (rest === "" || /^\s+$/.test(rest)) return ref;
  if (rest.startsWith("→")) return { ...ref, quoted: rest.slice(1) };
  if (rest.startsWith(":")) {
    const after = rest.slice(1);
    const tag = TAG_CHARS.exec(after);
    // `12:a3|text` and `12:a3`: the colon dialect's tag; anything else after a colon is quoted content (`12:    return x`).
    if (tag && tag[0].length <= 16 && (after.length === tag[0].length || after[tag[0].length] === "|")) {
      setHash(ref, tag[0]);
      return after.length === tag[0].length ? ref : { ...ref, quoted: after.slice(tag[0].length + 1) };
    }
    return { ...ref, quoted: after };
  }
  if (rest.startsWith("|")) return { ...ref, quoted: rest.slice(1) };
  return `${JSON.stringify(short(raw))} is not a line tag: after the number "${num[0]}" comes ${JSON.stringify(short(rest))}.`;
}

function setHash(ref: TagRef, tag: string): void {
  const lower = tag.toLowerCase();
  const ours = lower.length === TAG_LENGTH && [...lower].every((c) => TAG_ALPHABET.includes(c));
  if (ours) ref.hash = lower;
  else ref.foreign = tag;
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A pasted view prefix: `12#qxm:`, `12#QXRW|`, `12:a3|`, `12→`. */
const PASTED = /^(\d{1,9})(?:#([A-Za-z0-9]{1,16})[:|]|:([A-Za-z0-9]{1,16})\||→)/;

/**
 * The new lines as a list, pasted view prefixes stripped (leniency 1):
 * when every non-blank line has one, or one line's tag is the tag of the
 * rest of that line (it was copied, not written).
 */
export function readLines(value: unknown): string[] | string {
  let list: string[];
  if (value === null) list = [];
  else if (typeof value === "string") {
    const text = value.replace(/\r\n/g, "\n");
    list = text === "" ? [] : (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  } else if (Array.isArray(value)) {
    list = [];
    for (const [k, v] of value.entries()) {
      if (typeof v !== "string") return `lines[${k}] is not a string (${JSON.stringify(v)}); send each new line as a string.`;
      for (const part of v.replace(/\r\n/g, "\n").split("\n")) list.push(part);
    }
  } else return `"lines" must be a list of strings, one per new line.`;
  const filled = list.filter((l) => l.trim() !== "");
  const allPasted = filled.length > 0 && filled.every((l) => PASTED.test(l));
  return list.map((l) => {
    const m = PASTED.exec(l);
    if (!m) return l;
    const rest = l.slice(m[0].length);
    const tag = m[2] ?? m[3];
    if (allPasted || (tag !== undefined && tag.toLowerCase() === lineTag(rest))) return rest;
    return l;
  });
}

const FROM_KEYS = ["from", "pos", "start", "anchor", "start_anchor", "line", "start_line", "at"];
const TO_KEYS = ["to", "end", "end_anchor", "end_line"];
const AT_KEYS = ["at", "pos", "anchor", "line", "after", "before"];
const LINES_KEYS = ["lines", "new_lines", "text", "new_text", "newText", "content"];

/** The first of `keys` given. A null ref is not given (OpenAI's strict mode sends every optional field, as null); null lines are (peers' replace with `lines: null` deletes). */
function pick(item: Obj, keys: readonly string[], nullGiven = false): { key: string; value: unknown } | undefined {
  for (const k of keys) if (Object.hasOwn(item, k) && item[k] !== undefined && (nullGiven || item[k] !== null)) return { key: k, value: item[k] };
  return undefined;
}

/** One edit of the list as an op, or what is wrong with it. */
function parseOne(raw: unknown, index: number): AnchoredOp | string {
  if (!isObj(raw)) return "is not an object.";
  let item = raw;
  let name = opNameOf(item);
  if (name === undefined) {
    const nested = NESTED.find((k) => isObj(raw[k]));
    if (nested === undefined) return `has no "op"; use one of "replace", "insert_after", "insert_before", "delete".`;
    name = nested;
    item = raw[nested] as Obj;
  }
  const op = Object.hasOwn(OP_NAMES, name) ? OP_NAMES[name] : undefined;
  if (op === undefined) return `has the unknown op ${JSON.stringify(name)}; use one of "replace", "insert_after", "insert_before", "delete".`;
  if (pick(item, ["old_text", "oldString", "old_string"]) !== undefined) return "replaces text (old_text): send that with edit_file; edit_lines names lines by their tags.";
  const linesField = pick(item, LINES_KEYS, true);
  if (op === "append" || op === "prepend" || op === "insert_after" || op === "insert_before") {
    const kind = op === "append" || op === "insert_after" ? "insert_after" : "insert_before";
    const atField = pick(item, AT_KEYS);
    let at: InsertPoint;
    if (atField === undefined) {
      // Peers' append/prepend without an anchor: the end or the start of the file.
      if (op !== "append" && op !== "prepend") return `(${kind}) needs "at", the tag of the line to insert ${kind === "insert_after" ? "after" : "before"}.`;
      at = op === "append" ? "end" : "start";
    } else {
      const ref = parseTagRef(atField.value);
      if (typeof ref === "string") return `"${atField.key}" ${ref}`;
      // Line 0 is before the first line: `insert_after 0` is the start of the file.
      at = ref.line === 0 && kind === "insert_after" && ref.hash === undefined ? "start" : ref;
      if (at !== "start" && ref.line === 0) return `"${atField.key}" names line 0; lines are numbered from 1.`;
    }
    if (linesField === undefined) return `(${kind}) needs "lines", the new lines.`;
    const lines = readLines(linesField.value);
    if (typeof lines === "string") return lines;
    if (lines.length === 0) return `(${kind}) has no lines to insert.`;
    return { op: kind, at, lines, index };
  }
  const fromField = pick(item, FROM_KEYS);
  if (fromField === undefined) return `(${op}) needs "from", the tag of the first line to ${op}.`;
  const from = parseTagRef(fromField.value);
  if (typeof from === "string") return `"${fromField.key}" ${from}`;
  if (from.line === 0) return `"${fromField.key}" names line 0; lines are numbered from 1.`;
  const toField = pick(item, TO_KEYS);
  let to: TagRef | undefined;
  if (toField !== undefined) {
    const parsed = parseTagRef(toField.value);
    if (typeof parsed === "string") return `"${toField.key}" ${parsed}`;
    if (parsed.line < from.line) return `has "${toField.key}" (line ${parsed.line}) above "${fromField.key}" (line ${from.line}); a range runs down the file.`;
    to = parsed;
  }
  let lines: string[] = [];
  if (op === "replace") {
    if (linesField === undefined) return `(replace) needs "lines", the new lines ([] deletes the lines).`;
    const read = readLines(linesField.value);
    if (typeof read === "string") return read;
    lines = read;
  }
  return { op: lines.length === 0 ? "delete" : op, from, ...(to !== undefined && { to }), lines, index };
}

/** The ops of an `edits` list, or a PARSE error naming every bad edit. */
export function parseAnchoredEdits(edits: unknown): AnchoredPayload | EditError {
  if (!Array.isArray(edits) || edits.length === 0) return new EditError("PARSE", `"edits" must be a non-empty list of line edits.`);
  const ops: AnchoredOp[] = [];
  const problems: string[] = [];
  for (const [k, raw] of edits.entries()) {
    const op = parseOne(raw, k);
    if (typeof op === "string") problems.push(`Edit ${k + 1} ${op}`);
    else ops.push(op);
  }
  if (problems.length > 0) return new EditError("PARSE", problems.join("\n"), { index: Number(/^Edit (\d+)/.exec(problems[0] as string)?.[1] ?? 1) - 1 });
  return { ops };
}
