/**
 * Whether a failed edit was in fact applied before: the engine's NOT_FOUND
 * carries `detail.alreadyApplied` (its replacement is in the file exactly
 * once, its find text nowhere), a patch carries every hunk's failure in
 * `detail.failures`, and a format may throw ALREADY_APPLIED itself (a file
 * to create that already holds exactly that text). One rule for every
 * format, so that running a response a second time changes nothing and is
 * not a failure.
 */
import { EditError, type EditErrorDetail } from "../errors.ts";

interface Place {
  startLine: number;
  endLine: number;
}

function placeOf(detail: EditErrorDetail): Place | undefined {
  const at = detail.alreadyApplied as Place | undefined;
  return at && typeof at.startLine === "number" && typeof at.endLine === "number" ? at : undefined;
}

/**
 * The ALREADY_APPLIED note for `error`, or undefined when the edit really
 * failed. A patch counts only when every one of its hunks is already there:
 * some applied and some not is a real mismatch the model must see.
 */
export function alreadyAppliedNote(error: EditError, unit: string): EditError | undefined {
  const failures = error.detail.failures;
  if (Array.isArray(failures)) {
    const places = (failures as EditErrorDetail[]).map((f) => (f.code === "ALREADY_APPLIED" ? (f as unknown as Place) : f.code === "NOT_FOUND" ? placeOf(f) : undefined));
    if (places.length === 0 || places.length !== error.detail.hunks || places.some((p) => p === undefined)) return undefined;
    const lines = (places as Place[]).map((p) => `${p.startLine}-${p.endLine}`).join(", ");
    return new EditError("ALREADY_APPLIED", `every ${unit} is already applied (its new text is at lines ${lines}); nothing to do.`, {
      ...(error.detail.index !== undefined && { index: error.detail.index }),
      places,
    });
  }
  if (error.code === "ALREADY_APPLIED") return error;
  const place = error.code === "NOT_FOUND" ? placeOf(error.detail) : undefined;
  if (!place) return undefined;
  return new EditError("ALREADY_APPLIED", `already applied (its new text is at lines ${place.startLine}-${place.endLine}); nothing to do.`, {
    ...(error.detail.index !== undefined && { index: error.detail.index }),
    ...place,
  });
}
