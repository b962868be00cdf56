/**
 * Anchored edits through the shells: runTool (read_file with anchors,
 * edit_lines with the version store), the CLI (`read --anchors`, `apply` of
 * line edits) and the real MCP client against the built server
 * (`mcp --anchors`): read with tags, another writer inserts lines above,
 * the old tags land right; a tagged line changed is STALE with fresh tags.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { lineTag } from "../src/index.ts";
import { runTool, strictToolDefinitions, toolDefinitions, VersionStore } from "../src/tools.ts";
import { runMain } from "./helpers/cli-run.ts";
import { makeTree } from "./helpers/temp-tree.ts";

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TIMEOUT_MS = 20_000;

const FILE = `${Array.from({ length: 30 }, (_, k) => `row ${k + 1}`).join("\n")}\n`;
const ABOVE = ["// added by another writer", "import { x } from './x';", ""];

/** The tag ref of line `n` as the view printed it. */
function tagOf(view: string, n: number): string {
  const line = view.split("\n").find((l) => l.startsWith(`${n}#`));
  assert.ok(line, `line ${n} in the view`);
  return (line as string).slice(0, (line as string).indexOf(":"));
}

test("runTool: read_file with anchors tags every line; the options' anchors is the default a call can override", async () => {
  const t = await makeTree({ "a.txt": FILE });
  const tagged = await runTool("read_file", { path: "a.txt", anchors: true }, { root: t.root });
  assert.equal(tagged.isError, false);
  assert.ok(tagged.text.includes(`\n7#${lineTag("row 7")}:row 7\n`), tagged.text);
  const byDefault = await runTool("read_file", { path: "a.txt" }, { root: t.root, anchors: true });
  assert.equal(byDefault.text, tagged.text);
  const plain = await runTool("read_file", { path: "a.txt", anchors: false }, { root: t.root, anchors: true });
  assert.match(plain.text, /\n 7→row 7\n/);
});

test("runTool: edit_lines after another writer inserted lines above lands on the line read; a changed line is STALE with fresh tags", async () => {
  const t = await makeTree({ "a.txt": FILE });
  const versions = new VersionStore();
  const options = { root: t.root, versions };
  const view = (await runTool("read_file", { path: "a.txt", anchors: true }, options)).text;
  await writeFile(path.join(t.root, "a.txt"), `${ABOVE.join("\n")}\n${FILE}`);
  const r = await runTool("edit_lines", { path: "a.txt", edits: [{ op: "replace", from: tagOf(view, 10), to: tagOf(view, 11), lines: ["ten and eleven"] }] }, options);
  assert.equal(r.isError, false, r.text);
  const now = await readFile(path.join(t.root, "a.txt"), "utf8");
  assert.equal(now, `${ABOVE.join("\n")}\n${FILE.replace("row 10\nrow 11\n", "ten and eleven\n")}`);
  // The same tags again: the store has the version read and the one written; sent again, nothing changes.
  const again = await runTool("edit_lines", { path: "a.txt", edits: [{ op: "replace", from: tagOf(view, 10), to: tagOf(view, 11), lines: ["ten and eleven"] }] }, options);
  assert.equal(again.isError, false, again.text);
  assert.match(again.text, /already applied/i);
  // Another writer changes row 20: its old tag is STALE, and the message holds the fresh tags.
  await writeFile(path.join(t.root, "a.txt"), now.replace("row 20\n", "row twenty\n"));
  const stale = await runTool("edit_lines", { path: "a.txt", edits: [{ op: "delete", from: tagOf(view, 20) }] }, options);
  assert.equal(stale.isError, true);
  assert.match(stale.text, /failed with STALE/);
  assert.ok(stale.text.includes(`22#${lineTag("row twenty")}:row twenty`), stale.text);
  const retry = await runTool("edit_lines", { path: "a.txt", edits: [{ op: "delete", from: `22#${lineTag("row twenty")}` }] }, options);
  assert.equal(retry.isError, false, retry.text);
  assert.ok(!(await readFile(path.join(t.root, "a.txt"), "utf8")).includes("row twenty"));
});

test("runTool: edit_lines reads strict-mode nulls, edits as a JSON string, a peer's op; bad edits are PARSE; dryRun writes nothing", async () => {
  const t = await makeTree({ "a.txt": FILE });
  const options = { root: t.root };
  const view = (await runTool("read_file", { path: "a.txt", anchors: true }, options)).text;
  const strict = await runTool(
    "edit_lines",
    { path: "a.txt", edits: [{ op: "insert_after", from: null, to: null, at: tagOf(view, 1), lines: ["after one"] }], expectedHash: null, dryRun: true },
    options,
  );
  assert.equal(strict.isError, false, strict.text);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), FILE);
  const asText = await runTool("edit_lines", JSON.stringify({ file_path: "a.txt", edits: JSON.stringify([{ op: "append", lines: ["end"] }]) }), options);
  assert.equal(asText.isError, false, asText.text);
  assert.ok((await readFile(path.join(t.root, "a.txt"), "utf8")).endsWith("row 30\nend\n"));
  const bad = await runTool("edit_lines", { path: "a.txt", edits: [{ op: "replace", from: "ten", lines: [] }] }, options);
  assert.equal(bad.isError, true);
  assert.match(bad.text, /^PARSE: Edit 1 "from" "ten" is not a line tag/);
});

