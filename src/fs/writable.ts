/**
 * Whether the user running fuzzpatch may write a file. A replacement by
 * rename needs only the directory to be writable: a root-owned 0644 file in a
 * directory the user can write would be replaced (and change owner). An
 * editor refuses such a file; so does the file layer, before anything is
 * written. The kernel decides, by opening the file for writing without
 * truncating it (permission bits, owner, ACLs, an immutable flag, a read-only
 * file system): nothing is changed by the open.
 */

import { closeSync, constants, openSync } from "node:fs";
import { EditError } from "../errors.ts";
import { NOFOLLOW, NONBLOCK } from "./fd-place.ts";

const REFUSED = new Set(["EACCES", "EPERM", "EROFS", "ETXTBSY"]);

/** Throws `READ_ONLY` when the existing file at `abs` may not be written by this process. */
export async function checkWritable(abs: string, rel: string): Promise<void> {
  try {
    closeSync(openSync(abs, constants.O_WRONLY | NOFOLLOW | NONBLOCK));
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (!REFUSED.has(code)) return; // gone or swapped: the write's own checks report it
    const who = typeof process.getuid === "function" ? ` (uid ${process.getuid()})` : "";
    throw new EditError(
      "READ_ONLY",
      `${rel} is not writable by the user running fuzzpatch${who}: ${code}. Refusing to replace a file you could not write yourself; nothing was written. Change its permissions, or leave this file out.`,
      { path: rel, reason: code },
    );
  }
}
