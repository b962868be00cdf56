/**
 * Changes made to real files of other languages (this repo's own sources,
 * Markdown from node_modules, and Go, Rust and Java files of public
 * repositories fetched into /work/.mirror, read at run time only): in a
 * definition of the file, a line added, a line deleted, a line changed, the
 * signature changed, or a new definition added after it. Deterministic.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { blockAt, indentWidth } from "../../src/lazy/blocks.ts";
import { readHeader } from "../../src/lazy/definitions.ts";
import type { Lang } from "./render.ts";

export interface SourceFile {
  path: string;
  text: string;
}

const MIRRORS: [string, RegExp][] = [
  ["spf13+pflag", /^[a-z_]+\.go$/],
  ["dtolnay+anyhow", /^src\/[a-z_]+\.rs$/],
  ["square+javapoet", /^src\/main\/java\/.*\.java$/],
];

function mirrorFiles(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  for (const [name, re] of MIRRORS) {
    const git = join(root, name, "repo");
    if (!existsSync(git)) continue;
    const names = execFileSync("git", ["-C", git, "ls-tree", "-r", "--name-only", "HEAD"], { encoding: "utf8" }).split("\n");
    for (const n of names.filter((p) => re.test(p) && !p.includes("_test")).slice(0, 12)) {
      out.push({ path: `${name}/${n}`, text: execFileSync("git", ["-C", git, "show", `HEAD:${n}`], { encoding: "utf8", maxBuffer: 1 << 26 }) });
    }
  }
  return out;
}

/**
 * The commit this repo's own sources are read at: read from the working tree,
 * the corpus moved with every change to them (a new file in src/match took
 * another's place among the first 8; 7,023 positives became 6,989 between
 * two commits that changed no merge).
 */
const PINNED_SOURCES = "02b0e7eab9cff2fcc1a42e7200ea130ac209467a";

/** The first 8 `.ts` files of each directory at PINNED_SOURCES; the working tree's (with a note) where git does not have that commit (a shallow clone). */
function ownSources(): SourceFile[] {
  const dirs = ["src/formats", "src/match", "src/fs"];
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] });
  try {
    return dirs.flatMap((dir) =>
      git("ls-tree", "--name-only", PINNED_SOURCES, `${dir}/`)
        .split("\n")
        .filter((n) => n.endsWith(".ts"))
        .slice(0, 8)
        .map((path) => ({ path, text: git("show", `${PINNED_SOURCES}:${path}`) })),
    );
  } catch {
    console.warn(`bench:lazy: commit ${PINNED_SOURCES.slice(0, 7)} not in this clone; this repo's sources read from the working tree (the corpus then moves with them)`);
    return dirs.flatMap((dir) =>
      readdirSync(dir)
        .filter((n) => n.endsWith(".ts"))
        .slice(0, 8)
        .map((f) => ({ path: join(dir, f), text: readFileSync(join(dir, f), "utf8") })),
    );
  }
}

function localFiles(): SourceFile[] {
  const out: SourceFile[] = ownSources();
  for (const f of ["node_modules/diff/libesm/diff/base.js", "node_modules/diff/libesm/patch/apply.js", "node_modules/commander/lib/command.js", "node_modules/commander/lib/help.js"]) {
    if (existsSync(f)) out.push({ path: f, text: readFileSync(f, "utf8") });
  }
  for (const f of ["node_modules/zod/README.md", "node_modules/commander/Readme.md", "node_modules/fast-check/README.md", "node_modules/diff/README.md", "node_modules/typescript/README.md"]) {
    if (existsSync(f)) out.push({ path: f, text: readFileSync(f, "utf8") });
  }
  return out;
}

export function sourceFiles(mirrorRoot: string): SourceFile[] {
  return [...localFiles(), ...mirrorFiles(mirrorRoot)];
}

const STATEMENT: Record<Lang, (tag: string) => string> = {
  python: (t) => `print("lazy ${t}")`,
  ts: (t) => `console.log("lazy ${t}");`,
  js: (t) => `console.log("lazy ${t}");`,
  go: (t) => `fmt.Println("lazy ${t}")`,
  rust: (t) => `println!("lazy ${t}");`,
  java: (t) => `System.out.println("lazy ${t}");`,
  markdown: (t) => `A sentence added by the lazy bench (${t}).`,
};

const NEW_DEF: Record<Lang, (name: string) => string[]> = {
  python: (n) => [`def ${n}(value):`, "    return value * 2"],
  ts: (n) => [`function ${n}(value: number): number {`, "  return value * 2;", "}"],
  js: (n) => [`function ${n}(value) {`, "  return value * 2;", "}"],
  go: (n) => [`func ${n}(value int) int {`, "\treturn value * 2", "}"],
  rust: (n) => [`fn ${n}(value: i64) -> i64 {`, "    value * 2", "}"],
  java: (n) => [`static int ${n}(int value) {`, "  return value * 2;", "}"],
  markdown: (n) => [`## ${n}`, "", "A section added by the lazy bench."],
};