test("runTool: lines copied from the anchored view into edit_file, tags and all, match their place", async () => {
  const t = await makeTree({ "a.txt": FILE });
  const view = (await runTool("read_file", { path: "a.txt", anchors: true }, { root: t.root })).text;
  const copied = view.split("\n").slice(12, 14).join("\n");
  assert.match(copied, /^12#[a-z]{3}:row 12\n13#[a-z]{3}:row 13$/);
  const r = await runTool("edit_file", { path: "a.txt", edits: [{ oldString: copied, newString: "twelve\nthirteen" }] }, { root: t.root });
  assert.equal(r.isError, false, r.text);
  assert.equal(await readFile(path.join(t.root, "a.txt"), "utf8"), FILE.replace("row 12\nrow 13\n", "twelve\nthirteen\n"));
});

test("tool definitions: edit_lines is listed after edit_file, with a strict variant", () => {
  const names = toolDefinitions.map((d) => d.name);
  assert.deepEqual(names.slice(0, 3), ["read_file", "edit_file", "edit_lines"]);
  const def = toolDefinitions.find((d) => d.name === "edit_lines");
  assert.deepEqual(def?.inputSchema.required, ["path", "edits"]);
  assert.match(def?.description ?? "", /STALE/);
  const strict = strictToolDefinitions.find((d) => d.name === "edit_lines");
  const item = strict?.inputSchema.properties.edits?.items;
  assert.deepEqual(item?.required, ["op", "from", "to", "at", "lines"]);
  const read = toolDefinitions.find((d) => d.name === "read_file");
  assert.ok(Object.hasOwn(read?.inputSchema.properties ?? {}, "anchors"));
});

test("CLI: read --anchors prints tagged lines; apply takes line edits as JSON", async () => {
  const t = await makeTree({ "a.txt": FILE });
  const file = path.join(t.root, "a.txt");
  const shown = await runMain(["read", file, "--anchors", "--offset", "3", "--limit", "2"]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout, `${file} (lines 3-4 of 30, sha256 ${shown.stdout.match(/sha256 ([0-9a-f]{64})/)?.[1]})\n3#${lineTag("row 3")}:row 3\n4#${lineTag("row 4")}:row 4\n(26 more lines: run fuzzpatch read ${file} --anchors --offset 5 --limit 2 to read on.)\n`);
  const plain = await runMain(["read", file, "--limit", "1"]);
  assert.match(plain.stdout, /\n1→row 1\n/);
  const missing = await runMain(["read", path.join(t.root, "nope.txt")]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /NOT_FOUND/);
  const edits = path.join(t.base, "edits.json");
  await writeFile(edits, JSON.stringify({ path: "a.txt", edits: [{ op: "insert_before", at: `1#${lineTag("row 1")}`, lines: ["head"] }] }));
  const applied = await runMain(["apply", edits, "--root", t.root]);
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(await readFile(file, "utf8"), `head\n${FILE}`);
  // A tag whose line changed: refused with the fresh tags, nothing written.
  await writeFile(edits, JSON.stringify({ path: "a.txt", edits: [{ op: "delete", from: `3#${lineTag("row 3 old")}` }] }));
  const stale = await runMain(["apply", edits, "--root", t.root]);
  assert.equal(stale.code, 1);
  assert.match(stale.stdout + stale.stderr, /STALE/);
  assert.ok((stale.stdout + stale.stderr).includes(`3#${lineTag("row 2")}:row 2`));
  assert.equal(await readFile(file, "utf8"), `head\n${FILE}`);
});

// --- the real MCP client -------------------------------------------------------------------

const conns: Client[] = [];
after(async () => {
  await Promise.all(conns.map((c) => c.close()));
});

async function connect(args: string[]): Promise<Client> {
  // The test's environment (its journal directory among it): the SDK passes the server only HOME, PATH and a few more by default.
  const env = { ...process.env } as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(REPO, "dist", "cli", "bin.cjs"), "mcp", ...args], stderr: "pipe", env });
  const client = new Client({ name: "fuzzpatch-anchored-test", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport, { timeout: TIMEOUT_MS });
  conns.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = await client.callTool({ name, arguments: args }, { timeout: TIMEOUT_MS });
  const content = result.content as { type: string; text?: string }[];
  return { isError: result.isError === true, text: content.map((c) => c.text ?? "").join("") };
}

test("MCP (mcp --anchors): read with tags, another writer inserts above, edit_lines with the old tags lands; a changed line is STALE with fresh tags", { timeout: TIMEOUT_MS * 3 }, async () => {
  const t = await makeTree({ "m.txt": FILE });
  const client = await connect(["--root", t.root, "--anchors"]);
  const { tools } = await client.listTools(undefined, { timeout: TIMEOUT_MS });
  assert.ok(tools.some((tool) => tool.name === "edit_lines"));
  const view = await call(client, "read_file", { path: "m.txt" });
  assert.equal(view.isError, false, view.text);
  assert.ok(view.text.includes(`\n5#${lineTag("row 5")}:row 5\n`), view.text);
  const file = path.join(t.root, "m.txt");
  await writeFile(file, `${ABOVE.join("\n")}\n${FILE}`);
  const landed = await call(client, "edit_lines", { path: "m.txt", edits: [{ op: "replace", from: tagOf(view.text, 5), lines: ["five"] }] });
  assert.equal(landed.isError, false, landed.text);
  assert.equal(await readFile(file, "utf8"), `${ABOVE.join("\n")}\n${FILE.replace("row 5\n", "five\n")}`);
  await writeFile(file, (await readFile(file, "utf8")).replace("row 9\n", "row nine\n"));
  const stale = await call(client, "edit_lines", { path: "m.txt", edits: [{ op: "insert_after", at: tagOf(view.text, 9), lines: ["x"] }] });
  assert.equal(stale.isError, true);
  assert.match(stale.text, /failed with STALE/);
  assert.ok(stale.text.includes(`12#${lineTag("row nine")}:row nine`), stale.text);
});
