import assert from "node:assert/strict";
import { chmod, lstat, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { formatCandidates } from "../src/cli/interactive.ts";
import { EditError } from "../src/errors.ts";
import { createExactPatch } from "../src/formats/create-patch.ts";
import { detectEdits } from "../src/formats/response.ts";
import { decodeText, encodeChanges, encodeText, hashBytes, loadTextFile } from "../src/fs/read-file.ts";
import { resolveRoot, resolveSafePath } from "../src/fs/safe-path.ts";
import { stripComponents } from "../src/fs/rewrite-edits.ts";
import { commitChanges, type PlannedChange } from "../src/fs/transaction.ts";
import { applyEdits } from "../src/node.ts";
import { makeEdits } from "./helpers/edit-sequence.ts";
import { makeTree, read, snapshot } from "./helpers/temp-tree.ts";
import { failureMidwayRestores } from "./helpers/transaction-scenarios.ts";

// --- safe paths -----------------------------------------------------------

const unsafePaths: { name: string; path: string }[] = [
  { name: "parent escape", path: "../outside/secret.txt" },
  { name: "escape after descending", path: "a/../../outside/secret.txt" },
  { name: "absolute POSIX path", path: "/etc/passwd" },
  { name: "Windows drive path", path: "C:\\Windows\\x.txt" },
  { name: "backslash escape", path: "..\\outside\\secret.txt" },
  { name: ".git config", path: ".git/config" },
  { name: ".git in a subdirectory, other case", path: "sub/.GIT/hooks/pre-commit" },
  { name: ".git reached through ..", path: "a/../.git/HEAD" },
  { name: "symlinked directory leading outside", path: "out-link/secret.txt" },
  { name: "symlinked file leading outside", path: "file-link" },
  { name: "symlink into .git", path: "git-link/config" },
  { name: "home directory", path: "~/x" },
  { name: "empty path", path: "  " },
];

for (const c of unsafePaths) {
  test(`safe path: refuses ${c.name}`, async () => {
    const t = await makeTree({ "a/keep.txt": "k\n", ".git/config": "[core]\n" });
    await symlink(t.outside, path.join(t.root, "out-link"));
    await symlink(path.join(t.outside, "secret.txt"), path.join(t.root, "file-link"));
    await symlink(path.join(t.root, ".git"), path.join(t.root, "git-link"));
    const realRoot = await resolveRoot(t.root);
    await assert.rejects(resolveSafePath(realRoot, c.path), (e: unknown) => {
      assert.ok(e instanceof EditError);
      assert.equal(e.code, "UNSAFE_PATH");
      assert.equal(e.detail.path, c.path);
      return true;
    });
  });
}

const safePaths: { name: string; path: string; rel: string }[] = [
  { name: "plain relative path", path: "a/keep.txt", rel: "a/keep.txt" },
  { name: "dot segments inside the root", path: "./a/./b/../keep.txt", rel: "a/keep.txt" },
  { name: "new file in a new directory", path: "new/dir/file.ts", rel: "new/dir/file.ts" },
  { name: "symlink that stays inside", path: "in-link/keep.txt", rel: "in-link/keep.txt" },
  { name: "file named like .gitignore", path: ".gitignore", rel: ".gitignore" },
];

for (const c of safePaths) {
  test(`safe path: accepts ${c.name}`, async () => {
    const t = await makeTree({ "a/keep.txt": "k\n" });
    await symlink(path.join(t.root, "a"), path.join(t.root, "in-link"));
    const realRoot = await resolveRoot(t.root);
    const safe = await resolveSafePath(realRoot, c.path);
    assert.equal(safe.rel, c.rel);
    assert.ok(safe.abs.startsWith(realRoot + path.sep));
  });
}

// --- reading --------------------------------------------------------------

const refusedFiles: { name: string; bytes: Buffer; code: string; maxBytes?: number }[] = [
  { name: "NUL bytes", bytes: Buffer.from("abc\0def\n"), code: "BINARY" },
  { name: "invalid UTF-8", bytes: Buffer.from([0x61, 0xff, 0xfe, 0x0a]), code: "BINARY" },
  { name: "over the size limit", bytes: Buffer.from("x".repeat(100)), code: "TOO_LARGE", maxBytes: 99 },
];

for (const c of refusedFiles) {
  test(`read: refuses ${c.name}`, async () => {
    const t = await makeTree({ "f.bin": c.bytes });
    await assert.rejects(loadTextFile(path.join(t.root, "f.bin"), "f.bin", { maxBytes: c.maxBytes }), (e: unknown) => {
      assert.ok(e instanceof EditError);
      assert.equal(e.code, c.code);
      assert.equal(e.detail.path, "f.bin");
      return true;
    });
  });
}

test("read: a missing file reads as not existing, empty", async () => {
  const t = await makeTree({});
  const f = await loadTextFile(path.join(t.root, "nope.txt"), "nope.txt");
  assert.equal(f.exists, false);
  assert.equal(f.text, "");
});

test("read: the hash, computed when asked, is the sha256 of the bytes read, not of the file as it is later", async () => {
  const t = await makeTree({ "f.txt": "one\r\ntwo\r\n" });
  const f = await loadTextFile(path.join(t.root, "f.txt"), "f.txt");
  await writeFile(path.join(t.root, "f.txt"), "changed\n");
  assert.equal(f.hash, hashBytes("one\r\ntwo\r\n"));
  assert.equal(f.text, "one\ntwo\n");
  assert.equal((await loadTextFile(path.join(t.root, "f.txt"), "f.txt")).hash, hashBytes("changed\n"));
});

test("read: BOM and uniform CRLF are removed for the core and restored byte for byte", () => {
  const lineArb = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "é", "→", "\r") }).filter((s) => !s.endsWith("\r"));
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 8 }), fc.boolean(), fc.boolean(), fc.boolean(), (lines, bom, crlf, finalNewline) => {
      const eol = crlf ? "\r\n" : "\n";
      const body = lines.join(eol) + (finalNewline && lines.length > 0 ? eol : "");
      const bytes = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(body, "utf8")]);
      const { text, layout } = decodeText(bytes, "f", false);
      assert.ok(!text.startsWith("\uFEFF"));
      assert.deepEqual(encodeText(text, layout), bytes);
    }),
  );
});

