/**
 * Anchored edits (tags of the read view cited by line edits): the parser's
 * grammar and leniencies, the placement rules (as cited, moved, through the
 * version read, refused with fresh tags), ranges, all-or-nothing, and the
 * file layer's JSON shapes, peers' included.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { applyLineEdits, EditError, type LineEdit, lineTag } from "../src/index.ts";
import { applyEdits } from "../src/node.ts";
import { parseAnchoredEdits, parseTagRef, readLines } from "../src/formats/anchored-parse.ts";
import { RELOCATE_WINDOW } from "../src/formats/anchored-resolve.ts";
import { ANCHORED_KINDS, generateAnchoredCase, runAnchoredBench } from "../bench/accuracy/anchored.ts";
import { renderNumberedView } from "../src/tools/numbered-view.ts";
import { makeTree } from "./helpers/temp-tree.ts";

/** A file of distinct lines: "line 1" .. "line n". */
function numberedFile(n: number): string {
  return `${Array.from({ length: n }, (_, k) => `line ${k + 1}`).join("\n")}\n`;
}

/** The tag ref of 1-based line `n` of `text`, as the view shows it. */
function ref(text: string, n: number): string {
  return `${n}#${lineTag(text.split("\n")[n - 1] as string)}`;
}

function lines(text: string): string[] {
  return text.split("\n").slice(0, -1);
}

function withLines(text: string, at: number, added: string[]): string {
  const l = lines(text);
  l.splice(at, 0, ...added);
  return `${l.join("\n")}\n`;
}

function throwsCode(fn: () => unknown, code: string, also?: RegExp): EditError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof EditError, String(error));
    assert.equal(error.code, code, error.message);
    if (also) assert.match(error.message, also);
    return error;
  }
  assert.fail(`expected ${code}`);
}

const READ = numberedFile(40);
/** Lines unlike each other (the moved-line guard compares the line at the number with the hit). */
const WORDS = `${Array.from({ length: 40 }, (_, k) => `${lineTag(`w${k}`)} ${lineTag(`v${k}`)} = ${k};`).join("\n")}\n`;

function dropLines(text: string, at: number, count: number): string {
  const l = lines(text);
  l.splice(at, count);
  return `${l.join("\n")}\n`;
}

// --- tags and the view -----------------------------------------------------------

test("tags: three lower-case letters, the same for a line with trailing spaces or CR, different for other indentation", () => {
  assert.match(lineTag("  return x;"), /^[a-z]{3}$/);
  assert.equal(lineTag("  return x;"), lineTag("  return x;   \r"));
  assert.notEqual(lineTag("  return x;"), lineTag("    return x;"));
});

test("view: read_file with anchors shows N#TAG:text for every line, blank lines too, numbers unpadded", async () => {
  const text = "alpha\n\n  beta\n".repeat(4);
  const t = await makeTree({ "a.txt": text });
  const view = await renderNumberedView(t.root, "a.txt", { anchors: true });
  const body = view.split("\n").slice(1, -1);
  assert.equal(body.length, 12);
  for (const [k, line] of body.entries()) {
    const want = text.split("\n")[k] as string;
    assert.equal(line, `${k + 1}#${lineTag(want)}:${want}`);
  }
  const plain = await renderNumberedView(t.root, "a.txt");
  assert.match(plain.split("\n")[1] as string, /^ 1→alpha$/);
});

// --- placement -------------------------------------------------------------------

