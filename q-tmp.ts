import { readFileSync } from "node:fs";
import { applyMany } from "./src/batch/apply-many.ts";
import { applyCase } from "./src/batch/apply-case.ts";
const dir = "/work/shared/real-edits";
const raw = readFileSync(dir + "/cases.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
const blob = (s: string) => (s === "" ? "" : readFileSync(`${dir}/blobs/${s}.txt`, "utf8"));
const cases = raw.map((c: any) => ({ id: c.id, path: c.path_applied ?? c.path, content: blob(c.before_sha1), edit: c.edit }));
let t = performance.now();
const one: any[] = [];
for (const c of cases) one.push(await applyCase(c, 0, {}));
console.log("in-process", (performance.now() - t).toFixed(0), "ms");
for (const jobs of [1, 2]) {
  t = performance.now();
  const got: any[] = [];
  for await (const r of applyMany(cases, { jobs })) got.push(r);
  console.log("jobs", jobs, (performance.now() - t).toFixed(0), "ms", got.length, "same:", JSON.stringify(got) === JSON.stringify(one));
}
const ok = one.filter((r) => r.ok).length;
console.log("ok", ok, "failed", one.length - ok);
const got: any[] = [];
for await (const r of applyMany(cases.slice(0, 200), { jobs: 2 })) got.push(r);
for (let i = 0; i < got.length; i++) if (JSON.stringify(got[i]) !== JSON.stringify(one[i])) { console.log(i, JSON.stringify(got[i]).slice(0, 400)); console.log(i, JSON.stringify(one[i]).slice(0, 400)); break; }