test("write: the bytes of a file's changes, made from the bytes read around them, are the new text encoded whole (or it is encoded whole)", () => {
  const unit = fc.constantFrom("a", "b", " ", "\n", "\r", "é", "→", "😀", "\uD83D", "\uFEFF");
  const edit = fc.tuple(fc.nat(40), fc.nat(40), fc.string({ unit, maxLength: 6 }));
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 30 }), fc.boolean(), fc.boolean(), fc.array(edit, { minLength: 1, maxLength: 3 }), (body, bom, crlf, edits) => {
      // A file as it is on disk (valid UTF-8: no lone surrogate), read as the file layer reads it.
      const lone = body.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "x");
      const onDisk = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(crlf ? lone.replace(/\r/g, "").replace(/\n/g, "\r\n") : lone)]);
      const { text, layout } = decodeText(onDisk, "f", false);
      // The edits one after the other, as a file's edits of one call are kept (text/change-list.ts).
      const { b: now, changes } = makeEdits(text, edits);
      const whole = encodeText(now, layout);
      assert.deepEqual(encodeChanges(onDisk, text, changes, layout) ?? whole, whole);
    }),
    {
      numRuns: 3000,
      // A CR written before a LF of a CRLF file, and a change splitting a surrogate pair: rare at random.
      examples: [
        ["a\nb\n", false, true, [[1, 1, "x\r"]]],
        ["a\nb\n", true, true, [[2, 2, "\r"]]],
        ["a😀b", false, false, [[2, 2, "c"]]],
        ["a😀b", false, false, [[1, 1, "\uD83D"]]],
        ["a\nb\nc\n", false, true, [[0, 1, "x"], [5, 6, "y"]]],
      ],
    },
  );
});

