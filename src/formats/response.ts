/**
 * Splits a model's response into per-file edits, by format.
 *
 *   response := (prose | fence | edits of a registered format)*
 *   fence    := OPEN info? NL body CLOSE     ``` or ~~~ (3+), closed by the same run or longer
 *
 * Each format in the registry (formats/index.ts) takes its edits from the
 * lines the formats before it left. Everything no format takes is prose.
 * A response (or a whole input) that a model over-escaped into one line is
 * un-escaped first, the same way for every format.
 */
import { EditError } from "../errors.ts";
import { closesFence, readFenceOpener } from "../text/fence.ts";
import { unescapeWholeText } from "../text/unescape-whole.ts";
import { FORMATS, formatNames, type ResponseFormat } from "./index.ts";
import { collectJsonEdits, parseJsonOrLines } from "./json-edits.ts";
import type { StructuredEdit } from "./str-replace-format.ts";
import type { Fence, FileEdit, SplitResult } from "./types.ts";
import { noEditsError } from "./unknown-input.ts";

export interface DetectedEdits {
  edits: FileEdit[];
  /** Parts of the input that could not be read (PARSE errors). */
  errors: EditError[];
  /** The response had no real line breaks and was un-escaped. */
  unescaped?: boolean;
}

export function findFences(lines: readonly string[]): Fence[] {
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = readFenceOpener(lines[i] as string);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !closesFence(lines[j] as string, open.marker)) j++;
    fences.push({ info: open.info.toLowerCase(), open: i, close: j, body: lines.slice(i + 1, j).join("\n") });
    i = j;
  }
  return fences;
}

function unknownFormat(format: string): EditError {
  return new EditError("INVALID_INPUT", `Unknown format "${format}". Use "auto" or one of: ${formatNames().join(", ")}.`);
}

export interface DetectOptions {
  /** Path of SEARCH/REPLACE blocks and diffs that name no file (`--target`); with it, bare `@@` hunks are edits too. @default undefined */
  defaultPath?: string;
}

/** Detects the edits in a model's response. Never throws for bad input: unreadable parts become PARSE errors. */
export function detectEdits(input: string, format: ResponseFormat = "auto", options: DetectOptions = {}): DetectedEdits {
  const out: DetectedEdits = { edits: [], errors: [] };
  if (format !== "auto" && !FORMATS.some((f) => f.name === format)) {
    out.errors.push(unknownFormat(format));
    return out;
  }
  const normalized = input.replace(/\r\n/g, "\n");
  const trimmed = normalized.trim();
  // A whole input that is JSON is structured edits (piped from a program).
  // Checked before un-escaping: JSON on one line holds `\n` in its strings.
  let jsonError: EditError | undefined;
  const braced = trimmed.startsWith("{") || trimmed.startsWith("[");
  // Model-written JSON may open with a comment ("// the fix").
  if ((format === "auto" || format === "str-replace" || format === "anchored") && (braced || /^\/[/*]/.test(trimmed))) {
    const parsed = parseJsonOrLines(trimmed);
    if (parsed.ok && (braced || (typeof parsed.value === "object" && parsed.value !== null))) {
      collectJsonEdits(parsed.value, 1, out, true);
      return out;
    }
    // Said only if no format finds edits in it as text (a response may open with a brace).
    if (!parsed.ok && braced) {
      jsonError = new EditError("PARSE", `The input starts like JSON but is not valid JSON: ${parsed.error}. Escape newlines in strings as \\n and quotes as \\".`, {
        line: parsed.line,
      });
    }
  }
  const whole = unescapeWholeText(normalized);
  if (whole.unescaped) out.unescaped = true;
  const text = whole.text;
  const lines = text.split("\n");
  const crlfLines = whole.unescaped ? undefined : crlfLinesOf(input);
  const response = { lines, fences: findFences(lines), consumed: new Set<number>(), defaultPath: options.defaultPath, format, ...(crlfLines && { crlfLines }) };
  for (const f of FORMATS) {
    if (format !== "auto" && format !== f.name) continue;
    if (format === "auto" && f.lastResort && (out.edits.length > 0 || out.errors.length > 0)) continue;
    const found: SplitResult = f.split(response);
    for (const e of found.edits) out.edits.push(e);
    for (const e of found.errors) out.errors.push(e);
  }
  if (out.edits.length === 0 && out.errors.length === 0) out.errors.push(jsonError ?? noEditsError(text, response.fences));
  // Edits to one file apply in the order the response gives them, whatever
  // their format; the sort is stable for edits without a known line.
  out.edits.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return out;
}

/** The lines of `input` that end in CRLF, by index; undefined when none does. */
function crlfLinesOf(input: string): Set<number> | undefined {
  if (!input.includes("\r\n")) return undefined;
  const out = new Set<number>();
  let line = 0;
  for (let i = input.indexOf("\n"); i !== -1; i = input.indexOf("\n", i + 1)) {
    if (input.charCodeAt(i - 1) === 13) out.add(line);
    line++;
  }
  return out;
}

/** Turns structured edits into file edits (no text detection involved). */
export function fromStructuredEdits(edits: readonly StructuredEdit[]): DetectedEdits {
  const out: DetectedEdits = { edits: [], errors: [] };
  collectJsonEdits(edits, undefined, out, true);
  return out;
}
