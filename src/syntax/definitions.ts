/**
 * The definitions of a parsed file (functions, methods, classes and their
 * kin), with their names and line ranges: what a snippet with elided parts
 * ("// ... existing code ...") is matched against, and what an error message
 * can name ("in function foo").
 *
 * One table per language maps the grammar's node types to a small common
 * vocabulary of kinds. A definition's range includes what is written on it
 * (Python decorators, an `export` keyword, a Go `type` keyword), since a
 * model that rewrites the definition rewrites those too.
 */

import type { Node, Tree } from "web-tree-sitter";
import type { SyntaxLanguage } from "./languages.ts";

import type { DefinitionKind } from "./definition-kind.ts";

export type { DefinitionKind };

/** One definition in a file. Lines are 1-based and inclusive. */
export interface Definition {
  kind: DefinitionKind;
  /** Its name as written (`Foo`, `Foo::bar`, a CSS selector); "" when the grammar gives none. */
  name: string;
  startLine: number;
  endLine: number;
  /** Offsets of the whole definition in the text, half-open. */
  start: number;
  end: number;
  /** The grammar's node type (`function_definition`), for callers that need more than the kind. */
  nodeType: string;
  /** Nesting: 0 at the top, 1 for a method in a class, ... */
  depth: number;
  /** 1-based line of its name (the header line, below decorators and annotations); startLine when it has no name. */
  nameLine: number;
  /** The name of the definition it is nested in (a method's class, impl or namespace); "" at the top. */
  container: string;
}

type Table = Readonly<Record<string, DefinitionKind>>;

const JS: Table = {
  function_declaration: "function",
  generator_function_declaration: "function",
  class_declaration: "class",
  abstract_class_declaration: "class",
  method_definition: "method",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
  internal_module: "namespace",
  module: "module",
  variable_declarator: "function",
};
const C_FAMILY: Table = {
  function_definition: "function",
  struct_specifier: "struct",
  union_specifier: "struct",
  enum_specifier: "enum",
  class_specifier: "class",
  namespace_definition: "namespace",
};

const TABLES: Readonly<Record<SyntaxLanguage, Table>> = {
  python: { function_definition: "function", class_definition: "class" },
  javascript: JS,
  typescript: JS,
  tsx: JS,
  go: { function_declaration: "function", method_declaration: "method", type_spec: "type" },
  rust: {
    function_item: "function",
    struct_item: "struct",
    enum_item: "enum",
    trait_item: "trait",
    impl_item: "impl",
    mod_item: "module",
    type_item: "type",
  },
  java: {
    class_declaration: "class",
    interface_declaration: "interface",
    enum_declaration: "enum",
    record_declaration: "class",
    method_declaration: "method",
    constructor_declaration: "method",
  },
  c: C_FAMILY,
  cpp: C_FAMILY,
  csharp: {
    class_declaration: "class",
    struct_declaration: "struct",
    interface_declaration: "interface",
    enum_declaration: "enum",
    record_declaration: "class",
    method_declaration: "method",
    constructor_declaration: "method",
    namespace_declaration: "namespace",
  },
  ruby: { method: "method", singleton_method: "method", class: "class", module: "module" },
  php: {
    function_definition: "function",
    class_declaration: "class",
    interface_declaration: "interface",
    trait_declaration: "trait",
    enum_declaration: "enum",
    method_declaration: "method",
  },
  json: {},
  yaml: {},
  css: { rule_set: "rule" },
  html: {},
  bash: { function_definition: "function" },
};

/** Nodes whose range a definition directly inside them takes (what is written on the definition). */
const WRAPPERS = new Set(["decorated_definition", "export_statement", "type_declaration", "template_declaration"]);

/** Kinds inside which a function is a method. */
const CONTAINERS = new Set<DefinitionKind>(["class", "struct", "interface", "trait", "impl"]);

/** A definition's name node: its `name` field, or (C, C++) the identifier its declarator chain ends in. */
function nameNode(node: Node): Node | null {
  if (node.type === "impl_item") return node.childForFieldName("type");
  const name = node.childForFieldName("name");
  if (name !== null) return name;
  let declarator = node.childForFieldName("declarator");
  while (declarator !== null) {
    const inner = declarator.childForFieldName("declarator");
    if (inner === null) return declarator;
    declarator = inner;
  }
  return null;
}

/** A definition's name as written. */
function nameOf(node: Node, language: SyntaxLanguage): string {
  if (language === "css") return node.namedChildren.find((c) => c?.type === "selectors")?.text.trim() ?? "";
  return nameNode(node)?.text ?? "";
}

/** Values that make a JavaScript `const f = ...` a function definition. */
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/**
 * A C/C++ struct or enum written without a body (`struct foo *p;`) is a use,
 * not a definition. A JavaScript variable is a definition when its value is
 * a function (`const f = () => {}`: models define most functions so).
 */
function isDefinition(node: Node): boolean {
  if (/_specifier$/.test(node.type)) return node.childForFieldName("body") !== null;
  if (node.type === "variable_declarator") return FUNCTION_VALUES.has(node.childForFieldName("value")?.type ?? "");
  return true;
}

/** The node whose range a definition takes: the declaration around a declarator, then a wrapper (decorators, `export`). */
function outerOf(node: Node): Node {
  let outer = node;
  if (outer.type === "variable_declarator" && outer.parent !== null && outer.parent.namedChildren.length === 1) outer = outer.parent;
  if (outer.parent !== null && WRAPPERS.has(outer.parent.type)) outer = outer.parent;
  return outer;
}

/** One definition found at `node`, or undefined. */
function definitionAt(node: Node, language: SyntaxLanguage, depth: number, container: DefinitionKind | undefined, containerName: string): Definition | undefined {
  const table = TABLES[language];
  const found = Object.hasOwn(table, node.type) && isDefinition(node) ? table[node.type] : undefined;
  if (found === undefined) return undefined;
  const outer = outerOf(node);
  const end = outer.endPosition;
  return {
    kind: found === "function" && container !== undefined && CONTAINERS.has(container) ? "method" : found,
    name: nameOf(node, language),
    startLine: outer.startPosition.row + 1,
    // A node that ends at the start of a line (a trailing newline in it) ends on the line before.
    endLine: end.row + (end.column === 0 && end.row > outer.startPosition.row ? 0 : 1),
    start: outer.startIndex,
    end: outer.endIndex,
    nodeType: node.type,
    depth,
    nameLine: (language === "css" ? node : (nameNode(node) ?? node)).startPosition.row + 1,
    container: containerName,
  };
}

/**
 * The definitions in `tree` (parsed in `language`), in document order,
 * nested ones after their container. A function inside a class, struct,
 * interface, trait or impl is reported as a "method". Walks with a cursor,
 * not recursion: a deeply nested file does not overflow the stack.
 */
export function listDefinitions(tree: Tree, language: SyntaxLanguage): Definition[] {
  const out: Definition[] = [];
  if (Object.keys(TABLES[language]).length === 0) return out;
  const cursor = tree.walk();
  // Per level of the walk: the depth and container its children get.
  type Level = { depth: number; container: DefinitionKind | undefined; name: string };
  const levels: Level[] = [{ depth: 0, container: undefined, name: "" }];
  try {
    for (;;) {
      const level = levels[levels.length - 1] as Level;
      const found = cursor.currentNode.isNamed ? definitionAt(cursor.currentNode, language, level.depth, level.container, level.name) : undefined;
      if (found !== undefined) out.push(found);
      if (cursor.gotoFirstChild()) {
        levels.push(found === undefined ? level : { depth: level.depth + 1, container: found.kind, name: found.name });
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
        levels.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}