test("applyEdits: a file written from the bytes around its edit (CRLF, BOM, non-ASCII) holds the new text, and is put back when a later write fails", async () => {
  const crlf = `\uFEFFconst a = "é";\r\n${"filler line\r\n".repeat(2000)}const b = 2;\r\n`;
  const t = await makeTree({ "a.txt": crlf, "b.txt": "one\n" });
  const edits = [
    { path: "a.txt", oldString: "const b = 2;", newString: "const b = 3;\nconst c = \"→\";" },
    { path: "b.txt", oldString: "one", newString: "two" },
  ];
  const before = await snapshot(t.base);
  const failed = await applyEdits(t.root, edits, {
    hooks: {
      beforeWrite: (c) => {
        if (c.rel === "b.txt") throw new Error("injected failure");
      },
    },
  });
  assert.equal(failed.ok, false);
  assert.deepEqual(await snapshot(t.base), before, "a.txt put back");
  const r = await applyEdits(t.root, edits);
  assert.ok(r.ok, JSON.stringify(r.errors));
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), crlf.replace("const b = 2;\r\n", 'const b = 3;\r\nconst c = "→";\r\n'));
  // The diff shows the lines as written (their CRs), so git apply takes it.
  assert.match(r.diff, /^-const b = 2;\r\n\+const b = 3;\r\n\+const c = "→";\r$/m);
});

test("applyEdits: a file edited in several places by one response is written and diffed from those places, as from the whole texts", async () => {
  const lines = Array.from({ length: 300 }, (_, i) => `line ${i} é`);
  const crlf = `\uFEFF${lines.join("\r\n")}\r\n`;
  const t = await makeTree({ "a.txt": crlf });
  const block = (find: string, replace: string) => `a.txt\n\`\`\`\n<<<<<<< SEARCH\n${find}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
  // Blocks far apart, two near enough for their hunks to meet, one whose range grows an earlier one.
  const response = [
    block("line 250 é\nline 251 é", "line 250 é\nadded → 1\nline 251 é"),
    block("line 10 é", "line ten"),
    block("line 14 é", "line fourteen"),
    block("line 120 é\nline 121 é\nline 122 é", "line 121 é"),
    block("line ten\nline 11 é", "line 10+11"),
  ].join("\n");
  const r = await applyEdits(t.root, response);
  assert.ok(r.ok, JSON.stringify(r.errors));
  const after = lines.map((l, i) => (i === 10 ? "line 10+11" : i === 14 ? "line fourteen" : i === 251 ? `added → 1\r\n${l}` : l));
  after.splice(120, 3, "line 121 é");
  after.splice(11, 1);
  const expected = `\uFEFF${after.join("\r\n")}\r\n`;
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), expected);
  // The diff of the written characters (CRs, BOM), as createExactPatch makes it from the whole texts.
  const paths = { oldPath: "a/a.txt", newPath: "b/a.txt" };
  assert.equal(r.diff, createExactPatch(crlf, expected, paths));
  // A unified diff of two hunks far apart (one change from the first to the last, in the engine's terms).
  const diff = ["--- a/a.txt", "+++ b/a.txt", "@@ @@", " line 2 é", "-line 3 é", "+line three", " line 4 é", "@@ @@", " line 200 é", "+line 200½", " line 201 é", ""].join("\n");
  const u = await applyEdits(t.root, diff);
  assert.ok(u.ok, JSON.stringify(u.errors));
  const third = expected.replace("line 3 é\r\n", "line three\r\n").replace("line 200 é\r\n", "line 200 é\r\nline 200½\r\n");
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), third);
  assert.equal(u.diff, createExactPatch(expected, third, paths));
});

test("read: a mixed-ending file is passed through unchanged", () => {
  const bytes = Buffer.from("a\r\nb\nc\r\n");
  const { text, layout } = decodeText(bytes, "f", false);
  assert.equal(text, "a\r\nb\nc\r\n");
  assert.equal(layout.crlf, false);
});

test("read: ASCII bytes (made a string outside the heap past ~1 MB) and any other bytes decode as the UTF-8 decoder reads them, or are refused as it refuses them", () => {
  const utf8 = (bytes: Uint8Array, fatal: boolean) => new TextDecoder("utf-8", { fatal, ignoreBOM: true }).decode(bytes);
  const asText = (bytes: Buffer, allowBinary: boolean) => {
    try {
      return decodeText(bytes, "f", allowBinary).text;
    } catch (error) {
      return (error as EditError).code;
    }
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (raw, allowBinary) => {
      // CRs, NULs and a BOM have rules of their own (tested above).
      const bytes = Buffer.from(raw.filter((b) => b !== 13 && b !== 0 && b !== 0xef));
      let want: string;
      try {
        want = utf8(bytes, true);
      } catch {
        if (!allowBinary) want = "BINARY";
        else {
          // Lenient: each byte outside a valid sequence is one U+FFFD (issue 39 item 4: the write puts
          // each back), so the decoder's characters stand between as many U+FFFD as there are such bytes.
          const got = decodeText(bytes, "f", true);
          const offsets = got.layout.undecoded ?? [];
          assert.ok(offsets.every((at) => got.text[at] === "\uFFFD"));
          assert.equal(got.text.replaceAll("\uFFFD", ""), utf8(bytes, false).replaceAll("\uFFFD", ""));
          return;
        }
      }
      assert.equal(asText(bytes, allowBinary), want);
    }),
  );
  const line = "const x = 1; // ascii ~!@#$%^&*()_+{}|:<>?`-=[]\\;',./\t\n";
  const big = Buffer.from(line.repeat(Math.ceil(1_500_000 / line.length)));
  assert.equal(asText(big, false), big.toString("utf8"));
  const withAccent = Buffer.concat([big, Buffer.from("é\n")]);
  assert.equal(asText(withAccent, false), `${big.toString("utf8")}é\n`);
  assert.equal(asText(Buffer.concat([big, Buffer.from([0xe9, 10])]), false), "BINARY");
});

