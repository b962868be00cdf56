/**
 * Hostile inputs of at most 1 MB (file and response each) for the budget
 * bench (bench/budget.ts, `npm run bench:budget`): the shapes that took seconds of CPU in
 * the reliability campaigns (issues 14, 22, 39), each built from a few
 * random parameters so that every run tries other sizes and counts. Each
 * input names its file `f.txt` and carries the same edits in the command
 * line's form (a response file) and the MCP server's (a tool call).
 */
import fc from "fast-check";

export interface HostileInput {
  /** Shape and parameters, printed when a bound fails. */
  name: string;
  file: string;
  /** The response `fuzzpatch apply` reads. */
  response: string;
  tool: { name: "apply_diff" | "edit_file"; arguments: Record<string, unknown> };
}

export const MAX_BYTES = 1_000_000;

const sr = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const codeLine = (i: number, tag = "v") => `  const ${tag}${i} = compute(${i}, "${tag}");`;
const diff = (hunks: string) => `--- a/f.txt\n+++ b/f.txt\n${hunks}`;
const asDiff = (name: string, file: string, response: string): HostileInput => ({ name, file, response, tool: { name: "apply_diff", arguments: { diff: response } } });
const asBlocks = (name: string, file: string, blocks: string): HostileInput => asDiff(name, file, `f.txt\n${blocks}`);
const asEdits = (name: string, file: string, edits: { oldString: string; newString: string; replaceAll?: boolean }[]): HostileInput => ({
  name,
  file,
  response: edits.map((e) => JSON.stringify({ path: "f.txt", old_string: e.oldString, new_string: e.newString, ...(e.replaceAll && { replace_all: true }) })).join("\n"),
  tool: { name: "edit_file", arguments: { path: "f.txt", edits } },
});

/** Ambiguous `@@ @@` hunks of `}` lines on a file of `}` lines (issue 39: ten took ~8 s). */
const ambiguousHunks = fc.record({ lines: fc.integer({ min: 50_000, max: 200_000 }), context: fc.integer({ min: 100, max: 850 }), copies: fc.integer({ min: 2, max: 20 }) }).map((p) =>
  asDiff(`ambiguous hunks ${JSON.stringify(p)}`, "}\n".repeat(p.lines), diff(`@@ @@\n${" }\n".repeat(p.context)}-}\n+};\n${" }\n".repeat(p.context)}`.repeat(p.copies))),
);

/** The same hunks cut short at their end: the file-edge rule places them (issue 39: ten took 4.4 s). */
const cutShortHunks = fc
  .record({ lines: fc.integer({ min: 50_000, max: 200_000 }), context: fc.integer({ min: 100, max: 850 }), trailing: fc.integer({ min: 0, max: 2 }), copies: fc.integer({ min: 2, max: 10 }) })
  .map((p) => asDiff(`hunks cut short at their end ${JSON.stringify(p)}`, "}\n".repeat(p.lines), diff(`@@ @@\n${" }\n".repeat(p.context)}-}\n+};\n${" }\n".repeat(p.trailing)}`.repeat(p.copies))));

/** SEARCH/REPLACE blocks `}` + a code line + `}` where `}` is every other line; some repeated (issue 39: 2,000 took 2-12 s). */
const braceBlocks = fc
  .record({ pairs: fc.integer({ min: 4_000, max: 14_000 }), blocks: fc.integer({ min: 500, max: 2_000 }), kind: fc.constantFrom("found", "repeated", "missing", "typo") })
  .map((p) => {
    const file = Array.from({ length: p.pairs }, (_, i) => `${codeLine(i)}\n}\n`).join("");
    const middle = (k: number) => {
      const i = (k * 7) % p.pairs;
      if (p.kind === "missing") return codeLine(k, "w");
      if (p.kind === "typo") return codeLine(i).replace("compute", "compte");
      return codeLine(p.kind === "repeated" ? i % Math.ceil(p.blocks / 2) : i);
    };
    return asBlocks(`blocks of } + code + } ${JSON.stringify(p)}`, file, Array.from({ length: p.blocks }, (_, k) => sr(`}\n${middle(k)}\n}`, `}\n// ${k}\n}`)).join(""));
  });

/** V4A chunks of `}` lines (issue 39: five took 3.8 s). */
const v4aChunks = fc.record({ lines: fc.integer({ min: 50_000, max: 200_000 }), context: fc.integer({ min: 3, max: 850 }), chunks: fc.integer({ min: 1, max: 10 }) }).map((p) => {
  const chunk = `@@\n${" }\n".repeat(p.context)}-}\n+};\n${" }\n".repeat(p.context)}`;
  return asDiff(`V4A chunks ${JSON.stringify(p)}`, "}\n".repeat(p.lines), `*** Begin Patch\n*** Update File: f.txt\n${chunk.repeat(p.chunks)}*** End Patch\n`);
});

