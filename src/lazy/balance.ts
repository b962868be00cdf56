/**
 * Bracket balance outside comments and strings, as a text-only stand-in for
 * "the merge introduces syntax errors the file did not have": a merge that
 * keeps a `{` whose `}` a marker was meant to keep (or the reverse) changes
 * the balance; a correct merge keeps it, since it changes only what the
 * snippet changes and models write balanced code. Compared before and after,
 * so brackets the scanner misreads (a regex literal, a heredoc) cancel out.
 */

const PROSE = /\.(?:md|markdown|mdx|txt|rst|adoc|org|ya?ml|toml|ini|cfg|csv|tsv|log|tex)$/i;

/** Whether bracket balance means anything for this file (not prose or configuration). */
export function checksBalance(path: string | undefined, language: string | undefined): boolean {
  if (language !== undefined) return !/^(?:markdown|md|text|plaintext|yaml|toml|ini|rst)$/i.test(language);
  return path === undefined || !PROSE.test(path);
}

/** Net count of `(`, `[`, `{` minus their closers, outside comments and strings. */
export function bracketBalance(text: string, hashComments: boolean): [number, number, number] {
  const net: [number, number, number] = [0, 0, 0];
  let k = 0;
  const n = text.length;
  while (k < n) {
    const ch = text[k] as string;
    if (ch === "/" && text[k + 1] === "/") {
      const e = text.indexOf("\n", k);
      k = e === -1 ? n : e;
    } else if (ch === "#" && hashComments) {
      const e = text.indexOf("\n", k);
      k = e === -1 ? n : e;
    } else if (ch === "/" && text[k + 1] === "*") {
      const e = text.indexOf("*/", k + 2);
      k = e === -1 ? n : e + 2;
    } else if (ch === '"' || ch === "`" || (ch === "'" && /^'(?:\\.|[^'\\\n]){0,200}'/.test(text.slice(k, k + 210)))) {
      // A string ends at its quote or (except template literals) at the line's end: an unclosed one must not swallow the file.
      k++;
      while (k < n && text[k] !== ch && (ch === "`" || text[k] !== "\n")) k += text[k] === "\\" ? 2 : 1;
      k++;
    } else {
      const i = "([{".indexOf(ch);
      if (i >= 0) net[i as 0 | 1 | 2]++;
      const j = ")]}".indexOf(ch);
      if (j >= 0) net[j as 0 | 1 | 2]--;
      k++;
    }
  }
  return net;
}

/** Whether a path's language comments with `#` (so `#` starts no string or bracket). */
export function hashCommented(path: string | undefined, language: string | undefined): boolean {
  const l = (language ?? "").toLowerCase();
  if (/^(?:python|py|ruby|rb|shell|sh|bash|perl|r|elixir|toml|yaml)$/.test(l)) return true;
  return path !== undefined && /\.(?:py|pyi|rb|sh|bash|zsh|pl|r|ex|exs|cmake|mk|nim|cr)$|(?:^|\/)(?:Makefile|Dockerfile)$/i.test(path);
}
