/**
 * Morph's apply input: the file and the snippet in one text.
 *
 *   morph := ws* ("<instruction>" text "</instruction>")? ws* "<code>" text "</code>" ws* "<update>" text "</update>" ws*
 *          | ws* "<update>" text "</update>"
 *
 * Leniencies: the instruction and code parts in either order before the update, and `<code>` left out (the file is
 * read from disk, or handed in, anyway). One leading and one trailing line
 * break inside a tag are the tag's, not the text's.
 */

export interface MorphInput {
  instruction?: string;
  code?: string;
  update: string;
}

function tag(text: string, name: string): string | undefined {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const a = text.indexOf(open);
  if (a === -1) return undefined;
  const b = text.lastIndexOf(close);
  if (b < a) return undefined;
  return text.slice(a + open.length, b).replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

/** The parts of a Morph input, or undefined when the text is not one (no `<update>…</update>` around the rest). */
export function readMorphInput(text: string): MorphInput | undefined {
  const t = text.trim();
  if (!t.startsWith("<") || !t.endsWith("</update>")) return undefined;
  const update = tag(t, "update");
  if (update === undefined) return undefined;
  // The file may hold `<code>` itself (HTML): only the text before `<update>` is searched for it.
  const head = t.slice(0, t.indexOf("<update>"));
  const code = tag(head, "code");
  const instruction = tag(head, "instruction");
  return { update, ...(code !== undefined && { code }), ...(instruction !== undefined && { instruction }) };
}
