/**
 * The unified diff (with or without line numbers) in a model's response:
 * where its file sections are, and how one file's section is applied.
 *
 *   diff-run     := file-section+   in a ```diff / ```patch fence, any fence whose body
 *                                  looks like a diff, or bare in the prose; a fence naming
 *                                  its file (```diff:src/a.ts) is the path of hunks without headers
 *   file-section := ("diff --git" line)? "--- " old NL "+++ " new NL hunk*
 *
 * Leniencies: bare diffs in prose ("Here is the patch:\n--- a/x\n+++ b/x\n@@ ...")
 * end at the first line that cannot be part of a diff; the headers' paths
 * are read by `parsePatch` (git's a/ b/, `filename:`, timestamps), once.
 */
import { EditError, withoutStacks } from "../errors.ts";
import { fencePath } from "./fence-path.ts";
import { missingFile } from "./file-errors.ts";
import { looksLikeSearchReplace } from "./search-replace-files.ts";
import type { FileApplyContext, FileApplyResult, FileEdit, FormatEntry, OpOutcome, ResponseText, SplitResult } from "./types.ts";
import { applyPatch, applyPatchWithChange } from "./unified-apply.ts";
import { type GitHeaders, isTextFileMode, looksLikeGitHeadersOnly, namesDisagree, permissionsFor, readGitHeaders } from "./git-headers.ts";
import { looksLikeUnifiedDiff, readPatchIfComplete, unquoteC } from "./unified-parse.ts";
import { reverseUnifiedDiff } from "./unified-reverse.ts";

export interface UdiffPayload {
  /** The diff section of this one file, headers included. */
  patch: string;
  isNew: boolean;
  isDeleted: boolean;
  /** Lines of the response before the section. */
  offset: number;
  /** What git's extended headers say besides the hunks (git-headers.ts). */
  git?: GitChange;
  /** The diff is undone (`reverse`): a missing file is then advised on in those terms. */
  reversed?: boolean;
  /**
   * A new file whose every line the diff carries with CRLF while its `+++`
   * header line has LF (git's diff of a CRLF file, not a response sent with
   * CRLF breaks): created with CRLF, as `git apply` creates it.
   */
  crlf?: boolean;
}

/** A git section's change of name or mode, for the file layer. */
export interface GitChange {
  /** `rename to`: the file's new path. */
  moveTo?: string;
  /** `copy from`: the file this one is created from (the edit's path is the copy). */
  copyFrom?: string;
  /** The git mode after (`new mode`, `new file mode`), e.g. 0o100755. */
  newMode?: number;
  /** The git mode before (`old mode`, `deleted file mode`). */
  oldMode?: number;
  /** `similarity index N%`. */
  similarity?: number;
  /** Set by the file layer for a rename sent again (done-moves.ts): the old path, gone, whose file is now at the edit's path. */
  movedFrom?: string;
}

function isSectionStart(lines: readonly string[], i: number): boolean {
  const l = lines[i] as string;
  if (l.startsWith("diff --git ")) return true;
  return l.startsWith("--- ") && (lines[i + 1] ?? "").startsWith("+++ ");
}

const DIFF_PREFIXES = [
  " ",
  "+",
  "-",
  "\\",
  "@@",
  "diff ",
  "index ",
  "new file",
  "deleted file",
  "similarity ",
  "dissimilarity ",
  "rename ",
  "copy ",
  "old mode",
  "new mode",
  "Binary files",
  "GIT binary patch",
];

function isDiffLine(line: string): boolean {
  return line === "" || DIFF_PREFIXES.some((p) => line.startsWith(p));
}

function hasHunkBetween(lines: readonly string[], from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if ((lines[i] as string).startsWith("@@")) return true;
  return false;
}

interface Header {
  oldPath?: string;
  newPath?: string;
  isNew: boolean;
  isDeleted: boolean;
}

/** The path a header line writes, before git's a/ b/ go (what `-p N` counts on). */
function rawHeaderPath(section: readonly string[], prefix: string): string | undefined {
  const p = section.find((l) => l.startsWith(prefix))?.slice(4).split("\t")[0]?.trim();
  return p === undefined || p === "" || p === "/dev/null" ? undefined : p;
}

