import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { hashBytes } from "../src/fs/read-file.ts";
import { createMcpServer } from "../src/mcp/server.ts";
import { makeTree, snapshot } from "./helpers/temp-tree.ts";

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** A hung server fails the test instead of hanging CI. */
const TIMEOUT_MS = 20_000;

/**
 * The one place that says how the server is started: the launcher in bin/
 * (TypeScript through tsx today; the built dist/ entry once there is one).
 */
/** The built server, as users run it (`npm ci` builds dist/ through `prepare`; `npm run build` after a change). */
function serverCommand(args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(REPO, "dist", "cli", "bin.cjs"), "mcp", ...args] };
}

const GREET = 'function greet(name) {\n    if (name) {\n        console.log("hello " + name);\n    }\n    return name;\n}\n\nfunction other() {\n    return 1;\n}\n';

interface Connection {
  client: Client;
  stderr: () => string;
}

/** `roots` is read on every roots/list, so a test can change it and notify the server. */
async function connect(args: readonly string[], roots: string[] = [], modern = false): Promise<Connection> {
  let stderr = "";
  const transport = new StdioClientTransport({ ...serverCommand(args), stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } as Record<string, string> });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client(
    { name: "fuzzpatch-test", version: "1.0.0" },
    {
      capabilities: roots.length > 0 ? { roots: { listChanged: true } } : {},
      // The 2026-07-28 revision when asked; else the 2025 initialize handshake today's clients use.
      ...(modern && { versionNegotiation: { mode: "auto" as const } }),
    },
  );
  if (roots.length > 0) client.setRequestHandler("roots/list", async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })) }));
  await client.connect(transport, { timeout: TIMEOUT_MS });
  return { client, stderr: () => stderr };
}

interface CallResult {
  isError: boolean;
  text: string;
}

async function call(conn: Connection, name: string, args: Record<string, unknown>): Promise<CallResult> {
  const result = await conn.client.callTool({ name, arguments: args }, { timeout: TIMEOUT_MS });
  const content = result.content as { type: string; text?: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0]?.type, "text");
  return { isError: result.isError === true, text: content[0]?.text ?? "" };
}

let tree: { base: string; root: string; outside: string };
let clientRoot: string;
const offeredRoots: string[] = [];
let server: Connection;
let readOnly: Connection;
let modern: Connection;

before(async () => {
  tree = await makeTree({ "fuzzy.js": GREET, "ambiguous.js": GREET, "multi.js": GREET, "stale.js": GREET, "read.js": GREET, "merge.js": GREET, "structured.js": GREET, "reference.js": GREET, "undo.js": GREET });
  // A root the client offers (MCP roots) beside the --root the server was started with.
  clientRoot = path.join(tree.base, "client-root");
  await mkdir(clientRoot);
  await writeFile(path.join(clientRoot, "offered.js"), GREET);
  await mkdir(path.join(tree.base, "second-root"));
  await writeFile(path.join(tree.base, "second-root", "second.js"), GREET);
  offeredRoots.push(clientRoot);
  // Started together: each start costs a process and a TypeScript load.
  [server, readOnly, modern] = await Promise.all([
    connect(["--root", tree.root, "--root", path.join(tree.base, "second-root"), "--allow-client-roots"], offeredRoots),
    connect(["--root", tree.root, "--read-only"]),
    connect(["--root", tree.root], [], true),
  ]);
}, { timeout: TIMEOUT_MS * 2 });

after(async () => {
  await Promise.all([server?.client.close(), readOnly?.client.close(), modern?.client.close()]);
}, { timeout: TIMEOUT_MS });

const opts = { timeout: TIMEOUT_MS * 2 };