const cases: { name: string; now: string; edits: LineEdit[]; want: string; strategy: string }[] = [
  {
    name: "tag as cited: replace one line",
    now: READ,
    edits: [{ op: "replace", from: ref(READ, 5), lines: ["five"] }],
    want: READ.replace("line 5\n", "five\n"),
    strategy: "anchor",
  },
  {
    name: "range: replace lines 5-7 with two",
    now: READ,
    edits: [{ op: "replace", from: ref(READ, 5), to: ref(READ, 7), lines: ["a", "b"] }],
    want: READ.replace("line 5\nline 6\nline 7\n", "a\nb\n"),
    strategy: "anchor",
  },
  {
    name: "insert_after, insert_before and delete in one call, all against the version read",
    now: READ,
    edits: [
      { op: "insert_before", at: ref(READ, 1), lines: ["top"] },
      { op: "insert_after", at: ref(READ, 3), lines: ["after 3"] },
      { op: "delete", from: ref(READ, 10), to: ref(READ, 11) },
    ],
    want: `top\n${READ.replace("line 3\n", "line 3\nafter 3\n").replace("line 10\nline 11\n", "")}`,
    strategy: "anchor",
  },
  {
    name: "lines inserted above: the tag is found where its line went",
    now: withLines(READ, 0, ["x", "y", "z"]),
    edits: [{ op: "replace", from: ref(READ, 20), lines: ["twenty"] }],
    want: withLines(READ, 0, ["x", "y", "z"]).replace("line 20\n", "twenty\n"),
    strategy: "anchor-moved",
  },
  {
    name: "lines deleted above: a range moves with its two ends",
    now: dropLines(WORDS, 1, 2),
    edits: [{ op: "replace", from: ref(WORDS, 20), to: ref(WORDS, 22), lines: ["r"] }],
    want: `${[...lines(dropLines(WORDS, 1, 2)).slice(0, 17), "r", ...lines(dropLines(WORDS, 1, 2)).slice(20)].join("\n")}\n`,
    strategy: "anchor-moved",
  },
  {
    name: "a replace with no lines deletes",
    now: READ,
    edits: [{ op: "replace", from: ref(READ, 40), lines: [] }],
    want: READ.replace("line 40\n", ""),
    strategy: "anchor",
  },
];

for (const c of cases) {
  test(`place: ${c.name}`, () => {
    const r = applyLineEdits(c.now, c.edits);
    assert.equal(r.content, c.want);
    assert.ok(r.edits.some((e) => e.strategy === c.strategy), JSON.stringify(r.edits));
  });
}

test("place: the tagged line changed (no history) is STALE, and the message shows the current lines with fresh tags", () => {
  const now = READ.replace("line 12\n", "line twelve\n");
  const e = throwsCode(() => applyLineEdits(now, [{ op: "replace", from: ref(READ, 12), lines: ["x"] }]), "STALE");
  assert.ok(e.message.includes(`12#${lineTag("line twelve")}:line twelve`), e.message);
  assert.ok(e.message.includes(`11#${lineTag("line 11")}:line 11`), e.message);
  // The fresh tags work: the retry lands.
  assert.equal(applyLineEdits(now, [{ op: "replace", from: `12#${lineTag("line twelve")}`, lines: ["x"] }]).content, now.replace("line twelve\n", "x\n"));
});

test("place: two lines nearby with the tag, none at the number: STALE naming both", () => {
  const now = withLines(READ, 8, ["line 12"]); // a copy above moves the original down
  throwsCode(() => applyLineEdits(now, [{ op: "replace", from: ref(READ, 12), lines: ["x"] }]), "STALE", /lines 9, 13 all have its tag/);
});

test("place: a line moved farther than the window is STALE without history, found through the version read", () => {
  const filler = Array.from({ length: RELOCATE_WINDOW + 5 }, (_, k) => `new ${k}`);
  const now = withLines(READ, 0, filler);
  const edits: LineEdit[] = [{ op: "replace", from: ref(READ, 3), lines: ["three"] }];
  throwsCode(() => applyLineEdits(now, edits), "STALE");
  const r = applyLineEdits(now, edits, { versions: [READ] });
  assert.equal(r.content, now.replace("line 3\n", "three\n"));
  assert.equal(r.edits[0]?.strategy, "anchor-history");
});

test("history: the tagged line changed since the version read is STALE even when a look-alike is near", () => {
  const now = READ.replace("line 12\n", "line twelve\n");
  throwsCode(() => applyLineEdits(now, [{ op: "delete", from: ref(READ, 12) }], { versions: [READ] }), "STALE", /changed or been removed since you read/);
});

test("history: a copy of the tagged line added right above it cannot be told from it: STALE", () => {
  const now = withLines(READ, 11, ["line 12"]); // lines 12 and 13 are now both "line 12"
  throwsCode(() => applyLineEdits(now, [{ op: "replace", from: ref(READ, 12), lines: ["x"] }], { versions: [READ] }), "STALE", /copy was added next to it/);
});

test("history: a copy added two lines below changes nothing for the tag", () => {
  const now = withLines(READ, 13, ["line 12"]);
  const r = applyLineEdits(now, [{ op: "replace", from: ref(READ, 12), lines: ["x"] }], { versions: [READ] });
  assert.equal(r.content, withLines(READ, 13, ["line 12"]).replace("line 11\nline 12\n", "line 11\nx\n"));
});

test("range: its end moved differently from its start is CONFLICT", () => {
  const now = withLines(READ, 15, ["inside"]); // a line added inside 10..20
  throwsCode(() => applyLineEdits(now, [{ op: "replace", from: ref(READ, 10), to: ref(READ, 20), lines: ["x"] }]), "CONFLICT", /lines inside it were added or removed/);
});

