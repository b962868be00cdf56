import { createStreamingApply } from "fuzzpatch/node";

// Push the response as the model writes it; nothing is written before end().
const stream = createStreamingApply(process.cwd(), {
  onEvent: (event) => {
    if (event.type === "located" && event.final && event.status !== "unique") console.log(`edit ${event.index}: ${event.status}, tell the model now`);
  },
});
for (const token of ["app.py\n<<<<<<< SEARCH\n", "def total(items):\n", "=======\n", "def total(items, start=0):\n", ">>>>>>> REPLACE\n"]) stream.push(token);
const result = await stream.end(); // what applyEdits(root, wholeResponse) returns, files written all or nothing
console.log(result.ok);
