/**
 * The timestamp `diff -u` writes after a path when there is no tab
 * (`--- a/x.c 2024-01-31 12:00:00.000000000 +0100`), removed by scanning
 * back from the end of the line.
 *
 * No regular expression: /\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [+-]\d{4})?$/
 * is tried at every start and backtracks through a run of spaces: `--- a/x`,
 * 100k spaces and `y` took 9 s.
 */

const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};
const isSpace = (s: string, i: number) => /\s/.test(s[i] ?? "");

/** Whether `s` holds `pattern` at `at`, `d` standing for an ASCII digit. */
function shapedAt(s: string, at: number, pattern: string): boolean {
  if (at < 0) return false;
  for (let k = 0; k < pattern.length; k++) {
    const ok = pattern[k] === "d" ? isDigit(s, at + k) : s[at + k] === pattern[k];
    if (!ok) return false;
  }
  return true;
}

/** `path` without a trailing `YYYY-MM-DD hh:mm:ss[.frac][ ±hhmm]` and the blank space before it. */
export function stripTimestamp(path: string): string {
  let end = path.length;
  // Optional zone: " +0100".
  if (end >= 6 && path[end - 6] === " " && (path[end - 5] === "+" || path[end - 5] === "-") && shapedAt(path, end - 4, "dddd")) end -= 6;
  // Optional fraction: ".000000000".
  let k = end;
  while (k > 0 && isDigit(path, k - 1)) k--;
  if (k < end && path[k - 1] === ".") end = k - 1;
  if (!shapedAt(path, end - 19, "dddd-dd-dd dd:dd:dd")) return path;
  let start = end - 19;
  if (start === 0 || !isSpace(path, start - 1)) return path;
  while (start > 0 && isSpace(path, start - 1)) start--;
  return path.slice(0, start);
}
