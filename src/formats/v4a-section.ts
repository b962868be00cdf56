/**
 * `applyV4A(content, diff)`: one file's V4A section without the patch's
 * envelope (the `diff` of an OpenAI `apply_patch` operation; grammar in
 * v4a-parse.ts, `parseV4ASection`), applied to one text by the same engine
 * as a whole V4A patch: chunks located in order after their `@@` anchors,
 * every leniency and refusal of the V4A format, and nothing applied unless
 * every chunk is placed.
 */
import type { EngineOptions } from "../engine/options.ts";
import { EditError } from "../errors.ts";
import { alreadyAppliedNote } from "./already-applied.ts";
import type { FileApplyResult, OpOutcome } from "./types.ts";
import { type V4APayload, v4aFormat } from "./v4a-format.ts";
import { parseV4ASection, type V4AChunk } from "./v4a-parse.ts";

export interface ApplyV4AOptions extends EngineOptions {
  /**
   * The diff creates the file (OpenAI's `create_file`): every line is a `+`
   * line, and `content` must be empty (a file that exists already holding
   * exactly that text is reported already applied).
   * @default false
   */
  create?: boolean;
}

/** How one chunk of the diff was placed. Lines are 1-based inclusive lines of the original content. */
export interface ChunkReport {
  /** 0-based position of the chunk in the diff. */
  index: number;
  /** 1-based line of the diff where the chunk starts. */
  line: number;
  /** The strategy that found its old side; "create" for a created file, "insert" for a chunk that only adds lines. */
  strategy: string;
  startLine: number;
  endLine: number;
  /** 1 for exact, lower for a similarity match. */
  score: number;
  /** Found by a strategy other than exact text: worth a look. */
  fuzzy: boolean;
}

export interface V4AResult {
  content: string;
  chunks: ChunkReport[];
  /** Every chunk's new side already stands (the diff was applied before): `content` is unchanged and this note (ALREADY_APPLIED) says where. */
  alreadyApplied?: EditError;
}

/** Where the section's ops report to the file layer: a display path no real path can be. */
const PATH = "the file";

/**
 * Applies one headerless V4A section to `content`. Returns the new content
 * and a report per chunk; throws EditError when the diff cannot be read or
 * any chunk cannot be placed (nothing is applied then).
 */
export function applyV4A(content: string, diff: string, options: ApplyV4AOptions = {}): V4AResult {
  for (const [name, value] of [
    ["content", content],
    ["diff", diff],
  ] as const) {
    if (typeof value !== "string") throw new EditError("INVALID_INPUT", `${name} must be a string, got ${value === null ? "null" : typeof value}.`);
  }
  const { create, ...engine } = options ?? {};
  const payload = v4aPayloadOf(diff, create === true, PATH);
  let result: FileApplyResult;
  try {
    result = v4aFormat.apply(content, { format: "v4a", path: PATH, payload }, { path: PATH, exists: !create || content !== "", options: engine });
  } catch (error) {
    const note = error instanceof EditError ? alreadyAppliedNote(error, "chunk") : undefined;
    if (note) return { content, chunks: [], alreadyApplied: note };
    throw error;
  }
  const failed = result.ops.filter((o) => o.status === "failed");
  if (failed.length > 0 || result.content === undefined) {
    const error = failureOf(result.ops);
    const note = alreadyAppliedNote(error, "chunk");
    if (note) return { content, chunks: [], alreadyApplied: note };
    throw error;
  }
  const chunks = payload.kind === "update" ? payload.chunks : [];
  return { content: result.content, chunks: result.ops.map((o, k) => chunkReport(o, k, chunks[k])) };
}

/** The V4A file operation of a headerless section (a create, or an update of `path`), for the core and the file layer. */
export function v4aPayloadOf(diff: string, create: boolean, path: string, moveTo?: string): V4APayload {
  if (create) return { kind: "add", path, line: 1, lines: parseV4ASection(diff, true) };
  return { kind: "update", path, line: 1, ...(moveTo !== undefined && { moveTo }), chunks: parseV4ASection(diff, false) };
}

function chunkReport(o: OpOutcome, index: number, chunk: V4AChunk | undefined): ChunkReport {
  return {
    index,
    line: chunk?.line ?? 1,
    strategy: o.strategy ?? "exact",
    startLine: o.startLine ?? 1,
    endLine: o.endLine ?? 0,
    score: o.score ?? 1,
    fuzzy: o.fuzzy ?? false,
  };
}

/** One error for the failed chunks, whose detail lists each (the already-applied rule reads them). */
function failureOf(ops: readonly OpOutcome[]): EditError {
  const failures = ops.flatMap((o, index) => (o.status === "failed" && o.error ? [{ index, error: o.error }] : []));
  const first = failures[0];
  if (!first) return new EditError("CONFLICT", "The diff could not be applied.");
  const list = failures.map((f) => ({ index: f.index, code: f.error.code, message: f.error.message, ...f.error.detail }));
  const detail = { ...first.error.detail, index: first.index, failures: list, hunks: ops.length };
  if (failures.length === 1) {
    const tail = ops.length > 1 ? `\nNothing was applied (the other chunks were found). Send the whole diff again with this chunk fixed.` : "";
    return new EditError(first.error.code, first.error.message + tail, detail);
  }
  const message = [`${failures.length} of ${ops.length} chunks failed; nothing was applied. Send the whole diff again with these chunks fixed.`, ...failures.map((f) => f.error.message)];
  return new EditError(first.error.code, message.join("\n\n"), detail);
}
