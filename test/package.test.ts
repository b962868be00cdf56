import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { readVersion, VERSION } from "../src/version.ts";

// The manifest's promises that need no build; test/pack/pack-install.ts checks the built package.

const REPO = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** The source file a dist/ path is built from. */
function sourceOf(distPath: string): string {
  return distPath.replace(/^\.?\/?dist\//, "src/").replace(/\.d\.ts$|\.c?js$/, ".ts");
}

for (const [entry, target] of Object.entries(manifest.exports)) {
  if (entry === "./package.json") continue;
  test(`exports["${entry}"]: types and code from dist/, built from one source file`, () => {
    assert.equal(typeof target, "object");
    const conditions = target as Record<string, string>;
    assert.deepEqual(Object.keys(conditions), ["types", "default"], "types first, then default (so require(esm) works too)");
    const { types = "", default: code = "" } = conditions;
    assert.match(types, /^\.\/dist\/.+\.d\.ts$/);
    assert.match(code, /^\.\/dist\/.+\.js$/);
    assert.equal(sourceOf(types), sourceOf(code));
    assert.ok(existsSync(path.join(REPO, sourceOf(code))), `${sourceOf(code)} does not exist`);
  });
}

test("bin: the built src/cli/bin.ts, whose first line is a node shebang", () => {
  const bin = manifest.bin.fuzzpatch ?? "";
  // CommonJS: it runs the CLI bundle through V8's code cache (src/cli/bin.ts says why).
  assert.match(bin, /^dist\/.+\.cjs$/);
  const source = readFileSync(path.join(REPO, sourceOf(bin)), "utf8");
  assert.ok(source.startsWith("#!/usr/bin/env node\n"));
});

test("files ship dist/ only; runtime dependencies take caret ranges, dev dependencies are exact", () => {
  assert.deepEqual(manifest.files, ["dist"]);
  for (const [name, range] of Object.entries(manifest.dependencies)) assert.match(range, /^\^\d+\.\d+\.\d+$/, name);
  for (const [name, version] of Object.entries(manifest.devDependencies)) assert.match(version, /^\d+\.\d+\.\d+$/, name);
});

test("ai: an optional peer dependency (a dev dependency here), imported by the fuzzpatch/ai entry only", () => {
  assert.ok(manifest.peerDependencies.ai);
  assert.equal(manifest.peerDependenciesMeta.ai?.optional, true);
  assert.ok(manifest.devDependencies.ai);
  assert.equal(manifest.dependencies.ai, undefined);
  const importers = readdirSync(path.join(REPO, "src"), { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".ts") && /from "ai(\/[^"]*)?"/.test(readFileSync(path.join(REPO, "src", f), "utf8")),
  );
  assert.deepEqual(importers, ["ai.ts"]);
});

const cliCases: { args: string[]; stdout: RegExp }[] = [
  { args: ["--version"], stdout: new RegExp(`^${manifest.version.replaceAll(".", "\\.")}\n$`) },
  { args: ["--help"], stdout: /Usage: fuzzpatch[\s\S]*apply[\s\S]*replace[\s\S]*diff/ },
];
for (const c of cliCases) {
  test(`fuzzpatch ${c.args.join(" ")} from source`, () => {
    const r = spawnSync(process.execPath, ["--import", import.meta.resolve("tsx"), path.join(REPO, "src/cli/run.ts"), ...c.args], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, c.stdout);
  });
}

test("readVersion reads package.json", () => {
  assert.equal(readVersion(), manifest.version);
  assert.equal(VERSION, manifest.version);
});