test("range: a line changed inside it (version read known) is CONFLICT with fresh tags", () => {
  const now = READ.replace("line 15\n", "line fifteen\n");
  const e = throwsCode(() => applyLineEdits(now, [{ op: "delete", from: ref(READ, 10), to: ref(READ, 20) }], { versions: [READ] }), "CONFLICT", /changed since you read/);
  assert.ok(e.message.includes(`15#${lineTag("line fifteen")}:line fifteen`));
});

test("all or nothing: one stale tag refuses the whole call; two edits on the same lines are CONFLICT", () => {
  const now = READ.replace("line 30\n", "changed\n");
  throwsCode(() => applyLineEdits(now, [{ op: "replace", from: ref(READ, 2), lines: ["ok"] }, { op: "delete", from: ref(READ, 30) }]), "STALE");
  throwsCode(
    () =>
      applyLineEdits(READ, [
        { op: "replace", from: ref(READ, 5), to: ref(READ, 8), lines: ["a"] },
        { op: "delete", from: ref(READ, 7) },
      ]),
    "CONFLICT",
    /change the same lines/,
  );
  // An insertion at the edge of a replaced range is beside it.
  const r = applyLineEdits(READ, [
    { op: "replace", from: ref(READ, 5), to: ref(READ, 8), lines: ["a"] },
    { op: "insert_after", at: ref(READ, 8), lines: ["b"] },
  ]);
  assert.equal(r.content, READ.replace("line 5\nline 6\nline 7\nline 8\n", "a\nb\n"));
});

test("already applied: the same call sent again after it was written changes nothing", () => {
  const edits: LineEdit[] = [{ op: "replace", from: ref(READ, 7), lines: ["seven"] }];
  const once = applyLineEdits(READ, edits, { versions: [READ] }).content;
  throwsCode(() => applyLineEdits(once, edits, { versions: [READ] }), "ALREADY_APPLIED");
});

test("already applied without the version read: an insertion sent again whose lines stand at its place changes nothing", () => {
  for (const op of ["insert_after", "insert_before"] as const) {
    const edits: LineEdit[] = [{ op, at: ref(READ, 5), lines: ["  added(1);", "  added(2);"] }];
    const once = applyLineEdits(READ, edits).content;
    assert.equal(once, withLines(READ, op === "insert_after" ? 5 : 4, ["  added(1);", "  added(2);"]));
    throwsCode(() => applyLineEdits(once, edits), "ALREADY_APPLIED", /already stand/);
  }
  // A line like its neighbour, but not the lines inserted: inserted again, as asked.
  const brace: LineEdit[] = [{ op: "insert_after", at: ref(READ, 5), lines: ["}"] }];
  const twice = applyLineEdits(applyLineEdits(READ, brace).content, brace).content;
  assert.equal(twice, withLines(READ, 5, ["}", "}"]));
  // With a replacement in the same call, the call is not only insertions: placed as usual.
  const mixed: LineEdit[] = [...brace, { op: "replace", from: ref(READ, 9), lines: ["nine"] }];
  assert.throws(() => applyLineEdits(applyLineEdits(READ, mixed).content, mixed), (e) => e instanceof EditError && e.code !== "ALREADY_APPLIED");
});

test("layout: CR-only lines, no final newline, an empty file", () => {
  assert.equal(applyLineEdits("a\rb\r", [{ op: "replace", from: `2#${lineTag("b")}`, lines: ["c"] }]).content, "a\rc\r");
  assert.equal(applyLineEdits("a\nb", [{ op: "insert_after", at: `2#${lineTag("b")}`, lines: ["c"] }]).content, "a\nb\nc");
  assert.equal(applyLineEdits("", [{ op: "insert_after", at: "0", lines: ["first"] }]).content, "first\n");
});

// --- model slips -------------------------------------------------------------------

test("slips: view prefixes pasted into lines are stripped; content that merely looks like one is kept", () => {
  assert.deepEqual(readLines([`3#${lineTag("  a")}:  a`, `4#${lineTag("b")}:b`]), ["  a", "b"]);
  // A tag that is the tag of the rest: copied from the view, even among other lines.
  assert.deepEqual(readLines([`3#${lineTag("x = 1")}:x = 1`, "y = 2"]), ["x = 1", "y = 2"]);
  assert.deepEqual(readLines(["12#abc:not a tag here", "plain"]), ["12#abc:not a tag here", "plain"]);
  assert.deepEqual(readLines("a\nb\n"), ["a", "b"]);
  assert.deepEqual(readLines(["a\nb"]), ["a", "b"]);
});