/** Definitions (or Markdown sections) with a body of at least 3 lines. */
function definitions(lines: readonly string[], lang: Lang): { open: number; end: number; close?: number }[] {
  const out: { open: number; end: number; close?: number }[] = [];
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k] as string;
    if (lang === "markdown") {
      if (!/^#{1,3} /.test(l)) continue;
      let e = k + 1;
      while (e < lines.length && !/^#{1,3} /.test(lines[e] as string)) e++;
      if (e - k >= 5) out.push({ open: k, end: e });
      continue;
    }
    const h = readHeader(l);
    if (h?.kind !== "function") continue;
    const b = blockAt(lines, k);
    if (b && b.bodyEnd - k >= 4 && b.end - k < 80) out.push({ open: k, end: b.end, ...(b.close !== undefined && { close: b.close }) });
  }
  return out;
}

function lineBalanced(l: string): boolean {
  let n = 0;
  for (const ch of l) n += "([{".includes(ch) ? 1 : ")]}".includes(ch) ? -1 : 0;
  return n === 0 && !/["'`]/.test(l) && l.trim() !== "" && !/^\s*(?:\/\/|#|\*|\/\*)/.test(l);
}

export interface Change {
  kind: "add-line" | "delete-line" | "change-line" | "signature" | "new-definition";
  after: string;
}

/** Up to `count` changes of the file, each in another definition. */
export function makeChanges(text: string, lang: Lang, count: number, seed: number): Change[] {
  // A CRLF file's lines without their CR, put back at the end: a change appended after the CR
  // (`Run it:\r (edited)`) is a line no model writes (bench:lazy scored 4 such merges wrong).
  const crlf = text.includes("\r\n");
  const lines = text.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  const defs = definitions(lines, lang);
  const out: Change[] = [];
  const kinds: Change["kind"][] = ["add-line", "delete-line", "change-line", "signature", "new-definition"];
  for (let i = 0; i < defs.length && out.length < count; i += Math.max(1, Math.floor(defs.length / count))) {
    const d = defs[i] as { open: number; end: number; close?: number };
    const kind = kinds[(i + seed) % kinds.length] as Change["kind"];
    const bodyEnd = d.close ?? d.end;
    const body = [...Array(bodyEnd - d.open - 1).keys()].map((k) => d.open + 1 + k);
    const mid = body[Math.floor(body.length / 2)] as number;
    const next = [...lines];
    const tag = `${seed}-${i}`;
    const indent = (k: number) => {
      const l = lines[k] as string;
      return l.slice(0, l.length - l.trimStart().length);
    };
    if (kind === "add-line") next.splice(mid, 0, indent(mid) + STATEMENT[lang](tag));
    else if (kind === "delete-line") {
      const k = body.find((b) => b >= mid && lineBalanced(lines[b] as string));
      if (k === undefined) continue;
      next.splice(k, 1);
    } else if (kind === "change-line") {
      const k = body.find((b) => b >= mid && lineBalanced(lines[b] as string));
      if (k === undefined) continue;
      next[k] = lang === "markdown" ? `${lines[k]} (edited ${tag})` : `${lines[k]} ${lang === "python" ? "#" : "//"} edited ${tag}`;
    } else if (kind === "signature") {
      if (lang === "markdown") next[d.open] = `${lines[d.open]} (revised)`;
      else if (/\(\s*\)/.test(lines[d.open] as string) || !/\(/.test(lines[d.open] as string)) continue;
      else next[d.open] = (lines[d.open] as string).replace(/\(/, lang === "python" ? "(lazy_flag=None, " : lang === "go" ? "(lazyFlag int, " : lang === "rust" ? "(lazy_flag: i64, " : lang === "java" ? "(int lazyFlag, " : "(lazyFlag, ");
    } else {
      const ind = indentOf(lines, d.open);
      next.splice(d.end, 0, "", ...NEW_DEF[lang](`lazyBench${tag.replace("-", "_")}`).map((l) => (l === "" ? l : ind + l)));
    }
    if (indentWidth(lines[d.open] as string) > 40) continue;
    out.push({ kind, after: `${next.join(crlf ? "\r\n" : "\n")}${crlf ? "\r\n" : "\n"}` });
  }
  return out;
}

function indentOf(lines: readonly string[], k: number): string {
  const l = lines[k] as string;
  return l.slice(0, l.length - l.trimStart().length);
}
