/**
 * The README's TypeScript snippets are the files under test/snippets/, word
 * for word, and those files compile under the project's strict settings
 * against the official SDKs they use (openai, @openai/agents, @anthropic-ai/sdk, ai, the MCP client: pinned
 * dev dependencies), with `fuzzpatch/*` mapped to src/ (tsconfig.json
 * "paths"). A snippet a user copies therefore type-checks as printed.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SNIPPETS = path.join(REPO, "test", "snippets");

/** The body of every ```ts block in `markdown`. */
function tsBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```ts\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) blocks.push(m[1] as string);
  return blocks;
}

const files = readdirSync(SNIPPETS)
  .filter((f) => f.endsWith(".ts"))
  .sort();

test("README: every TypeScript block is a file of test/snippets/, and every file is in the README", () => {
  const blocks = tsBlocks(readFileSync(path.join(REPO, "README.md"), "utf8"));
  const bodies = new Map(files.map((f) => [readFileSync(path.join(SNIPPETS, f), "utf8"), f]));
  assert.ok(files.length >= 2, "snippets found");
  for (const block of blocks) assert.ok(bodies.has(block), `README block is no snippet file (copy it to test/snippets/ or fix it):\n${block}`);
  const shown = new Set(blocks);
  for (const [body, file] of bodies) assert.ok(shown.has(body), `test/snippets/${file} is not in the README`);
});

test("README snippets compile with strict tsc against the official SDKs", { timeout: 60_000 }, () => {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(REPO, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config, "tsconfig.json parsed");
  assert.equal(config.options.strict, true);
  const program = ts.createProgram(
    files.map((f) => path.join(SNIPPETS, f)),
    config.options,
  );
  // The snippets' own diagnostics: src/ is checked by `npm run typecheck`, and checking it again here doubles the time.
  const snippets = program.getSourceFiles().filter((f) => path.dirname(f.fileName) === SNIPPETS);
  assert.equal(snippets.length, files.length);
  const diagnostics = [...program.getOptionsDiagnostics(), ...snippets.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])].map((d) => {
    const where = d.file ? `${path.relative(REPO, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : "";
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  assert.deepEqual(diagnostics, []);
  // The SDKs' own types were read, not stubbed.
  for (const pkg of ["openai", "@anthropic-ai/sdk", "@openai/agents", "@modelcontextprotocol/client"]) {
    assert.ok(
      program.getSourceFiles().some((f) => f.fileName.includes(`/node_modules/${pkg}/`)),
      `${pkg} types loaded`,
    );
  }
});
