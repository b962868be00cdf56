/**
 * How long and from which alphabet the line tags of the anchored view
 * (src/text/line-tags.ts) should be: for each candidate scheme, on real
 * files, (1) the tokens the tags add per line against the plain numbered
 * view (`N→text`), counted with a real tokenizer (gpt-tokenizer, o200k);
 * (2) how often another line within the relocation window carries the same
 * tag with other content (a tag that could be found at the wrong line when
 * its own line changed). Prints one table; docs/anchored-edits.md has a run.
 *
 * Usage: npm run bench:anchor-tags [-- --window N]
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { lineTag, tagText } from "../src/text/line-tags.ts";
import { RELOCATE_WINDOW } from "../src/formats/anchored-resolve.ts";

const ROOT = join(import.meta.dirname, "..");
const at = process.argv.indexOf("--window");
const WINDOW = at > 0 ? Number(process.argv[at + 1]) : RELOCATE_WINDOW;

function walk(dir: string, ext: RegExp, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, ext, out);
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

/** Real files of several kinds: this project's TypeScript, a large JavaScript file, Markdown and JSON from dependencies. */
function corpus(): { name: string; lines: string[] }[] {
  const files = [
    ...walk(join(ROOT, "src"), /\.ts$/, []),
    ...walk(join(ROOT, "node_modules", "commander", "lib"), /\.js$/, []),
    join(ROOT, "node_modules", "diff", "README.md"),
    join(ROOT, "node_modules", "zod", "package.json"),
    join(ROOT, "package-lock.json"),
  ];
  const out = files.map((f) => ({ name: f.slice(ROOT.length + 1), lines: readFileSync(f, "utf8").split("\n") }));
  // 20,000 lines of a large compiler: long files are where tags must stay apart.
  const ts = readFileSync(join(ROOT, "node_modules", "typescript", "lib", "typescript.js"), "utf8").split("\n").slice(0, 20_000);
  out.push({ name: "typescript.js (first 20,000 lines)", lines: ts });
  return out;
}

interface Scheme {
  name: string;
  alphabet: string;
  length: number;
  /** How a tagged line is written. */
  render: (n: number, tag: string, line: string) => string;
}

const HASH_VIEW = (n: number, tag: string, line: string) => `${n}#${tag}:${line}`;
const UPPER16 = "ZPMQVRWSNKTXJBYH";
const SCHEMES: Scheme[] = [
  { name: "N#XX: 16 capitals ×2", alphabet: UPPER16, length: 2, render: HASH_VIEW },
  { name: "N#XXX: 16 capitals ×3", alphabet: UPPER16, length: 3, render: HASH_VIEW },
  { name: "N#XXXX: 16 capitals ×4", alphabet: UPPER16, length: 4, render: HASH_VIEW },
  { name: "N:hh| hex ×2", alphabet: "0123456789abcdef", length: 2, render: (n, t, l) => `${n}:${t}|${l}` },
  { name: "N#hhh: hex ×3", alphabet: "0123456789abcdef", length: 3, render: HASH_VIEW },
  { name: "N#xx: 26 lower-case ×2", alphabet: "abcdefghijklmnopqrstuvwxyz", length: 2, render: HASH_VIEW },
  { name: "N#xxx: 26 lower-case ×3", alphabet: "abcdefghijklmnopqrstuvwxyz", length: 3, render: HASH_VIEW },
  { name: "N#XX: 26 capitals ×2", alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", length: 2, render: HASH_VIEW },
  { name: "N#XXX: 26 capitals ×3", alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", length: 3, render: HASH_VIEW },
];

const files = corpus();
let totalLines = 0;
let plainTokens = 0;
const plainViews = files.map((f) => f.lines.map((l, i) => `${i + 1}→${l}`).join("\n"));
for (const [k, f] of files.entries()) {
  totalLines += f.lines.length;
  plainTokens += encode(plainViews[k] as string).length;
}
console.log(`${files.length} files, ${totalLines} lines; window ±${WINDOW} lines; plain view N→text: ${(plainTokens / totalLines).toFixed(2)} tokens/line`);
console.log("| scheme | tags | tokens/line over N→ | lines with a look-alike within the window |");
console.log("| --- | --- | --- | --- |");
for (const s of SCHEMES) {
  let tokens = 0;
  let lookAlike = 0;
  for (const f of files) {
    const tags = f.lines.map((l) => lineTag(l, s.alphabet, s.length));
    const texts = f.lines.map(tagText);
    tokens += encode(f.lines.map((l, i) => s.render(i + 1, tags[i] as string, l)).join("\n")).length;
    // A look-alike: another line nearby with the same tag and other content (an equal line is a real duplicate, not a collision).
    for (let i = 0; i < f.lines.length; i++) {
      for (let j = Math.max(0, i - WINDOW); j <= Math.min(f.lines.length - 1, i + WINDOW); j++) {
        if (j !== i && tags[j] === tags[i] && texts[j] !== texts[i]) {
          lookAlike++;
          break;
        }
      }
    }
  }
  const perLine = (tokens - plainTokens) / totalLines;
  console.log(`| ${s.name} | ${s.alphabet.length ** s.length} | ${perLine >= 0 ? "+" : ""}${perLine.toFixed(2)} | ${((100 * lookAlike) / totalLines).toFixed(2)}% |`);
}
