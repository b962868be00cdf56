import { EditError } from "../errors.ts";

/** An edit of a file that does not exist, how this format would create it, and a path that may be meant ("did you mean ...? use -p1"). */
export function missingFile(path: string, howToCreate: string, hint?: string): EditError {
  const check = hint === undefined ? "otherwise check the path" : `otherwise check the path (${hint})`;
  return new EditError("NOT_FOUND", `${path} does not exist. To create it, send ${howToCreate}; ${check}.`, {
    path,
    ...(hint !== undefined && { suggestion: hint }),
  });
}