test("mcp: lists the six tools with their schemas; --read-only lists read_file only", opts, async () => {
  const { tools } = await server.client.listTools(undefined, { timeout: TIMEOUT_MS });
  assert.deepEqual(
    tools.map((t) => t.name),
    ["read_file", "edit_file", "edit_lines", "apply_diff", "create_file", "undo_edit", "apply_snippet"],
  );
  const edit = tools.find((t) => t.name === "edit_file");
  assert.deepEqual(edit?.inputSchema.required, ["path", "edits"]);
  assert.equal(edit?.annotations?.readOnlyHint, false);
  assert.match(edit?.description ?? "", /AMBIGUOUS/);
  // Only create_file (which never overwrites) and read_file are non-destructive; every tool publishes an output schema and a title.
  assert.deepEqual(
    tools.map((t) => [t.name, t.annotations?.destructiveHint, t.annotations?.idempotentHint, t.outputSchema?.required, typeof t.title]),
    [
      ["read_file", false, true, ["ok", "errors"], "string"],
      ["edit_file", true, true, ["ok", "dryRun", "files", "errors"], "string"],
      ["edit_lines", true, false, ["ok", "dryRun", "files", "errors"], "string"],
      ["apply_diff", true, true, ["ok", "dryRun", "files", "errors"], "string"],
      ["create_file", false, true, ["ok", "dryRun", "files", "errors"], "string"],
      ["undo_edit", true, false, ["ok", "dryRun", "files", "errors"], "string"],
      ["apply_snippet", true, false, ["ok", "dryRun", "files", "errors"], "string"],
    ],
  );
  const ro = await readOnly.client.listTools(undefined, { timeout: TIMEOUT_MS });
  assert.deepEqual(
    ro.tools.map((t) => t.name),
    ["read_file"],
  );
});

interface Case {
  name: string;
  conn?: () => Connection;
  tool: string;
  args: () => Record<string, unknown>;
  isError: boolean;
  says: string[];
  /** File (relative to the temp base) and its exact content after the call. */
  after?: [string, string];
  unchanged?: boolean;
}

const cases: Case[] = [
  {
    name: "read a file: numbered lines and its sha256",
    tool: "read_file",
    args: () => ({ path: "read.js", offset: 2, limit: 2 }),
    isError: false,
    says: [`read.js (lines 2-3 of 10, sha256 ${hashBytes(GREET)})\n2→    if (name) {\n3→        console.log("hello " + name);\n`],
    unchanged: true,
  },
  {
    name: "a fuzzy edit applies and says so",
    tool: "edit_file",
    args: () => ({ path: "fuzzy.js", edits: [{ oldString: "if (name) {\n  console.log('hello ' + name);\n}", newString: "if (name) {\n  console.log('hello, ' + name);\n}" }] }),
    isError: false,
    // The model changed the text, not the quotes: the file's quotes stay (three-way merge).
    says: ["Applied 1 edit to fuzzy.js.", "matched fuzzily", '+        console.log("hello, " + name);'],
    after: ["root/fuzzy.js", GREET.replace('"hello "', '"hello, "')],
  },
  {
    name: "an ambiguous edit is an error result listing every candidate; nothing written",
    tool: "edit_file",
    args: () => ({ path: "ambiguous.js", edits: [{ oldString: "}", newString: "};" }] }),
    isError: true,
    says: ["AMBIGUOUS", "lines 4-4", "lines 6-6", "lines 10-10"],
    unchanged: true,
  },
  {
    name: "the second edit of a call fails: nothing written",
    tool: "edit_file",
    args: () => ({
      path: "multi.js",
      edits: [
        { oldString: "return 1;", newString: "return 2;" },
        { oldString: "return 3;", newString: "return 4;" },
      ],
    }),
    isError: true,
    says: ["Nothing was written: 1 of 2 edits failed.", "edit 2 failed with NOT_FOUND"],
    unchanged: true,
  },
  {
    name: "a path outside the root is refused",
    tool: "edit_file",
    args: () => ({ path: "../outside/secret.txt", edits: [{ oldString: "do not touch", newString: "touched" }] }),
    isError: true,
    says: ["UNSAFE_PATH:"],
    unchanged: true,
  },
  {
    name: "a stale hash is refused",
    tool: "edit_file",
    args: () => ({ path: "stale.js", expectedHash: hashBytes("an older version\n"), edits: [{ oldString: "return 1;", newString: "return 2;" }] }),
    isError: true,
    says: ["STALE: stale.js changed since you read it"],
    unchanged: true,
  },
  {
    name: "a root the client offers is usable through an absolute path",
    tool: "edit_file",
    args: () => ({ path: path.join(clientRoot, "offered.js"), edits: [{ oldString: "return 1;", newString: "return 2;" }] }),
    isError: false,
    says: ["offered.js (modified, now sha256"],
    after: ["client-root/offered.js", GREET.replace("return 1;", "return 2;")],
  },
  {
    name: "a second --root is usable through an absolute path, and named absolutely",
    tool: "edit_file",
    args: () => ({ path: path.join(tree.base, "second-root", "second.js"), edits: [{ oldString: "return 1;", newString: "return 2;" }] }),
    isError: false,
    says: ["Applied 1 edit to /", "/second-root/second.js."],
    after: ["second-root/second.js", GREET.replace("return 1;", "return 2;")],
  },
  {
    name: "--read-only: read_file works",
    conn: () => readOnly,
    tool: "read_file",
    args: () => ({ path: "read.js", limit: 1 }),
    isError: false,
    says: ["1→function greet(name) {"],
    unchanged: true,
  },
];

