/**
 * The budget bench's temporary trees and journal directory, without
 * node:test: test/helpers/temp-tree.ts registers its clean-up with
 * node:test's `after`, which made the bench print a TAP footer. Imported
 * first, so that test/helpers/journal-sandbox.ts (through cli-run.ts) finds
 * the journal directory set and registers nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const dir = mkdtempSync(path.join(tmpdir(), "fuzzpatch-bench-"));
process.env.FUZZPATCH_JOURNAL_SANDBOX = dir;
process.env.FUZZPATCH_JOURNAL_DIR = path.join(dir, "journal");
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

let trees = 0;
/** A fresh directory holding `root/` with `files`, removed when the bench exits. */
export function benchTree(files: Record<string, string>): { base: string; root: string } {
  const base = path.join(dir, `tree-${trees++}`);
  const root = path.join(base, "root");
  mkdirSync(root, { recursive: true });
  for (const [rel, content] of Object.entries(files)) writeFileSync(path.join(root, rel), content);
  return { base, root };
}