/** One long line of words and a near-miss edit of many of them. */
const longLine = fc.record({ bytes: fc.integer({ min: 100_000, max: MAX_BYTES - 10 }), words: fc.integer({ min: 20, max: 400 }) }).map((p) => {
  const words = ["alpha", "beta", "gamma", "delta", "value"];
  const line = Array.from({ length: Math.ceil(p.bytes / 6) }, (_, i) => words[(i * 7 + (i >> 3)) % 5]).join(" ").slice(0, p.bytes);
  const at = Math.floor(line.length / 3);
  const old = `${line.slice(at, at + p.words * 6)} misremembered`;
  return asEdits(`long line ${JSON.stringify(p)}`, `${line}\n`, [{ oldString: old, newString: "x" }]);
});

/** Deeply nested blocks, an edit of an inner block re-indented and with one token changed. */
const deepNesting = fc.record({ depth: fc.integer({ min: 100, max: 2_000 }), copies: fc.integer({ min: 1, max: 20 }) }).map((p) => {
  const lines: string[] = [];
  for (let d = 0; d < p.depth; d++) lines.push(`${"  ".repeat(d % 200)}if (x${d % 7}) {`);
  for (let d = p.depth - 1; d >= 0; d--) lines.push(`${"  ".repeat(d % 200)}}`);
  const file = `${lines.join("\n")}\n`.repeat(p.copies).slice(0, MAX_BYTES);
  const mid = Math.floor(p.depth / 2);
  const old = lines
    .slice(mid, mid + 6)
    .map((l) => l.trim().replace("x3", "y3"))
    .join("\n");
  return asEdits(`deep nesting ${JSON.stringify(p)}`, file, [{ oldString: old, newString: "changed" }]);
});

/** One huge line as the text to find: a copy of most of the file with one character changed. */
const hugeFind = fc.record({ bytes: fc.integer({ min: 100_000, max: 450_000 }) }).map((p) => {
  const line = Array.from({ length: p.bytes / 10 }, (_, i) => `w${(i * 7919) % 100_000}`.padEnd(10, " ")).join("");
  const changed = `${line.slice(0, p.bytes / 2)}#${line.slice(p.bytes / 2 + 1)}`;
  return asEdits(`huge single line ${JSON.stringify(p)}`, `function f() {\n${line}\n}\n`, [{ oldString: changed, newString: "x" }]);
});

/**
 * Many tiny edits (up to the 2,000 the default limits allow), each of one token on its own line; with
 * `typo`, each SEARCH line misspelt, a near miss (2,000 on 1 MB took 3 s of CPU: each scanned the file);
 * with `hinted`, each with a `:start_line:` hint at its line in the file (2,000 on 1 MB took 12.7 s: none was
 * carried); with `grow`, each adding a line (the hints of the blocks after it then name other lines); with
 * `two`, each of its line and the next (hinted, growing, down a 1 MB file: 26.5 s before such blocks were
 * carried); in `order`, spread over the file or on consecutive lines, down or up from the first.
 */
const order = fc.constantFrom<Order>("spread", "down", "up");
type Order = "spread" | "down" | "up";
/** Edit `k` of `n`'s line: every `step`-th line, wrapping in `lines`; or consecutive lines down or up from the first. */
const lineOf = (o: Order, k: number, n: number, step: number, lines: number) => (o === "spread" ? (k * step) % lines : o === "down" ? k : n - 1 - k);
const tinyParams = fc.record({
  lines: fc.integer({ min: 5_000, max: 25_000 }),
  edits: fc.integer({ min: 500, max: 2_000 }),
  typo: fc.boolean(),
  hinted: fc.boolean(),
  grow: fc.boolean(),
  two: fc.boolean(),
  order,
});
const tinyEdits = tinyParams.map((p) => {
  const file = Array.from({ length: p.lines }, (_, i) => codeLine(i)).join("\n");
  // With `two`, blocks of lines i and i + 1, i even: apart, and consecutive in order.
  const span = p.two ? 2 : 1;
  const n = Math.min(p.edits, Math.floor(p.lines / span));
  const blocks = Array.from({ length: n }, (_, k) => {
    const i = span * lineOf(p.order, k, n, 13, Math.floor(p.lines / span));
    const written = codeLine(i).replace("compute", "calc") + (p.two ? `\n${codeLine(i + 1)}` : "");
    const search = (p.typo ? codeLine(i).replace("compute", "compte") : codeLine(i)) + (p.two ? `\n${codeLine(i + 1)}` : "");
    const block = sr(search, p.grow ? `${written}\n  // ${i}` : written);
    return p.hinted ? block.replace("<<<<<<< SEARCH\n", `<<<<<<< SEARCH\n:start_line:${i + 1}\n-------\n`) : block;
  });
  return asBlocks(`many tiny edits ${JSON.stringify(p)}`, `${file}\n`, blocks.join(""));
});

