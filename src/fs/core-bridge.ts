/**
 * The file layer's view of the pure core: the handful of core functions it
 * uses, named in one interface so the dependency stays explicit and tests can
 * hand the layer a different engine.
 */

import type { EditError } from "../errors.ts";
import { createPatch } from "../formats/create-patch.ts";
import { applySearchReplace } from "../formats/search-replace.ts";
import { looksLikeSearchReplace, parseSearchReplaceFiles } from "../formats/search-replace-files.ts";
import { parseSearchReplace } from "../formats/search-replace-parse.ts";
import { replace } from "../formats/str-replace.ts";
import { applyPatch } from "../formats/unified-apply.ts";
import { looksLikeUnifiedDiff, parsePatch } from "../formats/unified-parse.ts";

/** How one edit was matched, as the core reports it. */
export interface CoreMatch {
  strategy?: string;
  startLine?: number;
  endLine?: number;
  score?: number;
  fuzzy?: boolean;
  /** Set when the user picked this place among ambiguous candidates (--interactive). */
  chosen?: boolean;
}

export interface CoreReplaceOptions {
  replaceAll?: boolean;
  replaceAllAdvice?: string;
  preset?: "default" | "opencode";
}

export interface CoreReplaceResult {
  content: string;
  match: CoreMatch;
}

export interface CoreSearchReplaceResult {
  content: string;
  applied: CoreMatch[];
  failed: EditError[];
}

/** A place an ambiguous hunk may go, offered to `resolveAmbiguity`; 1-based inclusive lines. */
export interface CoreHunkCandidate {
  startLine: number;
  endLine: number;
}

export interface CorePatchOptions {
  preset?: "default" | "opencode";
  /** Picks among the places of an ambiguous hunk (index), or refuses (undefined). Synchronous. */
  resolveAmbiguity?: (candidates: readonly CoreHunkCandidate[], hunk: { index: number; line: number }) => number | undefined;
}

export interface CorePatchResult {
  content: string;
  hunks: CoreMatch[];
}

/** The header facts of one file section of a unified diff. */
export interface CoreFilePatch {
  oldPath?: string;
  newPath?: string;
  isNew?: boolean;
  isDeleted?: boolean;
  hunks?: unknown[];
}

/** SEARCH/REPLACE blocks of one file, as parsed from a multi-file response. */
export interface CoreSearchReplaceFile {
  path: string;
  diffs: { content: string; startLine?: number }[];
}

export interface CoreEngine {
  replace(content: string, oldString: string, newString: string, options?: CoreReplaceOptions): CoreReplaceResult;
  applySearchReplace(content: string, diffText: string, options?: Record<string, unknown>): CoreSearchReplaceResult;
  applyPatch(content: string, patchText: string, options?: CorePatchOptions): CorePatchResult;
  parsePatch(text: string): CoreFilePatch[];
  parseSearchReplaceFiles(input: string, options?: { defaultPath?: string }): CoreSearchReplaceFile[];
  parseSearchReplace(diffText: string): { search: string; replace: string }[];
  looksLikeSearchReplace(text: string): boolean;
  looksLikeUnifiedDiff(text: string): boolean;
  createPatch(oldText: string, newText: string, options?: Record<string, unknown>): string;
}

const engine: CoreEngine = {
  replace,
  applySearchReplace: (content, diffText, options) => applySearchReplace(content, diffText, options),
  applyPatch: (content, patchText, options) => applyPatch(content, patchText, options),
  parsePatch,
  parseSearchReplaceFiles: (input, options) => parseSearchReplaceFiles(input, options),
  parseSearchReplace,
  looksLikeSearchReplace,
  looksLikeUnifiedDiff,
  createPatch: (oldText, newText, options) => createPatch(oldText, newText, options),
};

/** The core functions the file layer uses (async for callers written against lazy loading). */
export function loadCoreEngine(): Promise<CoreEngine> {
  return Promise.resolve(engine);
}
