/**
 * Every import in src/ points down the layers docs/design.md describes:
 * the base modules (errors, limits, arrays, version) <- text/ <- match/ <-
 * engine/ <- syntax/ <- lazy/ <- formats/ <- fs/ (with stream/, batch/) <- tools/ <- mcp/, the AI SDK entry and the vendor adapters <- cli/.
 * A module may import its own layer or a lower one, never a higher one.
 * Each entry file sits at the layer it publishes.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

const LAYERS: readonly (readonly string[])[] = [
  ["errors.ts", "limits.ts", "arrays.ts", "version.ts"],
  ["text/"],
  ["match/"],
  ["engine/"],
  ["syntax/"],
  ["lazy/"],
  ["formats/", "index.ts"],
  ["fs/", "node.ts", "stream/", "batch/"],
  ["tools/", "tools.ts"],
  ["mcp/", "mcp.ts", "ai.ts", "adapters/", "openai.ts", "anthropic.ts"],
  ["cli/"],
];

function layerOf(rel: string): number {
  const at = LAYERS.findIndex((names) => names.some((n) => (n.endsWith("/") ? rel.startsWith(n) : rel === n)));
  assert.ok(at >= 0, `src/${rel} belongs to no layer: add it to LAYERS in test/layers.test.ts`);
  return at;
}

/** Relative specifiers of static imports, re-exports and dynamic imports. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.\.?\/[^"']+)["']/gm;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) out.push(m[1] as string);
  return out;
}

const files = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.split(path.sep).join("/"))
  .sort();

test("layers: every import in src/ points to the same layer or a lower one", () => {
  assert.ok(files.length > 50);
  const upward: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    for (const spec of importsOf(readFileSync(path.join(SRC, file), "utf8"))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      assert.ok(!target.startsWith(".."), `${file} imports ${spec}, outside src/`);
      const to = layerOf(target);
      if (to > from) upward.push(`src/${file} (${LAYERS[from]?.[0]}) imports src/${target} (${LAYERS[to]?.[0]})`);
    }
  }
  assert.deepEqual(upward, []);
});

test("layers: the import reader sees every form of import", () => {
  const text = 'import { a } from "./a.ts";\nimport "./side.ts";\nexport type { B } from "../b.ts";\nconst c = await import("./c.ts");\nimport x from "node:fs";\n';
  assert.deepEqual(importsOf(text), ["./a.ts", "./side.ts", "../b.ts", "./c.ts"]);
});
