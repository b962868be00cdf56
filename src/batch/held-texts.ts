/**
 * The file texts a batch worker holds from its last cases, and the pool's
 * mirror of them: a case whose text the worker already holds is posted
 * without it, naming the held text by its place instead.
 *
 * Why: a pipeline's cases come in runs on one file (several blocks of one
 * response, a model's tries at one file): in `../shared/real-edits`, 290 of
 * the 978 cases have the text of one of the 8 cases before them. Posting a
 * case clones its text twice (serialised in the pool's thread, a new string
 * in the worker's heap, which its collector then handles): 50 kB a case on
 * average there, 80-130 µs of the pool thread's CPU a case and 30-40 µs of
 * a worker's, measured by posting the 978 cases to two workers that do
 * nothing (load ~4).
 *
 * Both sides apply the same steps in the same order (the pool when it posts
 * a case, the worker when it reads it; messages arrive in order), so the
 * pool's mirror always equals what the worker holds.
 */

/** Texts held per worker: the 8 before a case hold 290 of the real edits' 978 texts, 16 hold 30 more. */
export const HELD_TEXTS = 8;
/**
 * Characters held per worker at most (each side: the worker, and the pool's mirror, which keeps the
 * caller's strings alive): 8 texts of a 9 MB file would otherwise be ~150 MB a side.
 */
export const HELD_CHARS = 32 * 2 ** 20;

/** The last texts used, oldest first: `find` a text, `use` it (sent or named), and both sides stay equal. */
export class HeldTexts {
  private readonly texts: string[] = [];
  private chars = 0;

  constructor(
    private readonly size = HELD_TEXTS,
    private readonly maxChars = HELD_CHARS,
  ) {}

  /** Where `text` is held (the same string at once, an equal one by one comparison of its characters), or -1. */
  find(text: string): number {
    for (let k = this.texts.length - 1; k >= 0; k--) {
      const held = this.texts[k] as string;
      if (held.length === text.length && held === text) return k;
    }
    return -1;
  }

  /** The text held at `index` (a place `find` gave on the other side), now the newest. */
  take(index: number): string | undefined {
    const text = this.texts[index];
    if (text === undefined) return undefined;
    this.texts.splice(index, 1);
    this.texts.push(text);
    return text;
  }

  /** Holds `text` (just sent whole) as the newest, letting the oldest go past the size or the characters (the newest stays). */
  add(text: string): void {
    this.texts.push(text);
    this.chars += text.length;
    while (this.texts.length > 1 && (this.texts.length > this.size || this.chars > this.maxChars)) this.chars -= (this.texts.shift() as string).length;
  }
}
