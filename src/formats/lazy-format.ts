/**
 * Lazy snippets in a response: a file's new code with the unchanged parts
 * elided by markers (`// ... existing code ...`), merged by applyLazyEdit
 * (src/lazy/) without a model.
 *
 *   lazy-edit := path-line NL fence          the path alone on the line before the fence
 *              | fence-with-path             ```ts:src/a.ts (fence-path.ts)
 *              | morph                       <code>…</code><update>…</update> in the fence
 *   fence     := OPEN info? NL body CLOSE    body: code lines and marker lines (src/lazy/markers.ts)
 *   marker    := a comment line of an ellipsis or elision wording, any comment syntax:
 *                `// ...`, `# ... rest of code ...`, `/* … *\/`, `<!-- ... -->`, `{/* ... *\/}`, `...`
 *
 * Detected (format "auto") only when the body holds a marker, and only in a
 * response where no other format found anything (an edit or an error): a
 * response another format reads is never read as a snippet too. A fenced
 * body without a marker is an excerpt or a whole file (`--format whole`
 * decides), and a merge needs the file, so a snippet for a missing file is
 * refused. `--format lazy` reads every named fence as a snippet, markers or
 * not (a whole definition replacing the one of the same name).
 *
 * Leniencies, each for a model habit:
 * 1. The path on the line before the fence, or in the fence's info string.
 * 2. Morph's apply input (`<code>…</code><update>…</update>`) as a fence
 *    body: the update is the snippet.
 * 3. The markers' leniencies (src/lazy/markers.ts): every comment syntax
 *    and wording, a bare `...` line, removal notes.
 *
 * Strictness: fences holding SEARCH/REPLACE markers or diff headers are
 * left to those formats (they run first and take their lines anyway).
 *
 * The file layer loads the file's definitions reader and syntax checker
 * before the merge (`syntaxTrees`, fs/syntax-trees.ts): definitions are
 * matched in the tree, and a merge that breaks the file's syntax is refused.
 */
import { EditError } from "../errors.ts";
import { applyLazyEdit } from "../lazy/apply-lazy-edit.ts";
import { hasMarker } from "../lazy/markers.ts";
import { readMorphInput } from "../lazy/morph-input.ts";
import { fencePath } from "./fence-path.ts";
import { readPathLine } from "./search-replace-files.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, ResponseText, SplitResult } from "./types.ts";

export interface LazyPayload {
  /** The snippet: new code with `// ... existing code ...` markers. */
  snippet: string;
}

const OTHER_FORMAT = /^(?:<{5,9} SEARCH|={5,9}\s*$|>{5,9} REPLACE|--- |\+\+\+ |@@ |\*\*\* Begin Patch)/m;

/** Whether a fenced body reads as a lazy snippet in a response of unknown format. */
function isSnippet(body: string): boolean {
  if (OTHER_FORMAT.test(body)) return false;
  const morph = readMorphInput(body);
  return hasMarker(morph ? morph.update : body);
}

function split(response: ResponseText): SplitResult<LazyPayload> {
  const out: SplitResult<LazyPayload> = { edits: [], errors: [] };
  if (response.format !== "auto" && response.format !== "lazy") return out;
  const forced = response.format === "lazy";
  const { lines, consumed } = response;
  for (const f of response.fences) {
    if (consumed.has(f.open) || f.close >= lines.length) continue;
    if (!forced && !isSnippet(f.body)) continue;
    let path = fencePath(lines[f.open] as string)?.path;
    if (path === undefined) {
      let i = f.open - 1;
      while (i >= 0 && (lines[i] as string).trim() === "" && !consumed.has(i)) i--;
      if (i >= 0 && !consumed.has(i)) path = readPathLine(lines[i] as string);
    }
    path ??= response.defaultPath;
    if (path === undefined) continue;
    for (let k = f.open; k <= f.close; k++) consumed.add(k);
    out.edits.push({ format: "lazy", path, line: f.open + 1, payload: { snippet: f.body } });
  }
  return out;
}

function apply(content: string, edit: FileEdit<LazyPayload>, ctx: FileApplyContext): FileApplyResult {
  if (!ctx.exists) {
    throw new EditError(
      "NOT_FOUND",
      `${ctx.path} does not exist, and a snippet with "... existing code ..." markers needs the file it elides${ctx.pathHint ? ` (${ctx.pathHint})` : ""}. To create it, send its whole text.`,
      { path: ctx.path },
    );
  }
  try {
    const r = applyLazyEdit(content, edit.payload.snippet, { path: ctx.path, ...ctx.trees });
    return { content: r.content, ops: [{ status: "applied", strategy: `lazy-${r.strategy}`, startLine: r.startLine ?? 1, endLine: r.endLine ?? 1, score: 1, fuzzy: r.stats.deleted > 0 || r.strategy === "definitions" }] };
  } catch (e) {
    if (e instanceof EditError && e.code === "ALREADY_APPLIED") return { content, ops: [{ status: "already-applied", note: e }] };
    if (e instanceof EditError) return { ops: [{ status: "failed", error: e }] };
    throw e;
  }
}

export const lazyFormat: FormatEntry<LazyPayload> = Object.freeze({
  name: "lazy",
  summary: "a path line, then the file's changed code in a fence with // ... existing code ... markers for the rest",
  unit: "snippet",
  detect: (text: string) => isSnippet(text),
  split,
  apply,
  lastResort: true,
  syntaxTrees: true,
});
