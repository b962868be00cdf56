/**
 * Lazy snippets exposed (issue 34): the format `lazy` in a response, the tool
 * `apply_snippet` (runTool and the tool definitions, strict too), the core
 * export `applyLazyEdit`, Morph's `<code>…</code><update>…</update>` input.
 * The merge itself is tested in lazy.test.ts.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { detectEdits } from "../src/formats/response.ts";
import { applyLazyEdit, EditError } from "../src/index.ts";
import { applyEdits } from "../src/node.ts";
import { runTool, strictToolDefinitions, toolDefinitions } from "../src/tools.ts";
import { GO } from "./helpers/lazy-fixtures.ts";

const TS = `import { a } from "a";

export class Store {
  add(item) {
    this.items.push(item);
    return this;
  }
}

function helper(x) {
  return x + 1;
}
`;

async function inTemp(run: (root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), "fp-lazy-"));
  try {
    await writeFile(path.join(root, "a.ts"), TS);
    await run(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test("applyLazyEdit is a core export, and reads Morph's <code>/<update> input", () => {
  const snippet = "// ... existing code ...\nfunction helper(x) {\n  return x * 2;\n}";
  assert.equal(applyLazyEdit(TS, snippet, { path: "a.ts" }).content, TS.replace("return x + 1;", "return x * 2;"));
  const morph = `<instruction>double it</instruction>\n<code>${TS}</code>\n<update>\n${snippet}\n</update>`;
  assert.equal(applyLazyEdit(TS, morph, { path: "a.ts" }).content, TS.replace("return x + 1;", "return x * 2;"));
});

test("format lazy: a path line and a fenced snippet with markers is detected in a response; a fence without markers is not", async () => {
  await inTemp(async (root) => {
    const response = "Here is the change.\n\na.ts\n```ts\n// ... existing code ...\nfunction helper(x) {\n  return x * 2;\n}\n```\n";
    const r = await applyEdits(root, response);
    assert.equal(r.failed, 0, JSON.stringify(r.files));
    assert.equal(await readFile(path.join(root, "a.ts"), "utf8"), TS.replace("return x + 1;", "return x * 2;"));
    // No marker: an excerpt or a whole file, not a lazy edit (nothing is found in auto mode).
    const plain = await applyEdits(root, "a.ts\n```ts\nfunction helper(x) {\n  return 0;\n}\n```\n").catch((e: unknown) => e);
    assert.ok(plain instanceof EditError || (plain as { applied: number }).applied === 0);
    // --format lazy: a bare definition without a marker is read as a snippet.
    const forced = await applyEdits(root, "a.ts\n```ts\nfunction helper(x) {\n  return 0;\n}\n```\n", { format: "lazy" });
    assert.equal(forced.applied, 1);
    assert.match(await readFile(path.join(root, "a.ts"), "utf8"), /return 0;/);
  });
});

test("format lazy: never read in a response where another format found an edit or an error", () => {
  const snippetFence = "a.ts\n```ts\n// ... existing code ...\nfunction helper(x) {\n  return x * 2;\n}\n```\n";
  const alone = detectEdits(snippetFence);
  assert.deepEqual(
    alone.edits.map((e) => e.format),
    ["lazy"],
  );
  const searchReplace = "b.ts\n```\n<<<<<<< SEARCH\nold();\n=======\nnew();\n>>>>>>> REPLACE\n```\n";
  const withBlock = detectEdits(`${searchReplace}\nAnd for reference:\n\n${snippetFence}`);
  assert.deepEqual(
    withBlock.edits.map((e) => e.format),
    ["search-replace"],
  );
  // A SEARCH/REPLACE block that cannot be read is an error of that format: the snippet is not read either.
  const broken = detectEdits(`b.ts\n\`\`\`\n<<<<<<< SEARCH\nold();\n>>>>>>> REPLACE\n\`\`\`\n\n${snippetFence}`);
  assert.ok(broken.errors.length > 0);
  assert.ok(broken.edits.every((e) => e.format !== "lazy"));
  // Asked for by name, every named fence is a snippet.
  assert.deepEqual(
    detectEdits(`${searchReplace}\n${snippetFence}`, "lazy").edits.map((e) => `${e.format} ${e.path}`),
    ["lazy b.ts", "lazy a.ts"],
  );
});

test("format lazy: a snippet for a file that does not exist is refused, naming the file", async () => {
  await inTemp(async (root) => {
    const r = await applyEdits(root, "missing.ts\n```ts\n// ... existing code ...\nfunction helper(x) {\n  return x * 2;\n}\n```\n");
    assert.equal(r.applied, 0);
    const error = r.files[0]?.edits[0]?.error;
    assert.equal(error?.code, "NOT_FOUND");
    assert.match(error?.message ?? "", /missing\.ts does not exist.*send its whole text/);
  });
});

test("apply_snippet: runTool merges code_edit, refuses with the snippet line, and is defined (strict too)", async () => {
  await inTemp(async (root) => {
    const ok = await runTool("apply_snippet", { path: "a.ts", code_edit: "// ... existing code ...\nfunction helper(x) {\n  return x * 3;\n}", instructions: "triple" }, { root });
    assert.equal(ok.isError, false, ok.text);
    assert.equal(await readFile(path.join(root, "a.ts"), "utf8"), TS.replace("return x + 1;", "return x * 3;"));
    const bad = await runTool("apply_snippet", { path: "a.ts", codeEdit: "// ...\nfunction brandNew() {}\n// ..." }, { root });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /snippet line 2/);
    // A Markdown file's own fences stay its text.
    const md = "# T\n\n```js\nx();\n```\n\nEnd.\n";
    await writeFile(path.join(root, "b.md"), md);
    const fenced = await runTool("apply_snippet", { path: "b.md", code_edit: "<!-- ... -->\n```js\nx();\ny();\n```\n<!-- ... -->" }, { root });
    assert.equal(fenced.isError, false, fenced.text);
    assert.equal(await readFile(path.join(root, "b.md"), "utf8"), md.replace("x();\n", "x();\ny();\n"));
    // Morph's input as code_edit; a dry run writes nothing.
    const morph = await runTool("apply_snippet", { path: "a.ts", code_edit: "<update>\n// ... existing code ...\nfunction helper(x) {\n  return x * 4;\n}\n</update>", dryRun: true }, { root });
    assert.equal(morph.isError, false, morph.text);
    assert.match(await readFile(path.join(root, "a.ts"), "utf8"), /return x \* 3;/);
    for (const defs of [toolDefinitions, strictToolDefinitions]) {
      const def = defs.find((d) => d.name === "apply_snippet");
      assert.ok(def);
      assert.ok("code_edit" in (def.inputSchema.properties as object));
    }
  });
});

test("the file layer and apply_snippet load the file's definitions reader and syntax checker before the merge (not with syntax: off)", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "fp-lazy-trees-"));
  try {
    await writeFile(path.join(root, "int.go"), GO);
    await writeFile(path.join(root, "a.ts"), TS);
    // A bare function whose name the text reads twice (a method and a function): the tree tells them apart.
    const bare = 'func Int(name string, value int, usage string) *int {\n\treturn CommandLine.IntP(name, "i", value, usage)\n}';
    const off = await applyEdits(root, `int.go\n\`\`\`go\n${bare}\n\`\`\`\n`, { format: "lazy", syntax: "off" });
    assert.equal(off.files[0]?.edits[0]?.error?.code, "AMBIGUOUS");
    const tool = await runTool("apply_snippet", { path: "int.go", code_edit: bare }, { root });
    assert.equal(tool.isError, false, tool.text);
    assert.equal(await readFile(path.join(root, "int.go"), "utf8"), GO.replace('IntP(name, "", value', 'IntP(name, "i", value'));
    // A merge that breaks the file's syntax (brackets balanced): refused, naming the line; merged without the tree.
    const broken = "// ... existing code ...\nfunction helper(x) {\n  return x +;\n}";
    const refused = await runTool("apply_snippet", { path: "a.ts", code_edit: broken }, { root });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /syntax error the file did not have, at line 11/);
    assert.equal(await readFile(path.join(root, "a.ts"), "utf8"), TS);
    const unchecked = await applyEdits(root, `a.ts\n\`\`\`ts\n${broken}\n\`\`\`\n`, { syntax: "off", dryRun: true });
    assert.equal(unchecked.applied, 1);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
