import { applyPatch, applySearchReplace, createPatch, EditError, replace } from "fuzzpatch";
import { applyEdits } from "fuzzpatch/node";

const before = "function greet(name) {\n    return 'hello ' + name;\n}\n";

// str_replace: `match` says how the text was found (exact, or which tolerant strategy) and where.
const { content, match } = replace(before, "return 'hello ' + name;", "return 'hello, ' + name;");
console.log(match.strategy, match.startLine, match.endLine, match.fuzzy);

// SEARCH/REPLACE blocks: `content` holds the blocks that applied; `failed` says why the others did not.
const blocks = applySearchReplace(before, "<<<<<<< SEARCH\nfunction greet(name) {\n=======\nexport function greet(name) {\n>>>>>>> REPLACE\n");
if (!blocks.complete) console.log(blocks.failed);

// A unified diff of one file, with or without line numbers in its @@ lines.
const patch = createPatch(before, content);
console.log(applyPatch(before, patch).content === content);

// Refusals are EditErrors with a stable code and a message written for the model.
try {
  replace(before, "return 'bye'", "return 'hi'");
} catch (error) {
  if (error instanceof EditError) console.log(error.code, error.message);
}

// Files: a model's whole response (or structured edits), all-or-nothing, atomic writes.
const report = await applyEdits(process.cwd(), "src/greet.js\n```\n<<<<<<< SEARCH\n...", { dryRun: true });
console.log(report.ok, report.diff);