// --- transaction ------------------------------------------------------------

test("transaction: a failure midway restores written, created and deleted files", failureMidwayRestores);

test("transaction: a failure among 30 files written several at a time restores every file and names the one that failed", async () => {
  const names = Array.from({ length: 30 }, (_, i) => `d${i % 3}/f${i}.txt`);
  const t = await makeTree(Object.fromEntries(names.map((n) => [n, `${n}\n`])));
  const before = await snapshot(t.base);
  const changes: PlannedChange[] = names.map((n) => ({
    rel: n,
    abs: path.join(t.root, n),
    kind: "write",
    bytes: Buffer.from(`${n} edited\n`),
    original: Buffer.from(`${n}\n`),
    mode: 0o644,
  }));
  changes.push({ rel: "d0/new/n.txt", abs: path.join(t.root, "d0/new/n.txt"), kind: "create", bytes: Buffer.from("n\n"), original: Buffer.alloc(0) });
  const started: number[] = [];
  let failing: { rel: string; index: number } | undefined;
  await assert.rejects(
    commitChanges(changes, {
      beforeWrite: async (c, index) => {
        started.push(index);
        // The tenth write to start fails at once; every other write is slow: those under way
        // finish after the failure (and are restored), and no other write starts.
        if (started.length === 10) {
          failing = { rel: c.rel, index };
          throw new Error("injected failure");
        }
        await new Promise((resolve) => setTimeout(resolve, 30));
      },
    }),
    (e: unknown) =>
      e instanceof EditError && e.code === "IO" && e.detail.path === failing?.rel && e.detail.index === failing?.index && /restored; nothing changed/.test(e.message),
  );
  assert.deepEqual(await snapshot(t.base), before);
  // No write starts once one has failed.
  assert.ok(started.length < changes.length, `${started.length} writes started`);
});