/**
 * Many hunks of a unified diff without line numbers, one changed line each with a line of context either
 * side; with `typo`, the context line above misspelt, a fuzzy hunk (2,000 on 1 MB: ~1 s of CPU when all
 * were searched).
 */
const manyHunks = fc.record({ lines: fc.integer({ min: 5_000, max: 25_000 }), hunks: fc.integer({ min: 200, max: 2_000 }), typo: fc.boolean() }).map((p) => {
  const file = Array.from({ length: p.lines }, (_, i) => codeLine(i)).join("\n");
  const hunks = Math.min(p.hunks, Math.floor((p.lines - 2) / 3));
  const step = Math.floor((p.lines - 2) / hunks);
  const body = Array.from({ length: hunks }, (_, k) => {
    const i = 1 + k * step;
    const above = p.typo ? codeLine(i - 1).replace("compute", "compte") : codeLine(i - 1);
    return `@@ @@\n ${above}\n-${codeLine(i)}\n+${codeLine(i).replace("compute", "calc")}\n ${codeLine(i + 1)}\n`;
  }).join("");
  return asDiff(`many hunks ${JSON.stringify({ ...p, hunks })}`, `${file}\n`, diff(body));
});

/**
 * Many str_replace edits of one line each (the server's `edit_file`, the command line's JSON lines); with `typo`,
 * each misspelt; with `all`, each of part of its line and replacing every occurrence, in `places` copies of the
 * lines (issue 39: 2,000 on 1 MB took ~9.6 s with one place each, ~22 s with two); in `order`, spread over the
 * file (or its copy) or on consecutive lines, down or up from the first (2,000 up a 1 MB file: ~11 s); with
 * `indent`, each quoted from inside its line's indentation (2,000 on 1 MB: 12.3 s while only literal results
 * were carried).
 */
const replaceParams = (all: fc.Arbitrary<boolean>) =>
  fc.record({
    lines: fc.integer({ min: 5_000, max: 25_000 }),
    edits: fc.integer({ min: 200, max: 2_000 }),
    typo: fc.boolean(),
    indent: fc.boolean(),
    all,
    places: fc.integer({ min: 1, max: 3 }),
    order,
  });
const replacesOf = (p: { lines: number; edits: number; typo: boolean; indent: boolean; all: boolean; places: number; order: Order }): HostileInput => {
  // With `all`, the file's lines `places` times over: each edit replaces that many places, far apart.
  const copies = p.all ? p.places : 1;
  const part = Math.floor(p.lines / copies);
  const file = Array.from({ length: part * copies }, (_, i) => codeLine(i % part)).join("\n");
  // Distinct lines: each edit's text stands once in the file (in each copy, with `all`).
  const step = Math.max(1, Math.floor(part / p.edits));
  const n = Math.min(p.edits, Math.floor(part / step));
  const edits = Array.from({ length: n }, (_, k) => {
    const i = lineOf(p.order, k, n, step, part);
    if (p.all) return { oldString: `v${i} = compute(${i},`, newString: `v${i} = calc(${i},`, replaceAll: true };
    const old = p.typo ? codeLine(i).replace("compute", "compte") : codeLine(i);
    // With `indent`, quoted from inside the line's indentation (a re-indented match, not a literal one).
    const cut = p.indent ? 1 : 0;
    return { oldString: old.slice(cut), newString: codeLine(i).replace("compute", "calc").slice(cut) };
  });
  return asEdits(`many str_replace edits ${JSON.stringify(p)}`, `${file}\n`, edits);
};
const manyReplaces = replaceParams(fc.boolean()).map(replacesOf);
/** The same, every edit replacing every occurrence: reported on its own, as the draw of `manyReplaces` may not make it. */
const manyReplaceAlls = replaceParams(fc.constant(true)).map(replacesOf);

/** Every shape, each input within MAX_BYTES. */
export const hostileInput: fc.Arbitrary<HostileInput> = fc
  .oneof(ambiguousHunks, cutShortHunks, braceBlocks, v4aChunks, longLine, deepNesting, hugeFind, tinyEdits, manyHunks, manyReplaces)
  .filter((x) => x.file.length <= MAX_BYTES && x.response.length <= MAX_BYTES);

/** One input of each shape, at its heaviest listed parameters: the cases the campaigns reported. */
export const reportedInputs: readonly fc.Arbitrary<HostileInput>[] = [
  ambiguousHunks,
  cutShortHunks,
  braceBlocks,
  v4aChunks,
  longLine,
  deepNesting,
  hugeFind,
  tinyEdits,
  manyHunks,
  manyReplaces,
  manyReplaceAlls,
];