/** The section's header as `readPatch` reads it; a section it refuses still names its file from the raw lines. */
function readHeader(section: readonly string[]): Header {
  // Its errors are dropped here (the apply step reports them): a section of headers only is read without
  // building one, and no other captures a stack. A response of 40,000 header-only sections spent 1.7 s of
  // 2.6 s in errors thrown away; 40,000 sections of an empty '@@ @@' hunk, 0.8 s (0.48 s without stacks).
  const first = withoutStacks(() => {
    try {
      return readPatchIfComplete(`${section.join("\n")}\n`)?.[0];
    } catch {
      // The apply step reports the parse error against the file.
      return undefined;
    }
  });
  if (first && (first.oldPath !== undefined || first.newPath !== undefined || first.isNew || first.isDeleted)) {
    return {
      ...(first.oldPath !== undefined && { oldPath: first.oldPath }),
      ...(first.newPath !== undefined && { newPath: first.newPath }),
      isNew: first.isNew,
      isDeleted: first.isDeleted,
    };
  }
  const raw = (prefix: string) => section.find((l) => l.startsWith(prefix))?.slice(4).split("\t")[0]?.trim();
  const clean = (p: string | undefined, git: string) => (p === undefined || p === "/dev/null" || p === "" ? undefined : p.startsWith(git) ? p.slice(2) : p);
  const oldPath = clean(raw("--- "), "a/");
  const newPath = clean(raw("+++ "), "b/");
  return { ...(oldPath !== undefined && { oldPath }), ...(newPath !== undefined && { newPath }), isNew: oldPath === undefined, isDeleted: newPath === undefined };
}

/**
 * One edit per file section of `lines` (a run of diff text starting at
 * response line `offset` + 1). `forcedPath` (a structured `{path, diff}`)
 * names the file when the diff has no headers.
 */
export function diffSections(
  lines: readonly string[],
  offset: number,
  out: SplitResult<UdiffPayload>,
  forcedPath?: string,
  defaultPath?: string,
  crlfLines?: ReadonlySet<number>,
): void {
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isSectionStart(lines, i)) continue;
    // `diff --git` is followed by its own ---/+++ pair: one section, not two.
    const prev = starts.at(-1);
    // A `diff --git` line always starts a section (one of headers only, a mode change, comes before it).
    if (prev !== undefined && !(lines[i] as string).startsWith("diff --git ") && (lines[prev] as string).startsWith("diff --git ") && !hasHunkBetween(lines, prev, i)) continue;
    starts.push(i);
  }
  if (starts.length === 0) {
    const path = forcedPath ?? defaultPath;
    if (path !== undefined) {
      out.edits.push({ format: "udiff", path, line: offset + 1, payload: { patch: lines.join("\n"), isNew: false, isDeleted: false, offset } });
    } else if (lines.some((l) => l.startsWith("@@"))) {
      const line = offset + 1;
      out.errors.push(new EditError("PARSE", `The diff at line ${line} has no file header. Start each file's diff with "--- a/PATH" and "+++ b/PATH" lines.`, { line }));
    }
    return;
  }
  for (const [k, start] of starts.entries()) {
    const section = lines.slice(start, starts[k + 1] ?? lines.length);
    while (section.length > 0 && (section.at(-1) as string).trim() === "") section.pop();
    const header = readHeader(section);
    const line = offset + start + 1;
    const path = header.isDeleted ? header.oldPath : (header.newPath ?? header.oldPath);
    if (path === undefined) {
      out.errors.push(new EditError("PARSE", `The diff at line ${line} names no file ("--- /dev/null" and "+++ /dev/null").`, { line }));
      continue;
    }
    const git = readGitHeaders(section);
    const refused = git && (refuseGit(git, path, line) ?? disagreeing(section, git, line, path));
    if (refused) {
      out.errors.push(refused);
      continue;
    }
    const change = git && gitChange(git, header);
    const named = header.oldPath !== undefined && header.newPath !== undefined && header.oldPath !== header.newPath;
    if (!header.isNew && !header.isDeleted && named && change?.moveTo === undefined && change?.copyFrom === undefined) {
      out.errors.push(
        new EditError(
          "PARSE",
          `The diff at line ${line} names two files (--- ${header.oldPath}, +++ ${header.newPath}) without saying it renames one: send the edit against one path, or, to rename, a git diff with "rename from ${header.oldPath}" and "rename to ${header.newPath}" lines (or a V4A "*** Move to:").`,
          { line, path: header.oldPath },
        ),
      );
      continue;
    }
    // A copy is an edit of the new file, made from the one it copies; a rename, of the old file, moved.
    const editPath = change?.copyFrom !== undefined ? (header.newPath ?? path) : change?.moveTo !== undefined ? (header.oldPath ?? path) : path;
    const payload: UdiffPayload = {
      patch: `${section.join("\n")}\n`,
      isNew: header.isNew,
      isDeleted: header.isDeleted,
      offset: offset + start,
      ...(change && { git: change }),
      ...(header.isNew && crlfLines && newLinesCrlf(section, offset + start, crlfLines) && { crlf: true }),
    };
    // The file a diff changes is its old side (patch reads `--- a/x` first); a new file's is the new side.
    const written = header.isNew ? rawHeaderPath(section, "+++ ") : (rawHeaderPath(section, "--- ") ?? rawHeaderPath(section, "+++ "));
    out.edits.push({
      format: "udiff",
      path: forcedPath ?? editPath,
      line,
      payload,
      ...(forcedPath === undefined && written !== undefined && editPath === path && { writtenPath: written }),
      ...(change?.copyFrom !== undefined && { sourcePath: change.copyFrom }),
    });
  }
}

