/**
 * The edit tools as plain data: a name, a description written for the model
 * that will call the tool, and the JSON Schema of its arguments. The zod
 * schemas are the one home of each tool's argument rules: `runTool` validates
 * with them and `toolDefinitions` publishes them as JSON Schema, so the two
 * never disagree.
 *
 * Why there is a `create_file` but no `delete_file`: a new file written as a
 * diff is every line prefixed with `+` (or a SEARCH/REPLACE block whose text
 * may itself hold marker lines), which models get wrong on long files, and a
 * dedicated tool can refuse to overwrite a file that already exists. Deleting
 * is two header lines in `apply_diff` (`--- a/PATH` then `+++ /dev/null`), is
 * destructive, and is rarely part of an edit, so it gets no tool of its own.
 */

import { z } from "zod";
import type { JsonSchema, JsonSchemaObject } from "./json-schema.ts";
import { READ_OUTPUT_SCHEMA, WRITE_OUTPUT_SCHEMA } from "./result-data.ts";
import { strictSchemaOf } from "./strict-schema.ts";

/**
 * What an out-of-date `expectedHash` does, said once: the schema, the tool
 * description and the README quote this sentence (tested), and run-tool.ts
 * does it (a version the session served is merged from, as the design says).
 */
export const EXPECTED_HASH =
  "The sha256 read_file reported. If the file changed since, the edit is merged into the current file when that version was served in this session (STALE when the changes overlap); for any other version nothing is written (STALE).";

export type ToolName = "read_file" | "edit_file" | "edit_lines" | "apply_diff" | "create_file" | "undo_edit" | "apply_snippet";

/** Hints for clients (the MCP `ToolAnnotations` fields). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: ToolName;
  /** A short human-readable name (MCP `title`). */
  title: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the arguments object. */
  inputSchema: JsonSchemaObject;
  /** JSON Schema of the result as data (`ToolResult.structured`). */
  outputSchema?: JsonSchemaObject;
  annotations: ToolAnnotations;
}

const dryRun = z.boolean().optional().describe("Report what would change (the diff and how each edit matched) without writing anything.");

export const readFileArgs = z
  .object({
    path: z.string().min(1).describe("File to read: relative to the project root, or absolute inside one of the roots."),
    offset: z.number().int().min(1).optional().describe("First line to show, 1-based. Default 1."),
    limit: z.number().int().min(1).optional().describe("Most lines to show. Default 2000."),
    anchors: z
      .boolean()
      .optional()
      .describe("Show each line as `N#TAG:text`, TAG a short hash of the line, for edit_lines. Default false (the server's --anchors makes it true)."),
  })
  .strict();

export const editFileArgs = z
  .object({
    path: z.string().min(1).describe("File to edit: relative to the project root, or absolute inside one of the roots."),
    edits: z
      .array(
        z
          .object({
            oldString: z.string().describe("Text to replace, copied from the file (line-number prefixes from read_file are recognised and ignored)."),
            newString: z.string().describe("Text to put in its place."),
            replaceAll: z.boolean().optional().describe("Replace every occurrence instead of requiring a unique match. Default false."),
          })
          .strict(),
      )
      .min(1)
      .describe("Edits applied in order, each to the result of the previous one. All apply or none is written."),
    expectedHash: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional()
      .describe(EXPECTED_HASH),
    dryRun,
  })
  .strict();

const lineTagRef = (what: string) => z.string().describe(`${what}: its line number and tag as read_file with anchors shows them, such as "12#qxm".`);

export const editLinesArgs = z
  .object({
    path: z.string().min(1).describe("File to edit: relative to the project root, or absolute inside one of the roots."),
    edits: z
      .array(
        z
          .object({
            op: z
              .enum(["replace", "insert_after", "insert_before", "delete"])
              .describe("replace: lines from..to become `lines`. insert_after / insert_before: `lines` go after / before line `at`. delete: lines from..to go."),
            from: lineTagRef("First line to replace or delete").optional(),
            to: lineTagRef("Last line to replace or delete (inclusive); omit for the one line `from`").optional(),
            at: lineTagRef("Line to insert after or before").optional(),
            lines: z.array(z.string()).optional().describe("The new lines, one string per line, without tags or line breaks. For replace and the inserts."),
          })
          .strict(),
      )
      .min(1)
      .describe("Line edits. Every tag names a line of the file as you read it; all edits are placed on that version together, and either all are written or none is."),
    expectedHash: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/)
      .optional()
      .describe("The sha256 read_file reported: says which version your tags come from."),
    dryRun,
  })
  .strict();

export const applyDiffArgs = z
  .object({
    diff: z
      .string()
      .min(1)
      .describe("SEARCH/REPLACE blocks after a line naming the file, or a unified diff (--- a/PATH, +++ b/PATH, @@ hunks; line numbers in @@ may be omitted). May cover several files."),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("File the diff applies to, when the diff text does not name it (bare SEARCH/REPLACE blocks or headerless @@ hunks)."),
    dryRun,
  })
  .strict();

