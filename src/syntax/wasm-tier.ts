/**
 * Which of V8's WebAssembly compilers runs tree-sitter. By default V8
 * compiles every function with its baseline compiler (Liftoff) and
 * recompiles the hot ones with its optimising compiler (TurboFan) on
 * background threads: a parser loop gets hot within one small parse, so a
 * process that checks one file pays ~250 ms of CPU for code it hardly runs
 * again. A one-shot process (the CLI's commands, but the MCP server) asks for
 * the baseline compiler only, before the runtime is compiled.
 *
 * Measured (Node 20.20, 2 shared cores under load, one fresh process each,
 * load + init + a parse and an incremental re-parse of a generated Python
 * file, CPU at exit, three runs): 300 lines 480 -> 230 ms; 10,000 lines
 * 750 -> 480 ms; 200,000 lines 5.35 -> 5.86 s (+10 %: there the optimised
 * code would pay for itself). Warm, in a long-lived process, baseline code
 * parses ~1.5x slower, which is why the server and the library keep the
 * default. No cache of compiled WebAssembly exists on Node 20 (`v8.serialize`
 * of a `WebAssembly.Module` writes a 2-byte in-process reference, and
 * `module.enableCompileCache` is JavaScript only, Node 22).
 *
 * `v8.setFlagsFromString` is read by every later WebAssembly compilation;
 * it is called once, before tree-sitter's first. `node:v8` is imported only
 * then: it loads Node's stream modules (~20 ms), which a command that checks
 * no file never pays.
 */

/** `Symbol.for` key of a function the executable registers, called before V8's flags change (cli/bin.ts). */
export const BEFORE_V8_FLAGS = "fuzzpatch.beforeV8Flags";

let baseline = false;

/**
 * Commands that run for a whole session, or over many files: they keep V8's optimising compiler
 * (`batch` weighs ties by syntax case after case; with `--jobs 0` it parses in the CLI's own thread).
 */
const LONG_LIVED = new Set(["mcp", "batch"]);

/** Whether a CLI command (its first argument) is one-shot: it asks for the baseline compiler only. */
export function isOneShot(command: string | undefined): boolean {
  return !LONG_LIVED.has(command ?? "");
}

/** Asks for the baseline WebAssembly compiler only, from the next load of the syntax layer on (FUZZPATCH_WASM_OPTIMIZE=1 keeps the default). */
export function useBaselineWasm(env: Readonly<Record<string, string | undefined>> = process.env): void {
  baseline = env.FUZZPATCH_WASM_OPTIMIZE !== "1";
}

/** Whether the baseline compiler was asked for (and not yet applied). */
export function baselineWasmAsked(): boolean {
  return baseline;
}

/** Sets V8's flag when asked; called once, before tree-sitter's WebAssembly is compiled. */
export async function applyWasmTier(): Promise<void> {
  if (!baseline) return;
  baseline = false;
  try {
    const v8 = await import("node:v8");
    // The executable's code cache is written first, under the flags it will be read with (cli/bin.ts).
    const beforeFlags = (globalThis as Record<symbol, unknown>)[Symbol.for(BEFORE_V8_FLAGS)];
    if (typeof beforeFlags === "function") beforeFlags();
    v8.setFlagsFromString("--liftoff-only");
  } catch {
    // A runtime without node:v8 keeps its default: slower to start, the same results.
  }
}