test("applyEdits: a response over 40 files, each named by several blocks, reports each file's own failure (unsafe path, binary, missing) and writes nothing", async () => {
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < 40; i++) files[`src/m${i}.js`] = `const a${i} = 1;\nconst b${i} = 2;\n`;
  files["src/bin.dat"] = Buffer.from([0x61, 0x00, 0x62, 0x0a]);
  const t = await makeTree(files);
  const before = await snapshot(t.base);
  const block = (p: string, find: string, repl: string) => `${p}\n<<<<<<< SEARCH\n${find}\n=======\n${repl}\n>>>>>>> REPLACE\n`;
  const parts: string[] = [];
  for (let i = 0; i < 40; i++) parts.push(block(`src/m${i}.js`, `const a${i} = 1;`, `const a${i} = 10;`), block(`src/m${i}.js`, `const b${i} = 2;`, `const b${i} = 20;`));
  parts.splice(20, 0, block("src/bin.dat", "a", "b"), block("../outside/secret.txt", "do not touch", "touched"), block("src/gone.js", "x", "y"));
  const result = await applyEdits(t.root, parts.join("\n"));
  assert.equal(result.written, false);
  assert.equal(result.applied, 80);
  const failedFiles = result.files.filter((f) => f.status === "failed").map((f) => [f.path, f.error?.code ?? f.edits[0]?.error?.code]);
  assert.deepEqual(failedFiles, [
    ["src/bin.dat", "BINARY"],
    ["../outside/secret.txt", "UNSAFE_PATH"],
    ["src/gone.js", "NOT_FOUND"],
  ]);
  assert.deepEqual(
    result.files.filter((f) => f.status === "modified").map((f) => f.path),
    Array.from({ length: 40 }, (_, i) => `src/m${i}.js`),
  );
  assert.deepEqual(await snapshot(t.base), before);
  // The same response with partial: the 40 files are written, each with both of its edits.
  const partial = await applyEdits(t.root, parts.join("\n"), { partial: true });
  assert.equal(partial.written, true);
  for (let i = 0; i < 40; i++) assert.equal(await read(t.root, `src/m${i}.js`), `const a${i} = 10;\nconst b${i} = 20;\n`);
});

test("transaction: writes keep the file mode and leave no temporary files", async () => {
  const t = await makeTree({ "run.sh": "echo a\n" });
  await chmod(path.join(t.root, "run.sh"), 0o755);
  await commitChanges([
    { rel: "run.sh", abs: path.join(t.root, "run.sh"), kind: "write", bytes: Buffer.from("echo b\n"), original: Buffer.from("echo a\n"), mode: 0o755 },
  ]);
  assert.equal((await stat(path.join(t.root, "run.sh"))).mode & 0o777, 0o755);
  assert.equal(await readFile(path.join(t.root, "run.sh"), "utf8"), "echo b\n");
  assert.deepEqual(await readdir(t.root), ["run.sh"]);
});

// --- detection ----------------------------------------------------------------

test("detect: the example response holds one edit per format, in response order", async () => {
  const input = await readFile(new URL("../examples/response.md", import.meta.url), "utf8");
  const { edits, errors } = detectEdits(input, "auto");
  assert.deepEqual(errors, []);
  assert.deepEqual(
    edits.map((e) => [e.format, e.path, e.format === "udiff" ? (e.payload as { isNew: boolean }).isNew : false]),
    [
      ["search-replace", "src/greet.js", false],
      ["udiff", "src/math.js", false],
      ["udiff", "src/config.js", false],
      ["udiff", "src/strings.js", true],
      ["str-replace", "README.md", false],
    ],
  );
});

const detectCases: { name: string; input: string; format?: "auto" | "udiff" | "str-replace"; edits: [string, string][]; errors?: string[] }[] = [
  {
    name: "bare git diff in prose, two files, deletion",
    input: "Patch:\ndiff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/y.txt b/y.txt\ndeleted file mode 100644\n--- a/y.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-y\nDone.\n",
    edits: [
      ["udiff", "x.txt"],
      ["udiff", "y.txt"],
    ],
  },
  {
    name: "snake-case tool call wrapped in arguments",
    input: '```json\n{"name": "edit", "arguments": {"file_path": "a.ts", "old_string": "x", "new_string": "y"}}\n```\n',
    edits: [["str-replace", "a.ts"]],
  },
  {
    name: "a JSON fence that is not an edit is ignored",
    input: 'Config:\n```json\n{"name": "pkg", "version": "1.0.0"}\n```\n\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-a\n+b\n',
    edits: [["udiff", "x.txt"]],
  },
  {
    name: "a JSON fence that is not an edit, and nothing else: PARSE naming it",
    input: 'Config:\n```json\n{"name": "pkg", "version": "1.0.0"}\n```\n',
    edits: [],
    errors: ["PARSE"],
  },
  {
    name: "broken JSON edit is a PARSE error with its line",
    input: 'Text\n```json\n{"path": "a", "oldString": "x\n", "newString": "y"}\n```\n',
    edits: [],
    errors: ["PARSE"],
  },
  {
    name: "diff without file headers is a PARSE error",
    input: "```diff\n@@ @@\n-a\n+b\n```\n",
    edits: [],
    errors: ["PARSE"],
  },
  {
    name: "whole input as a JSON array of structured edits",
    input: '[{"path": "a", "oldString": "x", "newString": "y"}, {"path": "b", "diff": "<<<<<<< SEARCH\\nx\\n=======\\ny\\n>>>>>>> REPLACE"}]',
    edits: [
      ["str-replace", "a"],
      ["search-replace", "b"],
    ],
  },
];

