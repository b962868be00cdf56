/**
 * One applyEdits call in a fresh process, for file-layer.ts: prints the
 * process's peak RSS in bytes. Mode "none" loads the same modules and edits
 * nothing (the bare figure).
 */
import { applyEdits } from "../src/node.ts";

const [mode, dir = "", name = "", oldString = "", newString = ""] = process.argv.slice(2);
if (mode !== "none") {
  const result = await applyEdits(dir, [{ path: name, oldString, newString }], { dryRun: mode === "dry" });
  if (!result.ok) throw new Error("edit failed");
}
process.stdout.write(`${process.resourceUsage().maxRSS * 1024}\n`);
// Undone, so the next measurement starts from the same file.
if (mode === "write") await applyEdits(dir, [{ path: name, oldString: newString, newString: oldString }]);
