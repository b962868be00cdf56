/**
 * The strict variant of a tool schema, for OpenAI function calling with
 * `strict: true` (Structured Outputs), which accepts an object schema only
 * when every property is listed in `required` and `additionalProperties` is
 * false. A property the tool treats as optional becomes required and
 * nullable: the model sends `null` for "not given", and `runTool` reads a
 * `null` optional argument as absent.
 *
 * Keywords strict mode rejects are dropped (`minLength` is not in its
 * supported subset); `runTool` validates the arguments with the tool's own
 * rules either way, so nothing the strict schema leaves out is accepted.
 */

import type { JsonSchema, JsonSchemaObject } from "./json-schema.ts";

const UNSUPPORTED_IN_STRICT: readonly string[] = ["minLength", "maxLength"];

export function strictSchemaOf(schema: JsonSchemaObject): JsonSchemaObject {
  return strictNode(schema) as JsonSchemaObject;
}

function strictNode(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (UNSUPPORTED_IN_STRICT.includes(key)) continue;
    out[key] = value;
  }
  if (node.items !== undefined) out.items = strictNode(node.items);
  if (node.anyOf !== undefined) out.anyOf = node.anyOf.map(strictNode);
  if (node.properties !== undefined) {
    const required = new Set(node.required ?? []);
    const properties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(node.properties)) {
      const strict = strictNode(property);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** `{ type: T }` becomes `{ type: [T, "null"] }`; a node without a single type is wrapped in `anyOf`. */
function nullable(node: JsonSchema): JsonSchema {
  if (typeof node.type === "string") return { ...node, type: [node.type, "null"] };
  if (Array.isArray(node.type)) return node.type.includes("null") ? node : { ...node, type: [...node.type, "null"] };
  const { description, ...rest } = node;
  return { ...(description !== undefined && { description }), anyOf: [rest, { type: "null" }] };
}