export const createFileArgs = z
  .object({
    path: z.string().min(1).describe("New file: relative to the project root, or absolute inside one of the roots. Missing directories are created."),
    content: z.string().describe("The whole content of the new file."),
    dryRun,
  })
  .strict();

export const undoEditArgs = z
  .object({
    path: z.string().min(1).optional().describe("Undo the last write to this file (relative to the project root, or absolute inside one of the roots)."),
    id: z
      .string()
      .min(4)
      .optional()
      .describe("Undo this write instead: the journal id a result reported (the start of it is enough). Without path or id: the last write under the project root."),
    merge: z.boolean().optional().describe("The file changed since that write: take the write's change out of it by a three-way merge instead of refusing. Default false."),
    dryRun,
  })
  .strict();

export const applySnippetArgs = z
  .object({
    path: z.string().min(1).describe("File to change: relative to the project root, or absolute inside one of the roots. It must exist."),
    code_edit: z
      .string()
      .min(1)
      .describe(
        "The changed code, with each unchanged part you leave out written as a comment such as `// ... existing code ...` (`# ...` in Python, `<!-- ... -->` in HTML or Markdown). Show one unchanged line of the file before and after each change.",
      ),
    instructions: z.string().optional().describe("One sentence saying what the edit does. Not used to place it; kept for the record."),
    dryRun,
  })
  .strict();

export const toolArgs = {
  read_file: readFileArgs,
  edit_file: editFileArgs,
  edit_lines: editLinesArgs,
  apply_diff: applyDiffArgs,
  create_file: createFileArgs,
  undo_edit: undoEditArgs,
  apply_snippet: applySnippetArgs,
} as const;

export type ReadFileArgs = z.infer<typeof readFileArgs>;
export type EditFileArgs = z.infer<typeof editFileArgs>;
export type EditLinesArgs = z.infer<typeof editLinesArgs>;
export type ApplyDiffArgs = z.infer<typeof applyDiffArgs>;
export type CreateFileArgs = z.infer<typeof createFileArgs>;
export type UndoEditArgs = z.infer<typeof undoEditArgs>;
export type ApplySnippetArgs = z.infer<typeof applySnippetArgs>;

const DESCRIPTIONS: Record<ToolName, string> = {
  read_file: [
    "Read a text file. Each line is shown as `N→text` (line number, arrow, then the line exactly), and the header gives the file's sha256.",
    "Read a file before editing it. You may copy lines into edit_file with or without their `N→` prefixes; the prefixes are recognised and removed.",
    "With anchors: true each line is `N#TAG:text` instead, TAG a short hash of the line: cite those tags in edit_lines.",
    "Pass the sha256 back as expectedHash: an edit written against an older version you read is then merged into the current file, or refused (STALE) where the file changed in the same place.",
    "Long files are shown in pages: use offset and limit. Binary files, files over the size limit and paths outside the project root are refused with an error saying why.",
  ].join(" "),
  edit_file: [
    "Replace text in one existing file. Each edit finds `oldString` and puts `newString` in its place; several edits in one call apply in order, and either all of them are written or none is.",
    "Matching is tolerant where a careful human would be: wrong indentation, collapsed or extra whitespace, literal \\n escapes, smart quotes, pasted line numbers, a slightly misremembered line. A tolerant match is applied to the file's own text (its indentation and untouched lines are kept) and reported as fuzzy: check the diff in the result.",
    "It refuses rather than guess. AMBIGUOUS: oldString fits several places; the error lists each with its line numbers; add surrounding lines to make it unique, or set replaceAll. NOT_FOUND: the error shows the closest lines of the file and how they differ; copy oldString exactly from them.",
    "STALE: the file changed since you read it (expectedHash) where your edit changes it, or in a version not served here; read it again. Errors are results you can act on: fix the edit and call again.",
    "To create a new file use create_file.",
  ].join(" "),
  edit_lines: [
    "Change lines of one file by the tags read_file shows with anchors: true (`12#qxm:text`). No text is copied: each edit names lines by tag and gives only the new lines.",
    'Edits: {"op": "replace", "from": "12#qxm", "to": "15#abc", "lines": [...]} (omit `to` for one line; `lines: []` deletes), {"op": "insert_after" | "insert_before", "at": "30#kmp", "lines": [...]}, {"op": "delete", "from", "to"}.',
    "All tags refer to the file as you read it, whatever the other edits of the call do; all are written or none is.",
    "If lines moved since you read the file, tags are found where their lines went. STALE: a tagged line has changed; the error shows the current lines with fresh tags: send the edit again with them. CONFLICT: a range changed inside or two edits touch the same lines.",
  ].join(" "),
  apply_diff: [
    "Apply a patch to one or more files: SEARCH/REPLACE blocks (a line naming the file, then `<<<<<<< SEARCH`, the text to find, `=======`, the replacement, `>>>>>>> REPLACE`; a `:start_line:N` line after SEARCH gives a hint), or a unified diff (`--- a/PATH`, `+++ b/PATH`, `@@` hunks with or without line numbers).",
    "Hunks and blocks are located with the same tolerance as edit_file (indentation, whitespace, stale line numbers, a misremembered context line) and applied only where the place is certain. Either every change is written or none is.",
    "A failed block or hunk is reported with its code (NOT_FOUND with the closest lines, AMBIGUOUS with every candidate, PARSE with the line that could not be read) and nothing is written: fix that part and send the whole patch again.",
    "A diff from `--- /dev/null` creates a file; `--- a/PATH` followed by `+++ /dev/null` and no hunks deletes one. Paths are relative to the project root.",
  ].join(" "),
  apply_snippet: [
    "Change one existing file by writing only the code that changes: the new code, with every unchanged part left out and marked by a comment line such as `// ... existing code ...`.",
    "Include the unchanged line of the file just before and just after each change (or the signature of the function you change), so its place is certain; a function written whole without markers replaces the function of the same name.",
    "The snippet is merged into the file without guessing: where a part could go in several places, or a marker could stand for different lines, or the merge would delete code no marker covers, nothing is written and the error names the snippet line and the file's candidate lines: add the unchanged line that tells them apart and call again.",
  ].join(" "),
  create_file: [
    "Create a new text file with the given content (missing directories are created).",
    "Refuses if the file already exists and is not empty, so it never overwrites your user's work: to change an existing file, read it and use edit_file or apply_diff.",
  ].join(" "),
  undo_edit: [
    "Take back an earlier write of edit_file, edit_lines, apply_diff or create_file: the last write to `path`, or the write `id` names.",
    "Every file of that write is restored as it was (created files removed, deleted or moved files put back), all or nothing. Calling it again goes one write further back.",
    "STALE: a file changed since that write; the error shows how. Undo the later write first, or pass merge: true to take only that write's change out of the current file (CONFLICT when the two overlap).",
  ].join(" "),
};

