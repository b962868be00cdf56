import { applyMany } from "fuzzpatch/node";

const cases = [{ id: "a", path: "app.py", content: "x = 1\n", edit: [{ path: "app.py", oldString: "x = 1", newString: "x = 2" }] }];
// Worker threads (jobs: the cores by default); results come in input order.
for await (const result of applyMany(cases, { jobs: 2 })) console.log(result.id, result.ok, result.content);