/** A git section fuzzpatch must not apply as text: binary content, a symlink or submodule mode. Named, so the model or user knows why. */
function refuseGit(git: GitHeaders, path: string, line: number): EditError | undefined {
  if (git.binary) {
    return new EditError(
      "BINARY",
      `The diff at line ${line} changes ${path} as binary data (GIT binary patch); fuzzpatch applies text changes only. Apply it with git apply, or send the change as a text diff.`,
      { line, path },
    );
  }
  if (git.badMode !== undefined) {
    return new EditError("PARSE", `The diff at line ${line} gives ${path} the mode "${git.badMode}"; git writes a mode as six octal digits (100644, 100755).`, { line, path });
  }
  for (const mode of [git.oldMode, git.newMode]) {
    if (mode !== undefined && !isTextFileMode(mode)) {
      const kind = mode === 0o120000 ? "a symbolic link" : mode === 0o160000 ? "a submodule" : "not a regular file";
      return new EditError(
        "INVALID_INPUT",
        `The diff at line ${line} gives ${path} the mode ${mode.toString(8)} (${kind}); fuzzpatch writes regular files only (100644, 100755). Apply it with git apply.`,
        { line, path },
      );
    }
  }
  return undefined;
}

/** A git section whose rename/copy lines name other files than its headers (git-headers.ts): refused, as git apply does. */
function disagreeing(section: readonly string[], git: GitHeaders, line: number, path: string): EditError | undefined {
  const raw = (prefix: string, strip: string) => {
    const written = rawHeaderPath(section, prefix);
    const p = written !== undefined && written.length >= 2 && written.startsWith('"') && written.endsWith('"') ? unquoteC(written.slice(1, -1)) : written;
    return p?.startsWith(strip) ? p.slice(strip.length) : p;
  };
  const oldPath = raw("--- ", "a/");
  const newPath = raw("+++ ", "b/");
  const why = namesDisagree(section, git, { ...(oldPath !== undefined && { oldPath }), ...(newPath !== undefined && { newPath }) });
  if (why === undefined) return undefined;
  return new EditError("PARSE", `The diff at line ${line} is inconsistent: ${why}. Send the section with one pair of paths (git writes the same names on every line).`, { line, path });
}

/** The renames, copies and modes of a git section; undefined when it has none. */
function gitChange(git: GitHeaders, header: Header): GitChange | undefined {
  const change: GitChange = {};
  if (git.renameFrom !== undefined || git.renameTo !== undefined) {
    const to = git.renameTo ?? header.newPath;
    if (to !== undefined && to !== (git.renameFrom ?? header.oldPath)) change.moveTo = to;
  } else if (git.copyFrom !== undefined) {
    change.copyFrom = git.copyFrom;
  }
  if (git.newMode !== undefined && git.newMode !== git.oldMode) change.newMode = git.newMode;
  if (git.oldMode !== undefined) change.oldMode = git.oldMode;
  if (git.similarity !== undefined) change.similarity = git.similarity;
  return Object.keys(change).length > 0 ? change : undefined;
}

const COUNTED_HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** What a hunk line counts against its header: [old, new] lines. */
function hunkLineCounts(line: string): [number, number] {
  if (line.startsWith(" ") || line === "") return [1, 1];
  if (line.startsWith("-")) return [1, 0];
  return line.startsWith("+") ? [0, 1] : [0, 0];
}

