// The command line's program: bundled by the build into dist/cli/cli.cjs, which the executable
// (src/cli/bin.ts, built to dist/cli/bin.js) runs; the tests run this file through tsx.
// No top-level await: the bundle is CommonJS (see bin.ts).
import { isOneShot, useBaselineWasm } from "../syntax/wasm-tier.ts";
import { main } from "./main.ts";

// A one-shot command compiles tree-sitter with V8's baseline compiler only (syntax/wasm-tier.ts).
if (isOneShot(process.argv[2])) useBaselineWasm();

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