test("slips: a number without a tag is checked against the content it quotes, else refused as unverified", () => {
  assert.equal(applyLineEdits(READ, [{ op: "replace", from: "12:line 12", lines: ["x"] }]).content, READ.replace("line 12\n", "x\n"));
  assert.equal(applyLineEdits(READ, [{ op: "replace", from: "12→line 12", lines: ["x"] }]).edits[0]?.strategy, "line-checked");
  throwsCode(() => applyLineEdits(READ, [{ op: "replace", from: "12:line 13", lines: ["x"] }]), "STALE", /quotes is not line 12/);
  const e = throwsCode(() => applyLineEdits(READ, [{ op: "replace", from: "12", lines: ["x"] }]), "INVALID_INPUT", /unverified/);
  assert.ok(e.message.includes(ref(READ, 12)));
});

test("slips: other dialects of tags are read", () => {
  const tag = lineTag("line 12");
  for (const written of [`12#${tag}`, `12#${tag.toUpperCase()}|`, `12:${tag}|line 12`, `12:${tag}`, ` 12#${tag}:line 12`]) {
    assert.deepEqual({ ...(parseTagRef(written) as object), raw: "" }, { line: 12, hash: tag, raw: "", ...(written.endsWith("line 12") && { quoted: "line 12" }) }, written);
    assert.equal(applyLineEdits(READ, [{ op: "replace", from: written, lines: ["x"] }]).content, READ.replace("line 12\n", "x\n"), written);
  }
  // A hex tag of another tool cannot be checked: a plain line number, unverified.
  assert.equal((parseTagRef("12:a3|") as { foreign?: string }).foreign, "a3");
  throwsCode(() => applyLineEdits(READ, [{ op: "replace", from: "12:a3", lines: ["x"] }]), "INVALID_INPUT", /not one of this view's/);
});

test("parse: bad edits are PARSE errors naming the edit and field", () => {
  const bad: [unknown, RegExp][] = [
    [[{ op: "rewrite", from: "1#abc", lines: [] }], /Edit 1 has the unknown op "rewrite"/],
    [[{ op: "replace", from: "abc", lines: [] }], /"from" "abc" is not a line tag/],
    [[{ op: "replace", from: "5#abc", to: "3#abd", lines: [] }], /above "from"/],
    [[{ op: "insert_after", at: "5#abc" }], /needs "lines"/],
    [[{ op: "replace", from: "5#abc" }], /needs "lines"/],
    [[{ op: "delete" }], /needs "from"/],
    [[], /non-empty/],
  ];
  for (const [edits, message] of bad) {
    const r = parseAnchoredEdits(edits);
    assert.ok(r instanceof EditError && r.code === "PARSE", JSON.stringify(edits));
    assert.match(r.message, message);
  }
});

// --- the file layer: our shape and the peers' ----------------------------------------

const peers: { name: string; edits: unknown[] }[] = [
  {
    name: "ours: { op, from, to, lines }",
    edits: [{ op: "replace", from: ref(READ, 5), to: ref(READ, 6), lines: ["X"] }],
  },
  {
    name: "oh-my-opencode hashline_edit: { op: replace | append | prepend, pos, end, lines }",
    edits: [{ op: "replace", pos: ref(READ, 5), end: ref(READ, 6), lines: "X" }],
  },
  {
    name: "hashline (pi, Rust): { replace_lines: { start_anchor, end_anchor, new_text } }",
    edits: [{ replace_lines: { start_anchor: ref(READ, 5), end_anchor: ref(READ, 6), new_text: "X" } }],
  },
  {
    name: "typed hashline edits: { type: replace_lines, start_line, end_line, text }",
    edits: [{ type: "replace_lines", start_line: ref(READ, 5), end_line: ref(READ, 6), text: "X\n" }],
  },
];

for (const p of peers) {
  test(`file layer: ${p.name}`, async () => {
    const t = await makeTree({ "a.txt": READ });
    const r = await applyEdits(t.root, JSON.stringify({ path: "a.txt", edits: p.edits }));
    assert.equal(r.failed, 0, JSON.stringify(r.files));
    assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), READ.replace("line 5\nline 6\n", "X\n"));
    assert.equal(r.files[0]?.edits[0]?.format, "anchored");
  });
}