/**
 * A bare diff ends at the first line that cannot be diff text (`end`), but
 * not inside a hunk's counted range (`@@ -1,4 +1,4 @@` with fewer lines
 * seen) when change lines follow the stray lines: the section then runs on
 * to the count, so the parser reports the stray line (PARSE, naming it)
 * instead of a hunk applied in part (issue 38: a line without a prefix
 * between a `-` and a `+` line ended the diff; the `-` was applied, the `+`
 * dropped). Prose after a miscounted hunk, with no change below it, still
 * ends the diff.
 */
function throughCountedHunk(lines: readonly string[], start: number, end: number, free: (k: number) => boolean): number {
  let header = end - 1;
  while (header >= start && !(lines[header] as string).startsWith("@@")) header--;
  const counts = header >= start ? COUNTED_HUNK.exec(lines[header] as string) : null;
  if (!counts) return end;
  let oldLeft = Number(counts[1] ?? 1);
  let newLeft = Number(counts[2] ?? 1);
  const take = (line: string) => {
    const [o, n] = hunkLineCounts(line);
    oldLeft -= o;
    newLeft -= n;
  };
  for (let k = header + 1; k < end; k++) take(lines[k] as string);
  let stray = end;
  while (stray < lines.length && free(stray) && !isDiffLine(lines[stray] as string)) stray++;
  const next = lines[stray];
  const changeFollows = next !== undefined && free(stray) && /^[-+]/.test(next) && !isSectionStart(lines, stray);
  if ((oldLeft <= 0 && newLeft <= 0) || !changeFollows) return end;
  let k = stray;
  for (; k < lines.length && free(k) && (oldLeft > 0 || newLeft > 0); k++) {
    if ((lines[k] as string).startsWith("@@") || isSectionStart(lines, k)) break;
    take(lines[k] as string);
  }
  return k;
}

function split(response: ResponseText): SplitResult<UdiffPayload> {
  const out: SplitResult<UdiffPayload> = { edits: [], errors: [] };
  const { lines, fences, consumed } = response;
  for (const f of fences) {
    if (consumed.has(f.open)) continue;
    // ```diff:src/a.ts or ```src/a.ts: the fence names the file of hunks without headers.
    const named = fencePath(lines[f.open] as string);
    const lang = named ? named.lang : f.info;
    const isDiffInfo = lang === "diff" || lang === "patch" || lang === "udiff";
    if (!isDiffInfo && !(detect(f.body) && !looksLikeSearchReplace(f.body))) continue;
    for (let k = f.open; k <= Math.min(f.close, lines.length - 1); k++) consumed.add(k);
    diffSections(lines.slice(f.open + 1, f.close), f.open + 1, out, undefined, named?.path ?? response.defaultPath, response.crlfLines);
  }
  // Bare diffs in the prose, outside every fence.
  const inFence = new Set<number>();
  for (const f of fences) for (let k = f.open; k <= Math.min(f.close, lines.length - 1); k++) inFence.add(k);
  for (let i = 0; i < lines.length; i++) {
    // With a target file, hunks without headers are edits too.
    const headless = response.defaultPath !== undefined && (lines[i] as string).startsWith("@@");
    if (inFence.has(i) || consumed.has(i) || !(isSectionStart(lines, i) || headless)) continue;
    const free = (k: number) => !inFence.has(k) && !consumed.has(k);
    let j = i;
    while (j < lines.length && free(j) && isDiffLine(lines[j] as string)) j++;
    j = throughCountedHunk(lines, i, j, free);
    while (j > i && (lines[j - 1] as string).trim() === "") j--;
    diffSections(lines.slice(i, j), i, out, undefined, response.defaultPath, response.crlfLines);
    for (let k = i; k < j; k++) consumed.add(k);
    i = j - 1;
  }
  return out;
}

/** Whether a new file's section carries every `+` line with CRLF while its `+++` header has none (see `UdiffPayload.crlf`). */
function newLinesCrlf(section: readonly string[], first: number, crlfLines: ReadonlySet<number>): boolean {
  let added = 0;
  for (const [k, line] of section.entries()) {
    if (line.startsWith("+++ ")) {
      if (crlfLines.has(first + k)) return false;
    } else if (line.startsWith("+")) {
      // The file's last line has no ending to carry CR when a "\ No newline" marker follows it.
      if ((section[k + 1] ?? "").startsWith("\\")) continue;
      if (!crlfLines.has(first + k)) return false;
      added++;
    }
  }
  return added > 0;
}

