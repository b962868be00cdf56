/**
 * A transaction scenario shared by test/fs.test.ts and test/fs-no-proc.test.ts
 * (the same transaction, with and without /proc).
 */
import assert from "node:assert/strict";
import { chmod } from "node:fs/promises";
import path from "node:path";
import { EditError } from "../../src/errors.ts";
import { commitChanges, type PlannedChange } from "../../src/fs/transaction.ts";
import { makeTree, snapshot } from "./temp-tree.ts";

/** A write, a creation in new directories and a deletion, then a failing write: every file is put back, modes included. */
export async function failureMidwayRestores(): Promise<void> {
  const t = await makeTree({ "one.txt": "one\n", "gone.txt": "gone\n", "three.txt": "three\n" });
  await chmod(path.join(t.root, "one.txt"), 0o640);
  const before = await snapshot(t.base);
  const abs = (p: string) => path.join(t.root, p);
  const changes: PlannedChange[] = [
    { rel: "one.txt", abs: abs("one.txt"), kind: "write", bytes: Buffer.from("ONE\n"), original: Buffer.from("one\n"), mode: 0o640 },
    { rel: "new/dir/n.txt", abs: abs("new/dir/n.txt"), kind: "create", bytes: Buffer.from("n\n"), original: Buffer.alloc(0) },
    { rel: "gone.txt", abs: abs("gone.txt"), kind: "delete", bytes: Buffer.alloc(0), original: Buffer.from("gone\n"), mode: 0o644 },
    { rel: "three.txt", abs: abs("three.txt"), kind: "write", bytes: Buffer.from("THREE\n"), original: Buffer.from("three\n"), mode: 0o644 },
  ];
  await assert.rejects(
    commitChanges(changes, {
      beforeWrite: (c) => {
        if (c.rel === "three.txt") throw new Error("injected failure");
      },
    }),
    (e: unknown) => e instanceof EditError && e.code === "IO" && e.detail.path === "three.txt" && /restored/.test(e.message),
  );
  assert.deepEqual(await snapshot(t.base), before);
}
