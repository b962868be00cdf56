/**
 * The file layer's view of the pure core. The file layer only needs a handful
 * of core functions; naming them in one interface keeps the dependency
 * explicit and lets the layer load each one from wherever it is exported
 * (the public entry first, then the format module that defines it). A name
 * that no module exports yet gets a stand-in that refuses with an
 * `INVALID_INPUT` error, so a build with a missing format still applies the
 * formats it has and says clearly what it cannot do.
 */

import { EditError } from "../errors.ts";

/** How one edit was matched, as the core reports it. */
export interface CoreMatch {
  strategy?: string;
  startLine?: number;
  endLine?: number;
  score?: number;
  [key: string]: unknown;
}

export interface CoreReplaceOptions {
  replaceAll?: boolean;
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
  applyPatch(content: string, patchText: string, options?: Record<string, unknown>): CorePatchResult;
  parsePatch(text: string): CoreFilePatch[];
  parseSearchReplaceFiles(input: string): CoreSearchReplaceFile[];
  parseSearchReplace(diffText: string): { search: string; replace: string }[];
  looksLikeSearchReplace(text: string): boolean;
  looksLikeUnifiedDiff(text: string): boolean;
  createPatch(oldText: string, newText: string, options?: Record<string, unknown>): string;
  /** Names that no core module exports yet (served by stand-ins). */
  missing: string[];
}

type EngineName = Exclude<keyof CoreEngine, "missing">;

/** Modules searched for each name, in order: the public entry, then the defining modules. */
const CORE_MODULES: readonly string[] = [
  "../index.ts",
  "../formats/str-replace.ts",
  "../formats/search-replace.ts",
  "../formats/search-replace-files.ts",
  "../formats/search-replace-parse.ts",
  "../formats/unified-parse.ts",
  "../formats/unified.ts",
  "../formats/unified-apply.ts",
  "../formats/create-patch.ts",
];

const NAMES: readonly EngineName[] = [
  "replace",
  "applySearchReplace",
  "applyPatch",
  "parsePatch",
  "parseSearchReplaceFiles",
  "parseSearchReplace",
  "looksLikeSearchReplace",
  "looksLikeUnifiedDiff",
  "createPatch",
];

// Detection must work even before the format modules exist, so these two
// have cheap heuristics of their own: a SEARCH marker line, or a `---`/`+++`
// header pair or `@@` hunk header.
const FALLBACKS: Partial<Record<EngineName, (...args: never[]) => unknown>> = {
  looksLikeSearchReplace: (text: string) => /^\s*<{5,}\s*SEARCH\b/m.test(text),
  looksLikeUnifiedDiff: (text: string) => /^@@.*@@/m.test(text) || /^--- .*\r?\n\+\+\+ /m.test(text),
};

function makeStandIn(name: string): (...args: unknown[]) => never {
  return () => {
    throw new EditError(
      "INVALID_INPUT",
      `This build of fuzzpatch cannot run ${name}(): the format module that provides it is not available. Send the edit in another format (str_replace, SEARCH/REPLACE or unified diff).`,
      { missing: name },
    );
  };
}

let cached: Promise<CoreEngine> | undefined;

/** Loads the core functions once per process. */
export function loadCoreEngine(): Promise<CoreEngine> {
  cached ??= buildEngine();
  return cached;
}

async function buildEngine(): Promise<CoreEngine> {
  const found = new Map<string, unknown>();
  for (const specifier of CORE_MODULES) {
    let mod: Record<string, unknown>;
    try {
      // A variable specifier keeps the type checker from requiring modules
      // that other engineers have not written yet.
      mod = (await import(new URL(specifier, import.meta.url).href)) as Record<string, unknown>;
    } catch (error) {
      if (isModuleMissing(error)) continue;
      throw error;
    }
    for (const name of NAMES) {
      if (!found.has(name) && typeof mod[name] === "function") found.set(name, mod[name]);
    }
  }
  const missing: string[] = [];
  const engine: Record<string, unknown> = {};
  for (const name of NAMES) {
    const fn = found.get(name) ?? FALLBACKS[name];
    if (fn === undefined) missing.push(name);
    engine[name] = fn ?? makeStandIn(name);
  }
  engine.missing = missing;
  return engine as unknown as CoreEngine;
}

function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}