/** A unified diff, or a git section that changes only a name or a mode (it has no hunk to be found by). */
function detect(text: string): boolean {
  return looksLikeUnifiedDiff(text) || looksLikeGitHeadersOnly(text);
}

function apply(content: string, edit: FileEdit<UdiffPayload>, ctx: FileApplyContext): FileApplyResult {
  const { patch, isNew, isDeleted, offset, git } = edit.payload;
  // The name and mode a git section gives the file, on top of its text.
  const gitResult = { ...(git?.moveTo !== undefined && { moveTo: git.moveTo }), ...(git?.newMode !== undefined && { gitMode: git.newMode }) };
  if (isNew && ctx.exists && content !== "") {
    // The file this diff creates, with exactly this text: the diff ran before.
    if (createdBefore(content, patch, ctx)) throw new EditError("ALREADY_APPLIED", `already applied (${ctx.path} exists with the text this diff creates); nothing to do.`);
    throw new EditError("CONFLICT", `The diff creates ${ctx.path} (--- /dev/null), but the file already exists. Send a diff against its current content instead.`);
  }
  if (!isNew && !ctx.exists) throw edit.payload.reversed ? missingToUndo(ctx, isDeleted) : missingFile(ctx.path, "a diff from --- /dev/null", ctx.pathHint);
  const hasHunk = /^@@/m.test(patch);
  if (isDeleted && !hasHunk) return { content: "", deleted: true, ops: [{ status: "applied", strategy: "delete", fuzzy: false }] };
  if (!hasHunk && (git !== undefined || isNew)) {
    const done = isNew ? undefined : doneGitChange(git, ctx);
    if (done) throw done;
    // A git section of headers only: an empty new file, a rename, a copy, a mode change.
    const strategy = isNew ? "create" : git?.moveTo !== undefined ? "rename" : git?.copyFrom !== undefined ? "copy" : "mode";
    return { content: isNew ? "" : content, ...gitResult, ops: [{ status: "applied", strategy, fuzzy: false }] };
  }
  const { result, change } = applyPatchWithChange(isNew ? "" : content, ctx.bom ? withoutFileBom(patch) : patch, {
    ...ctx.options,
    lineOffset: offset,
    ...(ctx.keepApplied === true && { keepApplied: true }),
  } as Parameters<typeof applyPatch>[2]);
  // What the file layer diffs and writes from; a created file is its whole text.
  const changes = change && !isNew ? { changes: [change] } : {};
  if (result.alreadyApplied && git === undefined) return { content, ops: [{ status: "already-applied", note: result.alreadyApplied }] };
  if (result.alreadyApplied) return { content, ...gitResult, ops: [{ status: "already-applied", note: result.alreadyApplied }] };
  const ops: OpOutcome[] = result.hunks.map((h) => ({ status: "applied", strategy: h.strategy, startLine: h.startLine, endLine: h.endLine, score: h.score, fuzzy: h.fuzzy }));
  if (result.rejected || result.skipped) {
    // --reject: every hunk in patch order, the failed ones with their text for the .rej.
    const order = new Map<OpOutcome, number>(result.hunks.map((h, k) => [ops[k] as OpOutcome, h.index]));
    for (const r of result.rejected ?? []) order.set({ status: "failed", error: r.error, rejected: { kind: "hunk", text: r.text } }, r.index);
    for (const s of result.skipped ?? []) order.set({ status: "already-applied", note: s.note }, s.index);
    const all = [...order].sort((a, b) => a[1] - b[1]).map(([op]) => op);
    return { content: result.content, ...changes, ...gitResult, ops: all };
  }
  return {
    content: isNew && edit.payload.crlf ? result.content.replaceAll("\n", "\r\n") : result.content,
    ...(!isDeleted && changes),
    ...(isDeleted && { deleted: true }),
    ...gitResult,
    ops: ops.length > 0 ? ops : [{ status: "applied", strategy: "exact", fuzzy: false }],
  };
}

/**
 * The file layer hands over a file's text without its BOM (it restores it on
 * write); git writes the BOM as text of line 1, so a hunk from line 1 carries
 * it on its first old line, and on its first new line unless the diff drops
 * it. Taken off those lines, the hunk matches exactly, as for `git apply`
 * (left on, it matched only line-trimmed and was reported fuzzy).
 */
