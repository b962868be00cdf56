/**
 * The PARSE error for a response in which no registered format found an
 * edit: it says what the response looks like (so the model sees why it was
 * not read) and lists the formats accepted, from the registry.
 */
import { EditError } from "../errors.ts";
import { FORMATS } from "./index.ts";
import type { Fence } from "./types.ts";


function objectKeys(body: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(body);
    if (value && typeof value === "object" && !Array.isArray(value)) return Object.keys(value);
    if (Array.isArray(value)) return [];
  } catch {
    // Not JSON: described as a fence.
  }
  return undefined;
}

/** What `text` looks like, as a phrase: "looks like prose", "is a fenced code block (```ts) without a path". */
export function describeInput(text: string, fences: readonly Fence[]): string {
  if (text.trim() === "") return "is empty";
  const json = fences.find((f) => f.info.startsWith("json") || /^\s*[[{]/.test(f.body));
  if (json) {
    const keys = objectKeys(json.body);
    if (keys !== undefined) {
      const shown = keys.length === 0 ? "" : ` (keys: ${keys.slice(0, 8).join(", ")})`;
      return `holds a JSON ${keys.length === 0 ? "value" : "object"}${shown} without "path" with "oldString" and "newString" at line ${json.open + 1}`;
    }
  }
  const code = fences[0];
  if (code) {
    const info = code.info === "" ? "" : ` (\`\`\`${code.info})`;
    return `holds a fenced code block${info} at line ${code.open + 1} without a file path or edit markers; a whole file needs --format whole and its path on the line before the fence`;
  }
  return "looks like prose (no fence, no diff headers, no SEARCH/REPLACE markers)";
}

/** The PARSE error: what the input looks like, and every accepted format. */
export function noEditsError(text: string, fences: readonly Fence[]): EditError {
  const accepted = FORMATS.map((f) => (f.summary === undefined ? f.name : `${f.name} (${f.summary})`)).join("; ");
  return new EditError("PARSE", `No edits found in the input: it ${describeInput(text, fences)}. Accepted formats: ${accepted}.`);
}