const TITLES: Record<ToolName, string> = {
  read_file: "Read a file",
  edit_file: "Edit a file (replace text)",
  edit_lines: "Edit lines by tag",
  apply_diff: "Apply a diff or SEARCH/REPLACE blocks",
  create_file: "Create a file",
  undo_edit: "Undo an earlier write",
  apply_snippet: "Merge a code snippet with // ... existing code ... markers",
};

/**
 * `idempotentHint`: the same call again changes nothing more. edit_file and
 * apply_diff report an edit whose result already stands as already applied
 * (tested in agent-apis.test.ts); create_file refuses a file that exists.
 * edit_lines is not: a re-sent insert cites tags that still stand, and
 * inserts again.
 *
 * MCP reserves `destructiveHint: false` for tools that only add: edit_file
 * rewrites existing text (the reference filesystem server marks its edit_file
 * destructive too); create_file refuses to overwrite, so it only adds.
 */
const ANNOTATIONS: Record<ToolName, ToolAnnotations> = {
  read_file: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  edit_file: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  edit_lines: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  apply_diff: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  create_file: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  undo_edit: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  apply_snippet: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

/** JSON Schema of a zod schema, without the keys function-calling APIs trip over. */
function jsonSchemaOf(schema: z.ZodObject): JsonSchemaObject {
  const json = z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  delete json.$schema;
  return JSON.parse(JSON.stringify(json), (_key, value) =>
    // `.int()` adds the safe-integer bounds: noise in every schema the model reads.
    value && typeof value === "object" && value.maximum === Number.MAX_SAFE_INTEGER ? withoutKey(value, "maximum") : value,
  ) as JsonSchemaObject;
}

function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

const ORDER: readonly ToolName[] = ["read_file", "edit_file", "edit_lines", "apply_diff", "create_file", "undo_edit", "apply_snippet"];

/** Every tool, in the order a model should consider them. */
export const toolDefinitions: readonly ToolDefinition[] = Object.freeze(
  ORDER.map((name) =>
    Object.freeze({
      name,
      title: TITLES[name],
      description: DESCRIPTIONS[name],
      inputSchema: jsonSchemaOf(toolArgs[name]),
      outputSchema: ANNOTATIONS[name].readOnlyHint ? READ_OUTPUT_SCHEMA : WRITE_OUTPUT_SCHEMA,
      annotations: ANNOTATIONS[name],
    }),
  ),
);

/**
 * The same tools with schemas for OpenAI's `strict: true`: every property
 * required, the optional ones nullable (`runTool` reads `null` as absent).
 */
export const strictToolDefinitions: readonly ToolDefinition[] = Object.freeze(
  toolDefinitions.map((def) => Object.freeze({ ...def, inputSchema: strictSchemaOf(def.inputSchema) })),
);

/** Tools that only read. */
export const READ_ONLY_TOOLS: ReadonlySet<ToolName> = new Set(ORDER.filter((n) => ANNOTATIONS[n].readOnlyHint));

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(toolArgs, name);
}
