/**
 * The file-system entry of fuzzpatch (Node only). The pure core is
 * `src/index.ts`; this adds reading, checking and atomically writing files.
 */

export { applyEdits } from "./fs/apply-edits.ts";
export { DEFAULT_FILE_CACHE_BYTES, FileCache } from "./fs/file-cache.ts";
export { hashBytes } from "./fs/read-file.ts";
export { undoLast, undoWrite } from "./fs/undo.ts";
export type {
  AmbiguityChoice,
  ApplyEditsOptions,
  ApplyEditsResult,
  EditReport,
  ExpectedFile,
  FileReport,
  FileStatus,
} from "./fs/apply-edits.ts";
export type { EditFormat, ResponseFormat } from "./formats/index.ts";
export type { StructuredEdit } from "./formats/str-replace-format.ts";
export type { TransactionHooks, PlannedChange } from "./fs/transaction.ts";
export type { JournalOptions, JournalRecord } from "./fs/journal.ts";
export type { UndoFile, UndoOptions, UndoResult } from "./fs/undo.ts";
export type { SyntaxMode, VerifyMode } from "./fs/syntax-check.ts";
export type { SyntaxIssue, SyntaxReport } from "./syntax/report.ts";
export type { SyntaxLanguage } from "./syntax/languages.ts";
// Streaming: apply a response while the model writes it (src/stream/).
export { createStreamingApply } from "./stream/streaming-apply.ts";
export type { StreamingApply, StreamingApplyOptions, StreamingResult } from "./stream/streaming-apply.ts";
export type { DoneEvent, EditCompleteEvent, EditStartedEvent, LocatedEvent, StreamEvent } from "./stream/events.ts";
// Batch: many cases on worker threads, results in input order (src/batch/).
export { applyMany } from "./batch/apply-many.ts";
export type { ApplyManyOptions } from "./batch/apply-many.ts";
export type { BatchCase, BatchCaseOptions, BatchEditReport, BatchError, BatchReport, BatchResult } from "./batch/apply-case.ts";
