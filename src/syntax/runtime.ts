/**
 * Loads tree-sitter (web-tree-sitter: WebAssembly, no native build) and the
 * grammars, lazily: nothing here runs until a file of a known language is
 * checked, so the CLI's start for other work does not pay for it (the CLI
 * bundle keeps web-tree-sitter external, and reaches this module through a
 * dynamic import). Each load happens once per process; concurrent callers
 * share the promise.
 *
 * Measured on this machine (Node 20, fresh process, median of 5; docs/syntax.md):
 * the runtime's import and init ~45 ms; a grammar 5 ms (JSON, HTML) to 88 ms
 * (C#, 5.3 MB of wasm).
 *
 * Where a grammar is: the build writes `dist/grammars/<file>.br` (brotli:
 * 19.7 MB of wasm ship as 1.3 MB; decompressing the largest takes ~13 ms,
 * about what reading it raw costs). `../grammars/` from this module is that
 * folder both for the library (dist/syntax/runtime.js) and the CLI bundle
 * (dist/cli/cli.cjs). Run from source (tests, benchmarks) there is no such
 * folder, and the grammar package's own .wasm in node_modules is read.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import type { Language, Parser } from "web-tree-sitter";
import { EditError } from "../errors.ts";
import { type GrammarSource, LANGUAGES, type SyntaxLanguage } from "./languages.ts";
import { applyWasmTier } from "./wasm-tier.ts";

type Runtime = typeof import("web-tree-sitter");

let runtime: Promise<Runtime> | undefined;
const parsers = new Map<SyntaxLanguage, Promise<Parser>>();
/** The parsers whose load has finished, for callers that cannot wait (`loadedParser`). */
const ready = new Map<SyntaxLanguage, Parser>();

/** The web-tree-sitter module, imported and initialised once. */
export function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    await applyWasmTier();
    const mod = await import("web-tree-sitter");
    await mod.Parser.init();
    return mod;
  })();
  return runtime;
}

/** The bytes of a grammar: the shipped brotli file, else (from source) the grammar package's .wasm. */
export function grammarBytes(source: GrammarSource): Uint8Array {
  const here = dirname(fileURLToPath(import.meta.url));
  const shipped = join(here, "..", "grammars", `${source.file}.br`);
  if (existsSync(shipped)) return brotliDecompressSync(readFileSync(shipped));
  for (let dir = here; ; dir = dirname(dir)) {
    const file = join(dir, "node_modules", source.pkg, source.file);
    if (existsSync(file)) return readFileSync(file);
    if (dirname(dir) === dir) break;
  }
  throw new EditError("IO", `The ${source.pkg} grammar (${source.file}) is not installed with fuzzpatch: reinstall the package.`);
}

/** Loads a language's grammar. */
export async function loadLanguage(language: SyntaxLanguage): Promise<Language> {
  const mod = await loadRuntime();
  const source = LANGUAGES[language].grammar;
  try {
    return await mod.Language.load(grammarBytes(source));
  } catch (error) {
    if (error instanceof EditError) throw error;
    // A grammar of another ABI than the runtime's fails here with a bare message.
    throw new EditError("IO", `The ${source.pkg} grammar (${source.file}) did not load: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A parser set to `language`, one per language per process (a parse is
 * synchronous, so callers never interleave on it). A failed load is not
 * cached: the next call tries again.
 */
export function loadParser(language: SyntaxLanguage): Promise<Parser> {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = (async () => {
      const [mod, grammar] = await Promise.all([loadRuntime(), loadLanguage(language)]);
      const p = new mod.Parser();
      p.setLanguage(grammar);
      ready.set(language, p);
      return p;
    })();
    parsers.set(language, parser);
    parser.catch(() => parsers.delete(language));
  }
  return parser;
}

/** The parser of `language` when an earlier `loadParser` has finished loading it, else undefined (nothing is loaded). */
export function loadedParser(language: SyntaxLanguage): Parser | undefined {
  return ready.get(language);
}
