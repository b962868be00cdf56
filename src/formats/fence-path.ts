/**
 * The file a fence names in its info string. Models (and editors' chat
 * panels) label a code block with its file instead of a line before it:
 *
 *   fence-open := ("```" | "~~~") ( lang ":" path | path | lang " " path )
 *
 *   ```ts:src/a.ts      the language, a colon, the path (Cursor, Continue)
 *   ```src/a.ts         the path alone
 *   ```python app/x.py  the language, a space, the path
 *
 * Strictness: the path part must read as a path on its own (a dot or a
 * slash, or a known dotless file name: see `readPathLine`), so a language
 * name alone ("```js", "```diff") names no file. Case is kept: paths are
 * case-sensitive, unlike the info string `Fence.info` holds.
 */
import { readPathLine } from "./search-replace-files.ts";

/** The language and path a fence-open line names, or undefined when it names no file. */
export function fencePath(openLine: string): { lang: string; path: string } | undefined {
  const t = openLine.trim();
  const marker = /^(`{3,}|~{3,})/.exec(t);
  if (!marker) return undefined;
  const info = t.slice(marker[0].length).trim();
  if (info === "" || info.includes("`")) return undefined;
  const colon = info.indexOf(":");
  // "ts:src/a.ts" (but not "C:\x" or "://"): a short language word before the colon.
  if (colon > 0 && /^[A-Za-z0-9_+#-]{1,20}$/.test(info.slice(0, colon))) {
    const path = readPathLine(info.slice(colon + 1));
    if (path !== undefined) return { lang: info.slice(0, colon).toLowerCase(), path };
  }
  const words = info.split(/\s+/);
  if (words.length === 1) {
    const path = readPathLine(info);
    return path === undefined ? undefined : { lang: "", path };
  }
  if (words.length === 2 && /^[A-Za-z0-9_+#-]{1,20}$/.test(words[0] as string)) {
    const path = readPathLine(words[1] as string);
    if (path !== undefined) return { lang: (words[0] as string).toLowerCase(), path };
  }
  return undefined;
}
