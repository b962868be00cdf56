/**
 * One of two processes racing on the same files (test/reliability.test.ts):
 * for each round it waits for the other process at a file-system barrier,
 * then applies its edit to `round-<r>.txt` and prints one JSON line with
 * what it reported.
 *
 * Usage: node --import tsx concurrent-writer.ts <root> <me> <other> <rounds> <old> <new>
 */
import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { applyEdits } from "../../src/node.ts";

const [root = "", me = "", other = "", roundsText = "0", oldString = "", newString = ""] = process.argv.slice(2);
const barrier = path.join(root, "..", "barrier");

async function waitFor(file: string): Promise<void> {
  for (;;) {
    try {
      await access(file);
      return;
    } catch {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

for (let round = 0; round < Number(roundsText); round++) {
  await writeFile(path.join(barrier, `${me}-${round}`), "");
  await waitFor(path.join(barrier, `${other}-${round}`));
  const result = await applyEdits(root, [{ path: `round-${round}.txt`, oldString, newString }]);
  const codes = result.errors.map((e) => e.code);
  process.stdout.write(`${JSON.stringify({ round, ok: result.ok, written: result.written, codes })}\n`);
}
