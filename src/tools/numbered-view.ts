/**
 * The `read_file` view: a header with the file's sha256, then one line per
 * file line as `N→text`. The arrow form is one the engine strips
 * (`src/text/line-numbers.ts`): what follows `→` is the line exactly, so a
 * model that copies lines with their numbers into an edit still matches.
 * With `anchors`, each line is `N#TAG:text` instead (src/text/line-tags.ts),
 * the tags an `edit_lines` call cites.
 */

import { EditError } from "../errors.ts";
import type { FileCache } from "../fs/file-cache.ts";
import { loadTextFile } from "../fs/read-file.ts";
import { ScratchHold } from "../fs/scratch.ts";
import { resolveRoot, resolveSafePath } from "../fs/safe-path.ts";
import { hasCrLines } from "../text/cr-lines.ts";
import { lineTag } from "../text/line-tags.ts";

const readFileCall = (offset: number): string => `call read_file with offset ${offset}`;

export interface NumberedViewOptions {
  /**
   * First line shown, 1-based.
   * @default 1
   */
  offset?: number;
  /**
   * Most lines shown.
   * @default 2000
   */
  limit?: number;
  /**
   * Largest file read, in bytes.
   * @default 10485760
   */
  maxFileBytes?: number;
  /**
   * How the header names the file.
   * @default the path relative to the root
   */
  display?: (rel: string) => string;
  /**
   * How the note under a partial view says to read on from line `offset`
   * (a tool call for a model, a command for the CLI's user).
   * @default `call read_file with offset ${offset}`
   */
  readOn?: (offset: number) => string;
  /**
   * Most characters of file text in one view; later lines are left for the
   * next page (a minified file would otherwise fill the model's context).
   * @default 100000
   */
  maxChars?: number;
  /**
   * Told the file's real path, text and sha256 when it is read (the tools
   * keep the versions a model saw).
   * @default undefined
   */
  seen?: (abs: string, hash: string, text: string) => void;
  /**
   * Tag each line with a short hash of its content (`12#qxm:text`) for
   * anchored edits (`edit_lines`). Numbers are not padded: a tag is cited
   * as written.
   * @default false
   */
  anchors?: boolean;
  /**
   * Told what the view shows (the read tool's structured result).
   * @default undefined
   */
  shown?: (view: { path: string; sha256: string; startLine: number; endLine: number; totalLines: number }) => void;
  /**
   * Where decoded files are kept between calls (see fs/file-cache.ts): a
   * file read here and then edited is decoded once.
   * @default undefined
   */
  cache?: FileCache;
}

export const DEFAULT_READ_LIMIT = 2000;
const DEFAULT_MAX_CHARS = 100_000;

/** Reads `rel` under `root` and renders the numbered view. Throws `EditError`. */
export async function renderNumberedView(root: string, rel: string, options: NumberedViewOptions = {}): Promise<string> {
  const offset = options.offset ?? 1;
  const limit = options.limit ?? DEFAULT_READ_LIMIT;
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const safe = await resolveSafePath(await resolveRoot(root), rel);
  // The bytes are read into a reused buffer (fs/scratch.ts), given back once their hash is known: only the text is shown.
  const hold = new ScratchHold();
  const loaded = await loadTextFile(safe.abs, safe.rel, {
    ...(options.maxFileBytes !== undefined && { maxBytes: options.maxFileBytes }),
    ...(options.cache !== undefined && { cache: options.cache }),
    hold,
  });
  const hash = loaded.hash;
  hold.release();
  if (!loaded.exists) {
    throw new EditError("NOT_FOUND", `${safe.rel} does not exist. Check the path; to make a new file, use create_file.`, { path: safe.rel });
  }
  options.seen?.(safe.abs, hash, loaded.text);
  // A file of CR-terminated lines is shown as its lines, as the engine reads it.
  const lines = (hasCrLines(loaded.text) ? loaded.text.replaceAll("\r", "\n") : loaded.text).split("\n");
  // A final newline ends the last line; it does not start another one.
  if (lines.at(-1) === "") lines.pop();
  const total = lines.length;
  const name = options.display ? options.display(safe.rel) : safe.rel;
  const header = (shown: string) => `${name} (${shown}, sha256 ${hash})`;
  if (total === 0) {
    options.shown?.({ path: name, sha256: hash, startLine: 1, endLine: 0, totalLines: 0 });
    return `${header("empty file")}\n`;
  }
  if (offset > total) {
    throw new EditError("INVALID_INPUT", `offset ${offset} is past the end of ${safe.rel}, which has ${total} line${total === 1 ? "" : "s"}.`, {
      path: safe.rel,
    });
  }
  const last = Math.min(total, offset + limit - 1);
  const width = String(last).length;
  const body: string[] = [];
  let chars = 0;
  let end = offset - 1;
  for (let n = offset; n <= last; n++) {
    // A mixed-ending file keeps its CRs in the text; they are not part of what the model should copy.
    const full = (lines[n - 1] as string).replace(/\r$/, "");
    let line = full;
    // Never a cut line: a model would copy the cut text into an edit and
    // drop the rest of the line with it.
    if (line.length > maxChars) line = `[not shown: this line is ${line.length} characters long, over the view limit of ${maxChars}]`;
    if (body.length > 0 && chars + line.length > maxChars) break;
    body.push(options.anchors ? `${n}#${lineTag(full)}:${line}` : `${String(n).padStart(width)}→${line}`);
    chars += line.length;
    end = n;
  }
  options.shown?.({ path: name, sha256: hash, startLine: offset, endLine: end, totalLines: total });
  const shown = offset === 1 && end === total ? `${total} line${total === 1 ? "" : "s"}` : `lines ${offset}-${end} of ${total}`;
  const more = end < total ? `(${total - end} more line${total - end === 1 ? "" : "s"}: ${(options.readOn ?? readFileCall)(end + 1)} to read on.)\n` : "";
  return `${header(shown)}\n${body.join("\n")}\n${more}`;
}
