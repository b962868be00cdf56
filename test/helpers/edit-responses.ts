/** Generated model responses over small files, in every format the streaming and batch tests feed through (fast-check). */
import fc from "fast-check";

const VOCAB = ["const a = 1;", "return a;", "}", "if (x) {", "  call(x);", "", "let b = a + 1;", "  // note", "export function f() {", "  y();"];

/** One edit as the model might write it: lines to find (maybe misremembered), their replacement. */
export interface Edit {
  path: string;
  start: number;
  length: number;
  typo: boolean;
  replacement: string[];
  format: "sr" | "udiff" | "v4a" | "json";
}

export function render(files: Record<string, string[]>, edits: Edit[]): string {
  const out: string[] = ["Here are the changes.", ""];
  for (const e of edits) {
    const lines = files[e.path] as string[];
    const start = Math.min(e.start, Math.max(0, lines.length - 1));
    const old = lines.slice(start, start + e.length);
    if (e.typo && old.length > 0) old[0] = `${old[0]} /* misremembered */`;
    if (e.format === "sr") out.push(e.path, "```", "<<<<<<< SEARCH", ...old, "=======", ...e.replacement, ">>>>>>> REPLACE", "```", "");
    else if (e.format === "udiff") {
      out.push(`--- a/${e.path}`, `+++ b/${e.path}`, `@@ -${start + 1},${old.length} +${start + 1},${e.replacement.length} @@`);
      out.push(...old.map((l) => `-${l}`), ...e.replacement.map((l) => `+${l}`), "");
    } else if (e.format === "v4a") {
      out.push("*** Begin Patch", `*** Update File: ${e.path}`, "@@", ...old.map((l) => `-${l}`), ...e.replacement.map((l) => `+${l}`), "*** End Patch", "");
    } else {
      out.push("```json", JSON.stringify({ path: e.path, oldString: old.join("\n"), newString: e.replacement.join("\n") }), "```", "");
    }
    out.push("That was one change.", "");
  }
  return out.join("\n");
}

const lineArb = fc.constantFrom(...VOCAB);
export const filesArb = fc.record({
  "a.ts": fc.array(lineArb, { minLength: 3, maxLength: 25 }),
  "src/b.ts": fc.array(lineArb, { minLength: 3, maxLength: 25 }),
});
export const editArb = fc.record({
  path: fc.constantFrom("a.ts", "src/b.ts"),
  start: fc.nat(24),
  length: fc.integer({ min: 1, max: 4 }),
  typo: fc.boolean(),
  replacement: fc.array(fc.oneof(lineArb, fc.constant("added();")), { maxLength: 4 }),
  format: fc.constantFrom("sr" as const, "udiff" as const, "v4a" as const, "json" as const),
});