for (const c of detectCases) {
  test(`detect: ${c.name}`, async () => {
    const { edits, errors } = detectEdits(c.input, c.format ?? "auto");
    assert.deepEqual(
      edits.map((e) => [e.format, e.path]),
      c.edits,
    );
    assert.deepEqual(
      errors.map((e) => e.code),
      c.errors ?? [],
    );
  });
}

test("detect: never throws on arbitrary input", async () => {
  const pieces = fc.constantFrom("```", "```diff", "```json", "--- a/x", "+++ b/x", "@@ @@", "-a", "+b", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "{", '"path": "x"', "x.ts", "");
  fc.assert(
    fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 20 }), (parts) => {
      const r = detectEdits(parts.join("\n"), "auto");
      for (const e of r.errors) assert.ok(e instanceof EditError);
    }),
    { numRuns: 300 },
  );
});

// --- applyEdits: guards that act before any edit is applied ------------------

test("applyEdits: unsafe paths are refused and nothing outside the root is touched", async () => {
  const t = await makeTree({ "a.txt": "a\n", ".git/config": "[core]\n" });
  await symlink(t.outside, path.join(t.root, "out"));
  const before = await snapshot(t.base);
  const edits = ["../outside/secret.txt", path.join(t.outside, "secret.txt"), "out/secret.txt", ".git/config", "../outside/new.txt"].map((p) => ({
    path: p,
    oldString: "",
    newString: "pwned\n",
  }));
  const result = await applyEdits(t.root, edits, { partial: true });
  assert.equal(result.written, false);
  assert.deepEqual(
    result.files.map((f) => f.error?.code),
    ["UNSAFE_PATH", "UNSAFE_PATH", "UNSAFE_PATH", "UNSAFE_PATH", "UNSAFE_PATH"],
  );
  assert.deepEqual(await snapshot(t.base), before);
});

test("applyEdits: an empty oldString and newString create an empty file; on an existing empty file they change nothing", async () => {
  const t = await makeTree({ "empty.txt": "" });
  const created = await applyEdits(t.root, [{ path: "pkg/__init__.py", oldString: "", newString: "" }]);
  assert.equal(created.ok, true);
  assert.equal(created.files[0]?.status, "created");
  assert.equal(await read(t.root, "pkg/__init__.py"), "");
  const same = await applyEdits(t.root, [{ path: "empty.txt", oldString: "", newString: "" }]);
  assert.equal(same.files[0]?.edits[0]?.error?.code, "NO_CHANGE");
});

