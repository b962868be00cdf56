/**
 * The JSON Schema shapes the tool definitions publish. Typed, rather than
 * `Record<string, unknown>`, so that a definition's `inputSchema` is
 * assignable where the SDKs want an object schema (Anthropic's
 * `input_schema` requires `type: "object"`; OpenAI's `parameters` and the AI
 * SDK's `jsonSchema()` take any object). Index signatures keep the types
 * open to keywords this package does not name.
 */

/** One JSON Schema (draft 2020-12) node, as the tool schemas use them. */
export type JsonSchema = {
  type?: JsonSchemaType | JsonSchemaType[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  [keyword: string]: unknown;
};

export type JsonSchemaType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";

/** The schema of a tool's arguments: always an object with named properties. */
export type JsonSchemaObject = {
  type: "object";
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
  [keyword: string]: unknown;
};
