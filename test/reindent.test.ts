import assert from "node:assert/strict";
import { test } from "node:test";
import { levelMap } from "../src/engine/reindent.ts";
import { replace } from "../src/index.ts";

test("levelMap: one level seen, tabs written as spaces: the spaces per tab is the step (new lines at column 0 stay there)", () => {
  const map = levelMap({ pairs: [{ model: "    ", file: "\t\t" }], modelLines: ["    a", "b"], fileUnit: "\t", fileUsesTabs: true });
  assert.equal(map(""), "");
  assert.equal(map("  "), "\t");
  assert.equal(map("      "), "\t\t\t");
});

test("levelMap: one level seen in spaces for spaces is a shift; the step comes from the model's lines", () => {
  const map = levelMap({ pairs: [{ model: "        ", file: "    " }], modelLines: ["        a", "            b"], fileUnit: "    ", fileUsesTabs: false });
  assert.equal(map("            "), "        ");
});

test("replace: a tab-indented block quoted with 2 spaces per tab, lines added at column 0: written at column 0", () => {
  const content = "namespace n {\n\tinterface O {\n\t\ta: string;\n\n\t\tb: string;\n\t}\n}\n";
  const r = replace(content, "    a: string;\n\n    b: string;", "    a: string;\nconst x = 1;\n    b: string;");
  assert.equal(r.content, "namespace n {\n\tinterface O {\n\t\ta: string;\nconst x = 1;\n\t\tb: string;\n\t}\n}\n");
});
