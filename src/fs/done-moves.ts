/**
 * A V4A update that moves its file (`*** Move to: q`), sent again after it
 * was applied: the old path is gone and the new one holds the result. The
 * edit is read as an update of the new path without the move, so its chunks
 * are found already applied there instead of failing on a missing file.
 */
import { access } from "node:fs/promises";
import type { V4APayload } from "../formats/v4a-format.ts";
import type { FileEdit } from "../formats/types.ts";
import { resolveSafePath } from "./safe-path.ts";

async function exists(realRoot: string, path: string): Promise<boolean> {
  try {
    await access((await resolveSafePath(realRoot, path)).abs);
    return true;
  } catch {
    return false;
  }
}

export async function followDoneMoves(realRoot: string, edits: readonly FileEdit[]): Promise<FileEdit[]> {
  const out: FileEdit[] = [];
  for (const edit of edits) {
    const op = edit.format === "v4a" ? (edit.payload as V4APayload) : undefined;
    if (op?.kind !== "update" || op.moveTo === undefined || (await exists(realRoot, edit.path)) || !(await exists(realRoot, op.moveTo))) {
      out.push(edit);
      continue;
    }
    const { moveTo, ...rest } = op;
    out.push({ ...edit, path: moveTo, payload: rest });
  }
  return out;
}