for (const c of cases) {
  test(`mcp: ${c.name}`, opts, async () => {
    const before = await snapshot(tree.base);
    const result = await call(c.conn?.() ?? server, c.tool, c.args());
    assert.equal(result.isError, c.isError, result.text);
    for (const s of c.says) assert.ok(result.text.includes(s), `expected ${JSON.stringify(s)} in:\n${result.text}`);
    if (c.after) assert.equal(await readFile(path.join(tree.base, c.after[0]), "utf8"), c.after[1]);
    if (c.unchanged) assert.deepEqual(await snapshot(tree.base), before);
  });
}

test("mcp: read; another writer changes the file; edit_file with the old text and old expectedHash merges elsewhere, and is a CONFLICT naming the current lines in the same region", opts, async () => {
  const file = path.join(tree.root, "merge.js");
  const read = await call(server, "read_file", { path: "merge.js" });
  const hash = /sha256 ([0-9a-f]{64})/.exec(read.text)?.[1];
  assert.ok(hash, read.text);
  // Another writer: a change far from the edit.
  const elsewhere = GREET.replace("return 1;", "return 10;");
  await writeFile(file, elsewhere);
  const merged = await call(server, "edit_file", { path: "merge.js", expectedHash: hash, edits: [{ oldString: "    return name;", newString: "    return name.trim();" }] });
  assert.equal(merged.isError, false, merged.text);
  assert.equal(await readFile(file, "utf8"), elsewhere.replace("    return name;", "    return name.trim();"));
  // The same region changed since that read: refused, the current lines quoted, nothing written.
  const now = elsewhere.replace('console.log("hello " + name);', 'console.info("hello " + name);').replace("    return name;", "    return name.trim();");
  await writeFile(file, now);
  const conflict = await call(server, "edit_file", { path: "merge.js", expectedHash: hash, edits: [{ oldString: '        console.log("hello " + name);', newString: '        console.warn("hello " + name);' }] });
  assert.equal(conflict.isError, true);
  assert.match(conflict.text, /CONFLICT/);
  assert.match(conflict.text, /3 \| {9}console\.info\("hello " \+ name\);/);
  assert.equal(await readFile(file, "utf8"), now);
});

interface Structured {
  ok: boolean;
  files: { path: string; status: string; written: boolean; sha256?: string; diff: string; edits: { status: string; strategy?: string; startLine?: number; endLine?: number; error?: { code: string } }[] }[];
  errors: { code: string; message: string }[];
}

