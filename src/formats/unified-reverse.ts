/**
 * `reverseUnifiedDiff()`: the diff that undoes a unified diff (`patch -R`,
 * `git apply -R`), written as text so that it goes through the same parser
 * and applier as any other diff.
 *
 * What is swapped (grammar as in unified-parse.ts):
 *
 *   "--- " old / "+++ " new      ->  "--- " new / "+++ " old, git's a/ and b/
 *                                     prefixes staying on their side
 *   "@@ -a,b +c,d @@ tail"       ->  "@@ -c,d +a,b @@ tail"  (`@@ @@` as is)
 *   "-" line / "+" line          ->  "+" line / "-" line; in each run of
 *                                     changed lines the new "-" lines come
 *                                     first, as diff(1) writes them (unless
 *                                     that makes a `---`/`+++` pair)
 *   "\ No newline…"              ->  stays after the line it follows
 *   "diff --git a/p b/p"         ->  as is (same path both sides)
 *   "new file mode" / "deleted file mode", "old mode" / "new mode",
 *   "index x..y"                 ->  swapped
 *
 * A hunk ends at the next hunk header, `diff --git` line, or file header (a
 * `---` line directly followed by a `+++` line: the rule by which the
 * detector splits file sections), except that, as in the parser, while a
 * numbered hunk still lacks both old and new lines such a pair is a removed
 * and an added line. Every other line (prose, context, lines without a
 * prefix) is kept as written.
 */

const HUNK_HEADER = /^@@ -(\S+) \+(\S+) @@(.*)$/;

/** The line count of a header range ("3,4" is 4 lines, "3" is 1), or undefined when it is not a number. */
function rangeCount(range: string): number | undefined {
  const comma = range.indexOf(",");
  const n = comma === -1 ? 1 : Number(range.slice(comma + 1));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Moves a git `a/` (or `b/`) prefix to the other side's letter; other paths stay as written. */
function relabel(header: string, from: "a/" | "b/", to: "a/" | "b/"): string {
  return header.startsWith(from) ? `${to}${header.slice(from.length)}` : header;
}

export function reverseUnifiedDiff(patch: string): string {
  const lines = patch.split("\n");
  const out: string[] = [];
  let inHunk = false;
  // Old and new lines a numbered hunk still lacks (0 for a fuzzy one).
  let oldLeft = 0;
  let newLeft = 0;
  // The changed lines of the current run, in their reversed form.
  let removed: string[] = [];
  let added: string[] = [];
  let last: string[] | undefined;
  const flush = () => {
    // A removed `--x` right before an added `++y` would read as a file
    // header in a fuzzy hunk (the parser's rule: `---` then `+++`); the
    // other order means the same and cannot.
    const clash = removed.at(-1)?.startsWith("---") === true && added[0]?.startsWith("+++") === true;
    for (const l of clash ? added : removed) out.push(l);
    for (const l of clash ? removed : added) out.push(l);
    removed = [];
    added = [];
    last = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const next = lines[i + 1] ?? "";
    const fileHeader = line.startsWith("--- ") && next.startsWith("+++ ") && !(oldLeft > 0 && newLeft > 0);
    if (inHunk && !fileHeader && !line.startsWith("@@") && !line.startsWith("diff --git ")) {
      const first = line[0];
      if (first === "-" || first === "+") {
        // The old diff's added lines are the ones this diff removes; they come first.
        last = first === "+" ? removed : added;
        last.push(`${first === "+" ? "-" : "+"}${line.slice(1)}`);
        if (first === "-") oldLeft--;
        else newLeft--;
        continue;
      }
      if (first === "\\" && last) {
        last.push(line);
        continue;
      }
      flush();
      if (first === " " || line === "") {
        oldLeft--;
        newLeft--;
      }
      out.push(line);
      continue;
    }
    flush();
    if (fileHeader) {
      out.push(`--- ${relabel(next.slice(4), "b/", "a/")}`, `+++ ${relabel(line.slice(4), "a/", "b/")}`);
      i++;
      inHunk = false;
      oldLeft = 0;
      newLeft = 0;
    } else if (line.startsWith("@@")) {
      inHunk = true;
      const m = HUNK_HEADER.exec(line);
      out.push(m ? `@@ -${m[2]} +${m[1]} @@${m[3]}` : line);
      oldLeft = (m && rangeCount(m[1] as string)) ?? 0;
      newLeft = (m && rangeCount(m[2] as string)) ?? 0;
    } else {
      inHunk = false;
      out.push(reverseExtendedHeader(line));
    }
  }
  flush();
  return out.join("\n");
}

/** git's extended header lines, each naming one side. */
function reverseExtendedHeader(line: string): string {
  if (line.startsWith("new file mode ")) return `deleted file mode ${line.slice(14)}`;
  if (line.startsWith("deleted file mode ")) return `new file mode ${line.slice(18)}`;
  if (line.startsWith("old mode ")) return `new mode ${line.slice(9)}`;
  if (line.startsWith("new mode ")) return `old mode ${line.slice(9)}`;
  const index = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(.*)$/.exec(line);
  if (index) return `index ${index[2]}..${index[1]}${index[3]}`;
  return line;
}
