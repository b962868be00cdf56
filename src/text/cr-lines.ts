/**
 * Whether `text` is made of CR-terminated lines (classic Mac OS): it has CRs
 * and no "\n" at all. Its CRs are then its line breaks, for the document
 * model, for diffs of it and for views of it; a CR in a text that has "\n"
 * breaks is text (a stray CR inside a line).
 */
export function hasCrLines(text: string): boolean {
  // "\n" first: an LF file has one near its start, so it is never scanned whole for a CR.
  return !text.includes("\n") && text.includes("\r");
}
