/**
 * How soon V8 optimises the engine's functions in a one-shot command given
 * a long response. A response of thousands of edits runs hundreds of the
 * engine's functions a few thousand times each: warm enough for V8 to
 * compile them with its optimising compiler (TurboFan, on background
 * threads), too few for that code to pay back before the process exits.
 * Measured with `perf record` on `fuzzpatch apply` of 2,000 one-line
 * SEARCH/REPLACE blocks on a 1 MB file (Node 20.20): a fifth of the
 * process's CPU was TurboFan compiling. With the profiler's interrupt
 * budget (how much bytecode a function runs between tier-up checks) raised
 * from V8's 67,584 to 6x that, only functions that stay hot are compiled:
 * the budget bench's inputs of many blocks took a fifth to a quarter less
 * CPU (cold processes, four interleaved runs each at load ~20 on 2 cores:
 * 2,000 one-line blocks on 1 MB 1,564 -> 1,160 ms, 1,237 `}` blocks
 * 1,292 -> 955, 2,000 typo blocks 1,856 -> 1,511; 3x: 0.80-0.86 of the
 * time, 15x: 0.72-0.84), the same output.
 *
 * Only past RESPONSE_BYTES: `node:v8` loads Node's stream modules (~9 ms
 * of CPU), which a small edit need not pay. The flag is set once, after
 * the executable's code cache is written under the flags it is read with
 * (cli/bin.ts, as syntax/wasm-tier.ts does).
 *
 * The MCP server raises it at start, whatever its calls: its first call of
 * 2,000 blocks paid the same cold compiling (1,992 `}` blocks: ~1,000-1,100
 * ms of CPU, ~670 with the raised budget, in one process), and the
 * functions a session keeps calling still get hot: `npm run bench -- --mcp`
 * (the 9 MB file, one edit after another) showed no difference in its
 * per-edit medians beyond the run-to-run noise.
 */
import { BEFORE_V8_FLAGS } from "../syntax/wasm-tier.ts";

/** Responses shorter than this keep V8's default (about 1,500 one-line blocks take 100 kB). */
const RESPONSE_BYTES = 65_536;
const INTERRUPT_BUDGET = 6 * 67_584;

let done = false;

/** Raises V8's interrupt budget for the rest of this process, when `response` is long enough to pay for it (always without one). */
export async function slowerTierUp(response?: string): Promise<void> {
  if (done || (response !== undefined && response.length < RESPONSE_BYTES)) return;
  done = true;
  try {
    const v8 = await import("node:v8");
    const beforeFlags = (globalThis as Record<symbol, unknown>)[Symbol.for(BEFORE_V8_FLAGS)];
    if (typeof beforeFlags === "function") beforeFlags();
    v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  } catch {
    // A runtime without node:v8 keeps its default: the same results.
  }
}
