/**
 * Issue 22, "Done when": every line-ending layout (LF, CRLF, CR, mixed,
 * `\r\r\n`, BOM, double BOM, no final newline) through the CLI, in every
 * edit format, asserting that bytes outside the edited line never change.
 * Through `main()` in process (`fuzzpatch apply FILE --root DIR`), so the
 * file layer's reading and writing is on the path. A model is shown the
 * file's lines, so every edit is written with "\n" breaks.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { runMain } from "./helpers/cli-run.ts";

const RUNS = Number(process.env.LAYOUT_RUNS ?? 40);

type Style = "lf" | "crlf" | "cr" | "crcrlf" | "mixed";
const ENDINGS: Record<Exclude<Style, "mixed">, string> = { lf: "\n", crlf: "\r\n", cr: "\r", crcrlf: "\r\r\n" };

interface Layout {
  style: Style;
  boms: 0 | 1 | 2;
  finalNewline: boolean;
}

/** A file of distinct-enough lines in a layout, with each line's raw start and end (before its break). */
function build(lines: readonly string[], breaks: readonly string[], l: Layout): { raw: string; starts: number[]; ends: number[] } {
  let raw = "\uFEFF".repeat(l.boms);
  const starts: number[] = [];
  const ends: number[] = [];
  lines.forEach((line, i) => {
    starts.push(raw.length);
    raw += line;
    ends.push(raw.length);
    if (i < lines.length - 1 || l.finalNewline) raw += breaks[i] ?? "\n";
  });
  return { raw, starts, ends };
}

const LINE = fc.string({ unit: fc.constantFrom("a", "b", "x", " ", "\t", "(", ")", ";", "=", "é", "😀", "\u3000"), minLength: 1, maxLength: 10 });

const layoutCase = fc
  .record({
    lines: fc.array(LINE, { minLength: 3, maxLength: 10 }),
    style: fc.constantFrom<Style>("lf", "crlf", "cr", "crcrlf", "mixed"),
    boms: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
    finalNewline: fc.boolean(),
    pick: fc.nat(),
    mixed: fc.array(fc.constantFrom("\n", "\r\n"), { minLength: 10, maxLength: 10 }),
    addLine: fc.boolean(),
  })
  .map((c) => {
    // Tagged lines are unique, so every format finds exactly one place.
    const lines = c.lines.map((l, i) => `${l}#${i}`);
    const breaks = lines.map((_, i) => (c.style === "mixed" ? (c.mixed[i] as string) : ENDINGS[c.style]));
    const layout: Layout = { style: c.style, boms: c.boms, finalNewline: c.finalNewline };
    const at = c.pick % lines.length;
    return { lines, breaks, layout, at, addLine: c.addLine, built: build(lines, breaks, layout) };
  });

type Case = typeof layoutCase extends fc.Arbitrary<infer T> ? T : never;

const FORMATS: { name: string; response: (c: Case, old: string, next: string) => string }[] = [
  { name: "SEARCH/REPLACE", response: (_c, old, next) => `f.txt\n\`\`\`\n<<<<<<< SEARCH\n${old}\n=======\n${next}\n>>>>>>> REPLACE\n\`\`\`\n` },
  { name: "JSON str_replace", response: (_c, old, next) => JSON.stringify([{ path: "f.txt", old_string: old, new_string: next }]) },
  {
    name: "unified diff",
    response: (c, old, next) => {
      const before = c.lines.slice(Math.max(0, c.at - 2), c.at).map((l) => ` ${l}`);
      const after = c.lines.slice(c.at + 1, c.at + 3).map((l) => ` ${l}`);
      const plus = next.split("\n").map((l) => `+${l}`);
      return ["--- a/f.txt", "+++ b/f.txt", "@@ @@", ...before, `-${old}`, ...plus, ...after, ""].join("\n");
    },
  },
  {
    name: "V4A",
    response: (c, old, next) => {
      const before = c.lines.slice(Math.max(0, c.at - 2), c.at).map((l) => ` ${l}`);
      const after = c.lines.slice(c.at + 1, c.at + 3).map((l) => ` ${l}`);
      const plus = next.split("\n").map((l) => `+${l}`);
      return ["*** Begin Patch", "*** Update File: f.txt", "@@", ...before, `-${old}`, ...plus, ...after, "*** End Patch", ""].join("\n");
    },
  },
];

for (const format of FORMATS) {
  test(`layouts through the CLI (${format.name}): bytes outside the edited line never change`, async () => {
    const root = await mkdtemp(path.join(tmpdir(), "fp-layout-"));
    try {
      await fc.assert(
        fc.asyncProperty(layoutCase, async (c) => {
          const { raw, starts, ends } = c.built;
          const old = c.lines[c.at] as string;
          const next = c.addLine ? `CHANGED\nADDED` : "CHANGED";
          await writeFile(path.join(root, "f.txt"), raw);
          await writeFile(path.join(root, "edit.txt"), format.response(c, old, next));
          const r = await runMain(["apply", path.join(root, "edit.txt"), "--root", root, "-q"]);
          const out = await readFile(path.join(root, "f.txt"), "utf8");
          assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}\n${JSON.stringify(raw)}`);
          const before = raw.slice(0, starts[c.at]);
          const after = raw.slice(ends[c.at]);
          const why = `${JSON.stringify(raw)} -> ${JSON.stringify(out)}`;
          assert.ok(out.startsWith(before), `bytes before the edit changed: ${why}`);
          assert.ok(out.endsWith(after), `bytes after the edit changed: ${why}`);
          const written = out.slice(before.length, out.length - after.length);
          if (!c.addLine) assert.equal(written, "CHANGED", why);
          else {
            // The added line's break is the file's: the one after the edited line, else the previous line's.
            const eol = raw.slice(ends[c.at], starts[c.at + 1] ?? raw.length) || raw.slice(ends[c.at - 1] ?? 0, starts[c.at]);
            assert.equal(written, `CHANGED${eol}ADDED`, why);
          }
        }),
        { numRuns: RUNS },
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
}

test("layouts through the CLI, one file edited twice in one response (SEARCH/REPLACE blocks, the second after the first): only the two lines change", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "fp-layout-"));
  const block = (old: string, next: string) => `f.txt\n\`\`\`\n<<<<<<< SEARCH\n${old}\n=======\n${next}\n>>>>>>> REPLACE\n\`\`\`\n`;
  try {
    await fc.assert(
      fc.asyncProperty(layoutCase, fc.nat(), fc.boolean(), async (c, pick, laterFirst) => {
        const { raw, starts, ends } = c.built;
        // Two lines, in either order in the response: the file layer keeps both changes as ranges of the text read.
        const a = c.at;
        const b = (a + 1 + (pick % (c.lines.length - 1))) % c.lines.length;
        const [first, second] = a < b ? [a, b] : [b, a];
        const blocks = [block(c.lines[first] as string, "ONE"), block(c.lines[second] as string, "TWO")];
        await writeFile(path.join(root, "f.txt"), raw);
        await writeFile(path.join(root, "edit.txt"), (laterFirst ? blocks.reverse() : blocks).join("\n"));
        const r = await runMain(["apply", path.join(root, "edit.txt"), "--root", root, "-q"]);
        const out = await readFile(path.join(root, "f.txt"), "utf8");
        assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}\n${JSON.stringify(raw)}`);
        const expected = `${raw.slice(0, starts[first])}ONE${raw.slice(ends[first], starts[second])}TWO${raw.slice(ends[second])}`;
        assert.equal(out, expected, `${JSON.stringify(raw)} -> ${JSON.stringify(out)}`);
      }),
      { numRuns: RUNS },
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