test("file layer: peers' single-line and insert shapes (set_line, insert_after, append/prepend without an anchor)", async () => {
  const t = await makeTree({ "a.txt": READ });
  const edits = [
    { set_line: { anchor: ref(READ, 2), new_text: "two" } },
    { insert_after: { anchor: ref(READ, 3), text: "after three" } },
    { op: "append", lines: ["end"] },
    { op: "prepend", lines: ["start"] },
  ];
  const r = await applyEdits(t.root, JSON.stringify({ file_path: "a.txt", edits }));
  assert.equal(r.failed, 0, JSON.stringify(r.files));
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), `start\n${READ.replace("line 2\n", "two\n").replace("line 3\n", "line 3\nafter three\n")}end\n`);
});

test("file layer: history moves tags; a stale call writes nothing", async () => {
  const now = withLines(READ, 0, Array.from({ length: 50 }, (_, k) => `added ${k}`));
  const t = await makeTree({ "a.txt": now });
  const call = JSON.stringify({ path: "a.txt", edits: [{ op: "replace", from: ref(READ, 1), lines: ["one"] }] });
  const refused = await applyEdits(t.root, call);
  assert.equal(refused.failed, 1);
  assert.equal(refused.files[0]?.edits[0]?.error?.code, "STALE");
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), now);
  const r = await applyEdits(t.root, call, { history: { "a.txt": [READ] } });
  assert.equal(r.failed, 0, JSON.stringify(r.files));
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), now.replace("\nline 1\n", "\none\n"));
});

test("accuracy bench (anchored): with the version read, every case applies right or is refused with fresh tags", () => {
  const tallies = runAnchoredBench(240, 1);
  const known = tallies.filter((t) => t.history);
  assert.equal(known.length, ANCHORED_KINDS.length);
  for (const t of known) {
    assert.equal(t.wrong + t.crashed + t.refusedWithoutTags, 0, `${t.kind}: wrong cases ${t.wrongCases.join(", ")}`);
    assert.ok(t.right + t.refused > 0, t.kind);
  }
  // Moves alone are found, not refused: the version read maps every line that stayed.
  for (const kind of ["inserted-above", "deleted-above", "changed-below"]) assert.equal(known.find((t) => t.kind === kind)?.refused, 0, kind);
  // A call sent again is recognised as applied, not refused.
  assert.equal(known.find((t) => t.kind === "resent")?.refused, 0);
  // Without it, no case crashes and a cited line that changed is always refused.
  const blind = tallies.filter((t) => !t.history);
  assert.equal(blind.reduce((s, t) => s + t.crashed + t.refusedWithoutTags, 0), 0);
  // Without the version read, a changed tagged line is refused unless another line within the relocation
  // window carries the same tag (a look-alike: 0.30% of real lines, anchored-resolve.ts). The corpus is
  // node_modules, so which files it draws from changes with the dependencies: each wrong case must be such a
  // look-alike, and they stay as rare as measured.
  const blindEdited = blind.find((t) => t.kind === "tagged-edited");
  assert.ok(blindEdited);
  for (const i of blindEdited.wrongCases) assert.ok(hasLookAlike(i), `tagged-edited case ${i} is wrong without a look-alike tag`);
  assert.ok(blindEdited.wrong <= 2, `${blindEdited.wrong} look-alike cases of ${blindEdited.right + blindEdited.refused + blindEdited.wrong}`);
});

/** Whether case `i`'s cited line has a look-alike: another line of the current file, within the window, with its tag. */
function hasLookAlike(i: number): boolean {
  const c = generateAnchoredCase(1, i);
  const edit = c?.edits[0] as { from?: string; at?: string } | undefined;
  const ref = parseTagRef(edit?.from ?? edit?.at ?? "");
  if (!c || typeof ref === "string") return false;
  const now = c.now.split("\n");
  for (let m = Math.max(1, ref.line - RELOCATE_WINDOW); m <= Math.min(now.length, ref.line + RELOCATE_WINDOW); m++) {
    if (m !== ref.line && lineTag(now[m - 1] as string) === ref.hash) return true;
  }
  return false;
}

test("place (no history): the tagged line edited in place while a copy of it stands nearby is STALE, not moved to the copy", () => {
  const read = READ.replace("line 10\n", "  }\n").replace("line 14\n", "  }\n");
  const now = read.replace("line 9\n  }\n", "line 9\n  } // closed early\n");
  throwsCode(() => applyLineEdits(now, [{ op: "insert_after", at: ref(read, 10), lines: ["x"] }]), "STALE", /looks like the tagged line edited/);
});
