/**
 * Edits of a file whose line breaks are all bare CRs (`Document.crLines`,
 * classic Mac OS). The document reads each CR as a line break; a model that
 * copied the file's text verbatim wrote those CRs into its edit, one that was
 * shown the file's lines wrote "\n". Both mean a line break here, so an op's
 * texts read "\r\n" and a bare "\r" as "\n" (inserted breaks are then written
 * as CR, like the file's own). In any other file a bare CR is text.
 */
import type { EditOp, Reading } from "./ops.ts";

const BREAK = /\r\n?/g;

function readingWithCrBreaks(r: Reading): Reading {
  if (!r.lines) return { ...r, find: r.find.replace(BREAK, "\n"), replace: r.replace.replace(BREAK, "\n") };
  // A hunk line with CRs in it is several lines of this file (a diff made by a tool that read it as one line).
  const find = r.lines.find.flatMap((l) => l.split(BREAK));
  const replace = r.lines.replace.flatMap((l) => l.split(BREAK));
  return { ...r, find: find.join("\n"), replace: replace.join("\n"), lines: { find, replace } };
}

/** The op as it applies to a file of CR-terminated lines. */
export function readCrAsBreaks(op: EditOp): EditOp {
  if (!opHasCr(op)) return op;
  return {
    ...op,
    readings: op.readings.map(readingWithCrBreaks),
    ...(op.spliceReading && { spliceReading: readingWithCrBreaks(op.spliceReading) }),
  };
}

function opHasCr(op: EditOp): boolean {
  const readings = op.spliceReading ? [...op.readings, op.spliceReading] : op.readings;
  return readings.some((r) => r.find.includes("\r") || r.replace.includes("\r"));
}

/** CRs then a line feed: one line break of a file whose breaks carry several CRs. */
const CRS_LF = /\r+\n/g;

function readingWithCrsLfBreaks(r: Reading): Reading {
  if (r.lines) return r;
  return { ...r, find: r.find.replace(CRS_LF, "\n"), replace: r.replace.replace(CRS_LF, "\n") };
}

/**
 * The op as it applies to a file with `\r\r\n` breaks (a CRLF file
 * converted to CRLF again; `Document.breakCrs` 2): the document reads each
 * such break as one line break, and a model that copied the file verbatim
 * wrote its CRs into the edit. `\r\r\n` there is a line break, so the find
 * text matches exactly (line-trimmed took it, dropped a whitespace-only line
 * outside the edit and wrote `\r\r\r\n`; issue 32). Breaks are written back
 * as the file's.
 */
export function readCrsLfAsBreaks(op: EditOp): EditOp {
  if (!op.readings.some((r) => !r.lines && (r.find.includes("\r\r\n") || r.replace.includes("\r\r\n")))) return op;
  return { ...op, readings: op.readings.map(readingWithCrsLfBreaks) };
}
