import { applyEdits } from "fuzzpatch/node";

// app.py as the model read it. Its docstring has been changed since.
const served = 'def total(items):\n    """Sum."""\n    result = 0\n    for item in items:\n        result += item\n    return result\n';
const response = `app.py
<<<<<<< SEARCH
${served}=======
${served.replace("return result", "return round(result, 2)")}>>>>>>> REPLACE
`;
// The edit is made on the version it was written against and carried onto the current file.
const report = await applyEdits(process.cwd(), response, { history: { "app.py": [served] } });
console.log(report.files[0]?.edits[0]?.strategy); // "history-merge"