test("mcp: edit_file results carry structuredContent (the client checks it against the outputSchema); oldText/newText accepted", opts, async () => {
  const ok = await server.client.callTool(
    { name: "edit_file", arguments: { path: "reference.js", edits: [{ oldText: "return 1;", newText: "return 2;" }] } },
    { timeout: TIMEOUT_MS },
  );
  assert.equal(ok.isError, false, JSON.stringify(ok.content));
  const after = await readFile(path.join(tree.root, "reference.js"));
  assert.equal(after.toString(), GREET.replace("return 1;", "return 2;"));
  const data = ok.structuredContent as unknown as Structured;
  assert.equal(data.ok, true);
  assert.equal(data.files.length, 1);
  const file = data.files[0];
  assert.equal(file?.path, "reference.js");
  assert.equal(file?.status, "modified");
  assert.equal(file?.sha256, hashBytes(after));
  assert.ok(file?.diff.includes("-    return 1;\n+    return 2;\n"), file?.diff);
  assert.deepEqual(file?.edits, [{ status: "applied", strategy: "exact", startLine: 9, endLine: 9, fuzzy: false, similarity: 1 }]);

  const refused = await server.client.callTool(
    { name: "edit_file", arguments: { path: "structured.js", edits: [{ old_string: "}", new_string: "};" }] } },
    { timeout: TIMEOUT_MS },
  );
  assert.equal(refused.isError, true);
  const failed = refused.structuredContent as unknown as Structured;
  assert.equal(failed.ok, false);
  assert.equal(failed.files[0]?.written, false);
  assert.equal(failed.files[0]?.edits[0]?.status, "failed");
  assert.equal(failed.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
  assert.equal(await readFile(path.join(tree.root, "structured.js"), "utf8"), GREET);

  const invalid = await server.client.callTool({ name: "apply_diff", arguments: { path: "structured.js" } }, { timeout: TIMEOUT_MS });
  assert.equal(invalid.isError, true);
  assert.deepEqual(
    (invalid.structuredContent as unknown as Structured).errors.map((e) => e.code),
    ["INVALID_INPUT"],
  );
  // read_file says which lines of which version it showed.
  const read = await server.client.callTool({ name: "read_file", arguments: { path: "structured.js", limit: 1 } }, { timeout: TIMEOUT_MS });
  assert.deepEqual(read.structuredContent, { ok: true, path: "structured.js", sha256: hashBytes(Buffer.from(GREET)), startLine: 1, endLine: 1, totalLines: 10, errors: [] });
});

test("mcp: undo_edit takes back the last edit of a file (restored byte for byte, structuredContent with its sha256); a second undo finds nothing left", opts, async () => {
  const file = path.join(tree.root, "undo.js");
  const edited = await call(server, "edit_file", { path: "undo.js", edits: [{ oldString: "return 1;", newString: "return 2;" }] });
  assert.equal(edited.isError, false, edited.text);
  assert.equal(await readFile(file, "utf8"), GREET.replace("return 1;", "return 2;"));
  const result = await server.client.callTool({ name: "undo_edit", arguments: { path: "undo.js" } }, { timeout: TIMEOUT_MS });
  const text = (result.content as { text: string }[])[0]?.text ?? "";
  assert.equal(result.isError, false, text);
  assert.match(text, /^Undid write \S+:\nrestored: undo\.js\n/);
  assert.equal(await readFile(file, "utf8"), GREET);
  const structured = result.structuredContent as { ok: boolean; files: { path: string; status: string; written: boolean; sha256: string }[] };
  assert.deepEqual(structured.files.map((f) => [f.path, f.status, f.written, f.sha256]), [["undo.js", "modified", true, hashBytes(GREET)]]);
  const again = await call(server, "undo_edit", { path: "undo.js" });
  assert.equal(again.isError, true);
  assert.match(again.text, /^NOT_FOUND: No write to .*undo\.js left to undo/);
  assert.equal(await readFile(file, "utf8"), GREET);
});

test("mcp: --read-only refuses edit_file and writes nothing", opts, async () => {
  const before = await snapshot(tree.base);
  const outcome = await readOnly.client
    .callTool({ name: "edit_file", arguments: { path: "read.js", edits: [{ oldString: "return 1;", newString: "return 2;" }] } }, { timeout: TIMEOUT_MS })
    .then(
      (r) => ({ isError: r.isError === true, text: JSON.stringify(r.content) }),
      (e: Error) => ({ isError: true, text: e.message }),
    );
  assert.equal(outcome.isError, true);
  assert.match(outcome.text, /Tool edit_file not found/);
  assert.deepEqual(await snapshot(tree.base), before);
});

test("mcp: logs go to stderr, the protocol stays on stdout", opts, () => {
  assert.match(server.stderr(), /fuzzpatch mcp 0\.1\.0: serving roots \/.*\/root, \/.*\/second-root\n/);
  assert.match(server.stderr(), /fuzzpatch mcp: client roots: \/.*\/client-root/);
  assert.match(readOnly.stderr(), /serving root \//);
  assert.match(readOnly.stderr(), /\(read-only\)/);
});

test("mcp: a --root that is not a directory stops the server at startup with exit code 2", opts, async () => {
  const { command, args } = serverCommand(["--root", path.join(tree.base, "missing")]);
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  assert.equal(code, 2);
  assert.match(stderr, /IO: The root directory .*missing cannot be opened/);
});

test("mcp: a root the client adds later is usable after roots/list_changed", opts, async () => {
  const late = path.join(tree.base, "late-root");
  await mkdir(late);
  await writeFile(path.join(late, "late.js"), GREET);
  const args = { path: path.join(late, "late.js"), edits: [{ oldString: "return 1;", newString: "return 2;" }] };
  const refused = await call(server, "edit_file", args);
  assert.equal(refused.isError, true, refused.text);
  assert.match(refused.text, /UNSAFE_PATH/);
  offeredRoots.push(late);
  await server.client.sendRootsListChanged();
  const applied = await call(server, "edit_file", args);
  assert.equal(applied.isError, false, applied.text);
  assert.equal(await readFile(path.join(late, "late.js"), "utf8"), GREET.replace("return 1;", "return 2;"));
});

test("mcp: a client on the 2026-07-28 revision gets the same tools and results", opts, async () => {
  assert.equal(modern.client.getNegotiatedProtocolVersion(), "2026-07-28");
  const result = await call(modern, "edit_file", { path: "ambiguous.js", edits: [{ oldString: "}", newString: "};" }] });
  assert.equal(result.isError, true);
  assert.match(result.text, /AMBIGUOUS/);
});

test("mcp: a message over 10 MiB is answered with an error and the server stays up (issue 22, item 4)", opts, async () => {
  const huge = "x".repeat(11 * 1024 * 1024);
  const outcome = await server.client.callTool({ name: "read_file", arguments: { path: huge } }, { timeout: TIMEOUT_MS }).then(
    (r) => `result: ${JSON.stringify(r).slice(0, 200)}`,
    (e: Error) => `error: ${e.message}`,
  );
  assert.match(outcome, /^error: .*over this server's limit of 10485760 bytes/);
  const after = await call(server, "read_file", { path: "read.js", limit: 1 });
  assert.equal(after.isError, false, after.text);
  assert.match(after.text, /1→function greet\(name\) \{/);
  assert.match(server.stderr(), /dropped a message of \d+ bytes, over the limit of 10485760/);
});

test("boundedLines: lines within the limit pass whole; a longer one is dropped and its top-level id found wherever it stands, in pieces", async () => {
  const { PassThrough } = await import("node:stream");
  const { boundedLines } = await import("../src/mcp/bounded-lines.ts");
  const input = new PassThrough();
  const dropped: unknown[] = [];
  const out = boundedLines(input, 64, (id, bytes) => dropped.push([id, bytes]));
  const lines: string[] = [];
  out.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
  const long = `{"params":{"id":"inner","t":"${"y".repeat(100)}, \\"id\\": 9"},"jsonrpc":"2.0","id":"outer-7"}`;
  const notification = `{"method":"n","params":{"id":3,"t":"${"z".repeat(100)}"}}`;
  const text = `{"a":1}\n${long}\n{"id":2}\n${notification}\n{"id":[1]}\n`;
  // Fed in 7-byte pieces: an id split across chunks is still found.
  for (let i = 0; i < text.length; i += 7) input.write(text.slice(i, i + 7));
  input.end();
  await new Promise((resolve) => out.on("end", resolve));
  assert.deepEqual(lines, ['{"a":1}\n', '{"id":2}\n', '{"id":[1]}\n']);
  assert.deepEqual(dropped, [
    ["outer-7", Buffer.byteLength(long)],
    [undefined, Buffer.byteLength(notification)],
  ]);
});

test("mcp: with --root, client roots only narrow the scope: a client offering file:/// and another directory writes nothing outside --root (issue 22, item 14)", opts, async () => {
  const wide = await connect(["--root", tree.root], ["/", clientRoot]);
  try {
    const before = await snapshot(clientRoot);
    const outside = await call(wide, "edit_file", { path: path.join(clientRoot, "offered.js"), edits: [{ oldString: "return 1;", newString: "return 3;" }] });
    assert.equal(outside.isError, true, outside.text);
    assert.match(outside.text, /UNSAFE_PATH/);
    assert.deepEqual(await snapshot(clientRoot), before);
    const inside = await call(wide, "read_file", { path: path.join(tree.root, "read.js"), limit: 1 });
    assert.equal(inside.isError, false, inside.text);
    assert.match(wide.stderr(), /client roots outside --root ignored: .*client-root/);
  } finally {
    await wide.client.close();
  }
});

test("mcp --timeout: each tool call gets that budget; past it the call fails with TIMEOUT naming it and writes nothing", opts, async () => {
  // A near-miss edit of a 60,000-line file: the tolerant search alone takes longer than 1 ms.
  const big = Array.from({ length: 60_000 }, (_, i) => `const v${i} = compute(${i});`).join("\n");
  const t = await makeTree({ "big.js": `${big}\n` });
  const short = await connect(["--root", t.root, "--timeout", "1"]);
  try {
    const before = await snapshot(t.root);
    const r = await call(short, "edit_file", { path: "big.js", edits: [{ oldString: "const v30000 = compte(30000);", newString: "const v30000 = 0;" }] });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /TIMEOUT/);
    assert.match(r.text, /time budget of 1 ms/);
    assert.deepEqual(await snapshot(t.root), before);
  } finally {
    await short.client.close();
  }
});

test("narrowRoots: a client root inside --root narrows it, one containing it leaves it, one elsewhere is dropped", async () => {
  const { narrowRoots } = await import("../src/tools/roots.ts");
  const sub = path.join(tree.root, "narrow-sub");
  await mkdir(sub, { recursive: true });
  assert.deepEqual(await narrowRoots([tree.root], [sub]), { roots: [sub], dropped: [] });
  assert.deepEqual(await narrowRoots([tree.root], ["/"]), { roots: [tree.root], dropped: [] });
  assert.deepEqual(await narrowRoots([tree.root], [clientRoot]), { roots: [tree.root], dropped: [clientRoot] });
});

// --- in process, through InMemoryTransport: the current client (2025-11-25) and a 2025-06-18 session ---

async function inProcess(root: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ roots: [root], log: () => {} }).connect(serverSide);
  const client = new Client({ name: "fuzzpatch-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

type Edits = { status: string; strategy?: string; similarity?: number; warnings?: string[]; note?: string; candidates?: { startLine: number }[]; closest?: { startLine: number; similarity: number } }[];
const editsOf = (r: { structuredContent?: unknown }) => ((r.structuredContent as { files: { edits: Edits }[] }).files[0]?.edits ?? []) as Edits;

test("mcp 2025-11-25: per-edit reports (similarity, warnings, candidates, closest) in structuredContent the client validated", opts, async () => {
  const t = await makeTree({ "g.js": GREET });
  const client = await inProcess(t.root);
  const fuzzy = await client.callTool({ name: "edit_file", arguments: { path: "g.js", edits: [{ oldString: 'if (name) {\n    console.log("hello " + name);\n}', newString: 'if (name) {\n    console.log("hi " + name);\n}' }] } });
  assert.equal(fuzzy.isError, false, JSON.stringify(fuzzy.content));
  const [applied] = editsOf(fuzzy);
  assert.equal(applied?.status, "applied");
  assert.ok((applied?.similarity ?? 1) <= 1 && applied?.warnings?.[0]?.includes("not exactly"), JSON.stringify(applied));
  const ambiguous = await client.callTool({ name: "edit_file", arguments: { path: "g.js", edits: [{ oldString: "    return", newString: "    return void" }] } });
  assert.equal(ambiguous.isError, true);
  assert.deepEqual(
    editsOf(ambiguous)[0]?.candidates?.map((c) => c.startLine),
    [5, 9],
  );
  const missing = await client.callTool({ name: "edit_file", arguments: { path: "g.js", edits: [{ oldString: "function greeter(nom) {", newString: "x" }] } });
  assert.equal(missing.isError, true);
  assert.equal(editsOf(missing)[0]?.closest?.startLine, 1);
  await client.close();
});

test("mcp 2025-11-25: invalid arguments are a tool result with isError and a message to correct from, not a protocol error", opts, async () => {
  const t = await makeTree({ "g.js": GREET });
  const client = await inProcess(t.root);
  for (const [name, args, says] of [
    ["edit_file", { path: "g.js", edits: "nope" }, /edits must be JSON|not valid/],
    ["edit_file", { edits: [{ oldString: "a", newString: "b" }] }, /path: .*(expected string|Required|received undefined)/i],
    ["read_file", { path: "g.js", offset: 0 }, /offset/],
    ["apply_diff", {}, /diff/],
  ] as const) {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, true, name);
    const text = (r.content as { text: string }[])[0]?.text ?? "";
    assert.match(text, /^INVALID_INPUT: /, text);
    assert.match(text, says);
    assert.equal((r.structuredContent as { ok: boolean }).ok, false);
  }
  await client.close();
});

test("mcp: idempotentHint is the truth: the same edit_file, apply_diff and create_file call again changes nothing", opts, async () => {
  const t = await makeTree({ "g.js": GREET });
  const client = await inProcess(t.root);
  const { tools } = await client.listTools();
  const calls: [string, Record<string, unknown>][] = [
    ["edit_file", { path: "g.js", edits: [{ oldString: "return 1;", newString: "return 1; // one" }] }],
    ["apply_diff", { diff: "--- a/g.js\n+++ b/g.js\n@@ -1,2 +1,2 @@\n-function greet(name) {\n+function greet(who) {\n     if (name) {\n" }],
    ["create_file", { path: "n.txt", content: "new\n" }],
  ];
  for (const [name, args] of calls) {
    assert.equal(tools.find((x) => x.name === name)?.annotations?.idempotentHint, true, name);
    const first = await client.callTool({ name, arguments: args });
    assert.equal(first.isError, false, JSON.stringify(first.content));
    const before = await snapshot(t.root);
    const again = await client.callTool({ name, arguments: args });
    assert.deepEqual(await snapshot(t.root), before, `${name} sent again changed a file`);
    if (name !== "create_file") assert.equal(editsOf(again)[0]?.status, "already-applied", JSON.stringify(again.content));
  }
  await client.close();
});

test("mcp 2025-06-18: a client on the older revision initializes, lists the tools and gets structured results", opts, async () => {
  const t = await makeTree({ "g.js": GREET });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ roots: [t.root], log: () => {} }).connect(serverSide);
  const replies = new Map<number, { result?: Record<string, unknown>; error?: unknown }>();
  clientSide.onmessage = (m) => {
    const msg = m as { id?: number; result?: Record<string, unknown>; error?: unknown };
    if (typeof msg.id === "number") replies.set(msg.id, msg);
  };
  await clientSide.start();
  const request = async (id: number, method: string, params: Record<string, unknown>) => {
    await clientSide.send({ jsonrpc: "2.0", id, method, params });
    for (let i = 0; i < 200 && !replies.has(id); i++) await new Promise((r) => setTimeout(r, 5));
    const reply = replies.get(id);
    assert.ok(reply?.result, `${method}: ${JSON.stringify(reply)}`);
    return reply.result;
  };
  const init = await request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old", version: "1" } });
  assert.equal(init.protocolVersion, "2025-06-18");
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const list = (await request(2, "tools/list", {})) as { tools: { name: string; title?: string; outputSchema?: unknown }[] };
  assert.equal(list.tools.length, 7);
  assert.ok(list.tools.every((x) => x.outputSchema && x.title));
  const called = (await request(3, "tools/call", { name: "edit_file", arguments: { path: "g.js", edits: [{ oldString: "return 1;", newString: "return 2;" }] } })) as {
    isError?: boolean;
    structuredContent?: { ok: boolean };
  };
  assert.equal(called.isError, false);
  assert.equal(called.structuredContent?.ok, true);
  assert.equal(await readFile(path.join(t.root, "g.js"), "utf8"), GREET.replace("return 1;", "return 2;"));
  await clientSide.close();
});