test("applyEdits: a binary file is refused with BINARY naming it", async () => {
  const t = await makeTree({ "img.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]) });
  const before = await snapshot(t.base);
  const result = await applyEdits(t.root, [{ path: "img.png", oldString: "PNG", newString: "JPG" }]);
  assert.equal(result.ok, false);
  assert.equal(result.files[0]?.error?.code, "BINARY");
  assert.equal(result.files[0]?.error?.detail.path, "img.png");
  assert.deepEqual(await snapshot(t.base), before);
});

test("applyEdits: a stale hash or stale content fails with STALE and what changed", async () => {
  const t = await makeTree({ "a.txt": "one\ntwo\nthree\n" });
  const seen = "one\n2\nthree\n";
  const byHash = await applyEdits(t.root, [{ path: "a.txt", oldString: "one", newString: "1" }], { expected: { "a.txt": hashBytes(seen) } });
  assert.equal(byHash.files[0]?.error?.code, "STALE");
  const byContent = await applyEdits(t.root, [{ path: "a.txt", oldString: "one", newString: "1", expectedContent: seen }]);
  const err = byContent.files[0]?.edits[0]?.error;
  assert.equal(err?.code, "STALE");
  assert.deepEqual(err?.detail.changedLines, [2]);
  assert.match(err?.message ?? "", /-2\n\+two/);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
});

test("applyEdits: input with no edits reports one PARSE error", async () => {
  const t = await makeTree({});
  const result = await applyEdits(t.root, "Just some prose, no edits here.\n");
  assert.equal(result.files.length, 0);
  assert.deepEqual(
    result.errors.map((e) => e.code),
    ["PARSE"],
  );
});

test("applyEdits: the root must be a directory", async () => {
  const t = await makeTree({ "f.txt": "x" });
  await assert.rejects(applyEdits(path.join(t.root, "f.txt"), "x"), (e: unknown) => e instanceof EditError && e.code === "INVALID_INPUT");
  assert.ok((await lstat(t.root)).isDirectory());
});

// --- interactive disambiguation --------------------------------------------------

const choiceCases: { name: string; pick: number | null; expect: string; ok: boolean }[] = [
  { name: "picking the second candidate edits only there", pick: 1, expect: "x = 1;\ny = 0;\nx = 2;\n", ok: true },
  { name: "skipping leaves the edit failed as AMBIGUOUS", pick: null, expect: "x = 1;\ny = 0;\nx = 1;\n", ok: false },
];

for (const c of choiceCases) {
  test(`applyEdits chooseCandidate: ${c.name}`, async () => {
    const t = await makeTree({ "a.txt": "x = 1;\ny = 0;\nx = 1;\n" });
    const offered: number[][] = [];
    const result = await applyEdits(t.root, [{ path: "a.txt", oldString: "x = 1;", newString: "x = 2;" }], {
      chooseCandidate: async (choice) => {
        offered.push(choice.candidates.map((k) => k.startLine));
        return c.pick;
      },
    });
    assert.deepEqual(offered, [[1, 3]]);
    assert.equal(result.ok, c.ok);
    assert.equal(await read(t.root, "a.txt"), c.expect);
    if (!c.ok) assert.equal(result.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
    else assert.equal(result.files[0]?.edits[0]?.startLine, 3);
  });
}

test("formatCandidates shows each candidate with line numbers and context", () => {
  const text = "a\nx\nb\nc\nx\nd\n";
  const shown = formatCandidates({
    path: "f.txt",
    index: 0,
    text,
    error: new EditError("AMBIGUOUS", "two places"),
    candidates: [
      { startLine: 2, endLine: 2 },
      { startLine: 5, endLine: 5 },
    ],
  });
  assert.match(shown, /\[1\] lines 2-2\n {6}1 \| a\n {4}> 2 \| x\n {6}3 \| b\n {6}4 \| c\n/);
  assert.match(shown, /\[2\] lines 5-5\n/);
});

// --- -p N: stripping path components ---------------------------------------------------

const stripCases: { path: string; n: number; want: string | undefined }[] = [
  { path: "a/src/help.js", n: 0, want: "a/src/help.js" },
  { path: "a/src/help.js", n: 1, want: "src/help.js" },
  { path: "a/src/help.js", n: 2, want: "help.js" },
  { path: "a/src/help.js", n: 3, want: undefined },
  { path: "a//src/help.js", n: 1, want: "src/help.js" },
  { path: "/usr/src/x.c", n: 1, want: "usr/src/x.c" },
  { path: "dir/", n: 1, want: undefined },
];

for (const c of stripCases) {
  test(`stripComponents(${JSON.stringify(c.path)}, ${c.n}) is ${JSON.stringify(c.want)}`, () => {
    assert.equal(stripComponents(c.path, c.n), c.want);
  });
}
