/**
 * A V4A update that moves its file (`*** Move to: q`) or a git diff that
 * renames it (`rename to q`), sent again after it was applied: the old path
 * is gone and the new one holds the result. The edit is read as an update of
 * the new path without the move, so its chunks or hunks are found already
 * applied there instead of failing on a missing file (a git rename without
 * hunks is then reported already applied: udiff-format.ts).
 */
import { access } from "node:fs/promises";
import type { UdiffPayload } from "../formats/udiff-format.ts";
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
    const moveTo = movedTo(edit);
    if (moveTo === undefined || (await exists(realRoot, edit.path)) || !(await exists(realRoot, moveTo))) {
      out.push(edit);
      continue;
    }
    const op = edit.payload as V4APayload;
    if (edit.format === "v4a" && op.kind === "update") {
      const { moveTo: _, ...rest } = op;
      out.push({ ...edit, path: moveTo, payload: rest });
      continue;
    }
    const p = edit.payload as UdiffPayload;
    const { moveTo: __, ...git } = p.git ?? {};
    const { writtenPath: ___, ...rest } = edit;
    out.push({ ...rest, path: moveTo, payload: { ...p, git: { ...git, movedFrom: edit.path } } });
  }
  return out;
}

/** Where an edit moves its file: a V4A update's `*** Move to:`, a git diff's `rename to` (not created or deleted). */
function movedTo(edit: FileEdit): string | undefined {
  if (edit.format === "v4a") {
    const op = edit.payload as V4APayload;
    return op.kind === "update" ? op.moveTo : undefined;
  }
  if (edit.format !== "udiff") return undefined;
  const p = edit.payload as UdiffPayload;
  return p.isNew || p.isDeleted ? undefined : p.git?.moveTo;
}
