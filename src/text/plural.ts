/** "1 edit", "2 edits": a count with its noun, for messages (no "edit(s)"). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
