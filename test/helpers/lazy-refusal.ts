import assert from "node:assert/strict";
import { EditError } from "../../src/errors.ts";

/** A snippet the lazy merge must refuse, with what the refusal names (the snippet line, the candidates). */
export interface Refusal {
  name: string;
  file: string;
  snippet: string;
  code: string;
  /** The message must name these (the snippet line, the candidates). */
  says: RegExp[];
  path?: string;
}

/** Asserts that `run` throws an EditError of `code` whose message matches every one of `says`; returns it for further checks. */
export function expectRefusal(run: () => unknown, code: string, says: readonly RegExp[]): EditError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof EditError, `expected an EditError, got ${caught === undefined ? "a result" : String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  for (const re of says) assert.match(caught.message, re);
  return caught;
}
