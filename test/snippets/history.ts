import { applyEdits } from "fuzzpatch/node";

// app.py as the model read it; the file has changed since.
const served = "def total(items):\n    return sum(items)\n";
const response = "app.py\n```\n<<<<<<< SEARCH\n    return sum(items)\n=======\n    return sum(items, 0)\n>>>>>>> REPLACE\n```\n";
// An edit that no longer matches app.py, but matches a version given here, is carried onto the current file.
const report = await applyEdits(process.cwd(), response, { history: { "app.py": [served] } });
console.log(report.files[0]?.edits[0]?.strategy); // "history-merge"
