/**
 * Whether a path component names `.git` on some file system. A Linux file
 * system compares names byte for byte, but a tree is also checked out, synced
 * or mounted where names are compared otherwise, and a model's path must not
 * reach `.git/` (hooks there run code) on any of them. git refuses the same
 * names in its `verify_path` (the facts below are its rules, written anew):
 *
 * - letter case: `.GIT`, `.Git` (every case-insensitive file system);
 * - NTFS drops trailing spaces and periods (`.git.`, `.git `, `.git. .`), and
 *   `name:stream` opens a stream of `name` (`.git::$INDEX_ALLOCATION` is the
 *   directory itself): anything from a `:` on is ignored;
 * - NTFS short names: `.git` is also `GIT~1` (git checks `~1` only, as a
 *   fresh clone makes `.git` first; any `GIT~N` is refused here, which no
 *   project needs);
 * - HFS+ ignores some code points in names: U+200C-U+200F, U+202A-U+202E,
 *   U+206A-U+206F and U+FEFF, so `.g\u200Cit` is `.git` there.
 *
 * The rules are applied together (a stricter union than any one system's):
 * ignorable code points are dropped first, then the NTFS endings.
 */

/** The code points HFS+ ignores when it compares names. */
function isHfsIgnorable(code: number): boolean {
  return (code >= 0x200c && code <= 0x200f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x206a && code <= 0x206f) || code === 0xfeff;
}

/** True when `component` (one path component, no separator) would name `.git` on a case-insensitive, NTFS or HFS+ file system. */
export function isDotGit(component: string): boolean {
  let name = "";
  for (const char of component) {
    if (!isHfsIgnorable(char.codePointAt(0) as number)) name += char;
  }
  // An NTFS stream of the name is the name itself.
  const colon = name.indexOf(":");
  if (colon !== -1) name = name.slice(0, colon);
  // Trailing spaces and periods are dropped by NTFS (a name of periods only is `.` or `..`, handled apart).
  let end = name.length;
  while (end > 0 && (name[end - 1] === " " || name[end - 1] === ".")) end--;
  const base = name.slice(0, end).toLowerCase();
  return base === ".git" || /^git~\d{1,6}$/.test(base);
}

/** True when any component of `parts` names `.git` (see `isDotGit`). */
export function touchesDotGit(parts: readonly string[]): boolean {
  return parts.some(isDotGit);
}
