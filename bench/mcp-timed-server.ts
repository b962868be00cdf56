/**
 * `fuzzpatch mcp` for file-layer.ts, with the engine's part of each edit
 * (the "fuzzpatch:engine" channel of fs/apply-edits.ts: matching and
 * splicing, history included) appended to the file named by the first
 * argument, one figure in ms a line. The rest of the arguments are the CLI's.
 */
import { appendFileSync } from "node:fs";
import { subscribe } from "node:diagnostics_channel";
import { main } from "../src/cli/main.ts";

const [log = "", ...args] = process.argv.slice(2);
subscribe("fuzzpatch:engine", (message) => appendFileSync(log, `${(message as { ms: number }).ms}\n`));
process.exitCode = await main(args);
