import { EditError } from "../errors.ts";

/** An edit of a file that does not exist, and how this format would create it. */
export function missingFile(path: string, howToCreate: string): EditError {
  return new EditError("NOT_FOUND", `${path} does not exist. To create it, send ${howToCreate}; otherwise check the path.`, { path });
}
