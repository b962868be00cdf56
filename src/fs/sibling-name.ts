/** Longest file name most file systems accept, in bytes. */
const NAME_MAX = 255;

/**
 * A sibling name for a helper file (temporary copy, lock): the target's name
 * cut so that the whole name stays within NAME_MAX bytes (a 240-byte file
 * name plus a suffix would not be creatable).
 */
export function siblingName(base: string, suffix: string): string {
  const room = NAME_MAX - Buffer.byteLength(suffix) - 1;
  let cut = base;
  if (Buffer.byteLength(cut) > room) {
    // Cut on bytes; a character cut in half decodes as U+FFFD, dropped.
    cut = Buffer.from(base).subarray(0, room).toString("utf8").replace(/\uFFFD+$/, "");
  }
  return `.${cut}${suffix}`;
}
