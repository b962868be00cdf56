/**
 * The kinds of definition the syntax tree tells. A module of its own, with
 * no import, so that the core's declarations (the lazy merge's options name
 * a definitions reader) never reach web-tree-sitter's, which need its
 * Emscripten globals.
 */
export type DefinitionKind =
  | "function"
  | "method"
  | "class"
  | "interface"
  | "struct"
  | "enum"
  | "trait"
  | "impl"
  | "module"
  | "namespace"
  | "type"
  | "rule";