function withoutFileBom(patch: string): string {
  const lines = patch.split("\n");
  let fromLineOne = false;
  let oldSeen = false;
  let newSeen = false;
  let oldHadBom = false;
  for (const [k, line] of lines.entries()) {
    if (line.startsWith("@@")) {
      fromLineOne = /^@@ -1(?:,\d+)? /.test(line);
      oldSeen = newSeen = oldHadBom = false;
      continue;
    }
    if (!fromLineOne) continue;
    const kind = line[0];
    const bom = line[1] === "\uFEFF";
    const firstOld: boolean = !oldSeen && (kind === " " || kind === "-");
    const firstNew: boolean = !newSeen && (kind === " " || kind === "+");
    if (firstOld) oldHadBom = bom;
    if (bom && (firstOld || (firstNew && oldHadBom))) lines[k] = `${kind}${line.slice(2)}`;
    oldSeen ||= firstOld;
    newSeen ||= firstNew;
  }
  return lines.join("\n");
}

/**
 * A git section of headers only whose change already stands: a rename sent
 * again (the file layer found the old path gone and the new one there), a
 * mode the file already has. ALREADY_APPLIED, as for hunks already applied.
 */
function doneGitChange(git: GitChange | undefined, ctx: FileApplyContext): EditError | undefined {
  if (git === undefined || git.moveTo !== undefined || git.copyFrom !== undefined) return undefined;
  const modeStands = git.newMode === undefined || (ctx.mode !== undefined && permissionsFor(git.newMode, ctx.mode) === ctx.mode);
  if (!modeStands || (git.newMode === undefined && git.movedFrom === undefined)) return undefined;
  const what = [
    ...(git.movedFrom !== undefined ? [`${git.movedFrom} is gone and ${ctx.path} exists: it was renamed`] : []),
    ...(git.newMode !== undefined ? [`${ctx.path} already has mode ${git.newMode.toString(8)}`] : []),
  ];
  return new EditError("ALREADY_APPLIED", `already applied (${what.join("; ")}); nothing to do.`, { path: ctx.path });
}

/**
 * A reversed diff whose file is missing: undoing a creation finds it already
 * undone (run twice, the first run deleted it); anything else has nothing to
 * undo there. Creating the file from /dev/null, the forward advice, is wrong
 * advice for an undo.
 */
function missingToUndo(ctx: FileApplyContext, deletes: boolean): EditError {
  if (deletes) return new EditError("ALREADY_APPLIED", `already undone (${ctx.path}, which the diff creates, does not exist); nothing to do.`, { path: ctx.path });
  const check = ctx.pathHint === undefined ? "check the path" : `check the path (${ctx.pathHint})`;
  return new EditError("NOT_FOUND", `${ctx.path} does not exist, so the diff cannot be undone there: undoing needs the file as the diff left it. If it was renamed or moved, ${check}.`, {
    path: ctx.path,
    ...(ctx.pathHint !== undefined && { suggestion: ctx.pathHint }),
  });
}

function createdBefore(content: string, patch: string, ctx: FileApplyContext): boolean {
  try {
    return applyPatch("", patch, ctx.options as Parameters<typeof applyPatch>[2]).content === content;
  } catch {
    return false;
  }
}

/**
 * A diff that created a file deletes it when reversed, and the other way
 * round; a rename moves the file back, a mode change restores the old mode,
 * and a copy is undone by deleting the copy.
 */
function reverse(edit: FileEdit<UdiffPayload>): FileEdit<UdiffPayload> {
  const p = edit.payload;
  const patch = reverseUnifiedDiff(p.patch);
  const git = p.git;
  if (git?.copyFrom !== undefined) {
    const { sourcePath: _, ...rest } = edit;
    return { ...rest, payload: { ...p, patch, isNew: false, isDeleted: true, reversed: true, git: {} } };
  }
  const back: GitChange | undefined = git && {
    ...(git.newMode !== undefined && git.oldMode !== undefined && { newMode: git.oldMode, oldMode: git.newMode }),
    ...(git.moveTo !== undefined && { moveTo: edit.path }),
  };
  const moved = git?.moveTo === undefined ? {} : { path: git.moveTo, writtenPath: git.moveTo };
  return { ...edit, ...moved, payload: { ...p, patch, isNew: p.isDeleted, isDeleted: p.isNew, reversed: !p.reversed, ...(back && { git: back }) } };
}

export const udiffFormat: FormatEntry<UdiffPayload> = Object.freeze({
  name: "udiff",
  summary: "a unified diff with --- / +++ headers, with or without line numbers",
  unit: "hunk",
  detect,
  split,
  apply,
  reverse,
});
