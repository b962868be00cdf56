/**
 * Every test process journals into a temporary directory of its own, never
 * the user's state directory: the CLI, the MCP server and runTool record
 * writes by default, and the processes tests spawn inherit this variable.
 * Imported for its effect by temp-tree.ts and cli-run.ts (what every test
 * that writes files uses); removed after the test file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";

if (process.env.FUZZPATCH_JOURNAL_SANDBOX === undefined) {
  const dir = mkdtempSync(path.join(tmpdir(), "fuzzpatch-test-journal-"));
  process.env.FUZZPATCH_JOURNAL_SANDBOX = dir;
  process.env.FUZZPATCH_JOURNAL_DIR = path.join(dir, "journal");
  // Only the process that made it removes it (a spawned test process inherits the variables).
  after(() => rmSync(dir, { recursive: true, force: true }));
}

/** The journal directory of this test process. */
export const TEST_JOURNAL_DIR = process.env.FUZZPATCH_JOURNAL_DIR as string;
