/**
 * Which tree-sitter grammar reads a file: by the path's extension (or its
 * whole name, for `Rakefile`), else by the interpreter its shebang names.
 * A path of no known language has no syntax check: it is skipped, never
 * guessed (a wrong grammar reports errors in every correct edit).
 *
 * Each grammar comes from its own npm package (pinned as a dev dependency);
 * the build copies its .wasm, brotli-compressed, to dist/grammars/
 * (scripts/build.ts). Why these packages: docs/syntax.md.
 */

/** The languages the syntax layer reads. */
export type SyntaxLanguage =
  | "python"
  | "javascript"
  | "typescript"
  | "tsx"
  | "go"
  | "rust"
  | "java"
  | "c"
  | "cpp"
  | "csharp"
  | "ruby"
  | "php"
  | "json"
  | "yaml"
  | "css"
  | "html"
  | "bash";

/** Where a language's grammar is: the npm package and its .wasm file. */
export interface GrammarSource {
  readonly pkg: string;
  readonly file: string;
}

interface LanguageEntry {
  readonly grammar: GrammarSource;
  /** Lower-case extensions with their dot, and whole file names. */
  readonly names: readonly string[];
  /** Interpreters a shebang may name (`#!/usr/bin/env python3` names `python3`). */
  readonly interpreters: readonly string[];
}

const g = (pkg: string, file: string): GrammarSource => ({ pkg, file });

/**
 * `.h` is read as C++: the C++ grammar reads almost all C, while a C++ header
 * read as C fails on every class; headers that use C++ keywords as C
 * identifiers are rarer than C++ headers named `.h`.
 */
export const LANGUAGES: Readonly<Record<SyntaxLanguage, LanguageEntry>> = Object.freeze({
  python: { grammar: g("tree-sitter-python", "tree-sitter-python.wasm"), names: [".py", ".pyi", ".pyw"], interpreters: ["python", "python2", "python3"] },
  javascript: {
    grammar: g("tree-sitter-javascript", "tree-sitter-javascript.wasm"),
    names: [".js", ".mjs", ".cjs", ".jsx"],
    interpreters: ["node", "nodejs"],
  },
  typescript: { grammar: g("tree-sitter-typescript", "tree-sitter-typescript.wasm"), names: [".ts", ".mts", ".cts"], interpreters: ["ts-node", "tsx", "deno", "bun"] },
  tsx: { grammar: g("tree-sitter-typescript", "tree-sitter-tsx.wasm"), names: [".tsx"], interpreters: [] },
  go: { grammar: g("tree-sitter-go", "tree-sitter-go.wasm"), names: [".go"], interpreters: [] },
  rust: { grammar: g("tree-sitter-rust", "tree-sitter-rust.wasm"), names: [".rs"], interpreters: [] },
  java: { grammar: g("tree-sitter-java", "tree-sitter-java.wasm"), names: [".java"], interpreters: [] },
  c: { grammar: g("tree-sitter-c", "tree-sitter-c.wasm"), names: [".c"], interpreters: [] },
  cpp: {
    grammar: g("tree-sitter-cpp", "tree-sitter-cpp.wasm"),
    names: [".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".tpp"],
    interpreters: [],
  },
  csharp: { grammar: g("tree-sitter-c-sharp", "tree-sitter-c_sharp.wasm"), names: [".cs"], interpreters: [] },
  ruby: {
    grammar: g("tree-sitter-ruby", "tree-sitter-ruby.wasm"),
    names: [".rb", ".rake", ".gemspec", ".ru", "rakefile", "gemfile"],
    interpreters: ["ruby"],
  },
  php: { grammar: g("tree-sitter-php", "tree-sitter-php.wasm"), names: [".php", ".phtml"], interpreters: ["php"] },
  json: { grammar: g("tree-sitter-json", "tree-sitter-json.wasm"), names: [".json", ".jsonc"], interpreters: [] },
  yaml: { grammar: g("@tree-sitter-grammars/tree-sitter-yaml", "tree-sitter-yaml.wasm"), names: [".yml", ".yaml"], interpreters: [] },
  css: { grammar: g("tree-sitter-css", "tree-sitter-css.wasm"), names: [".css"], interpreters: [] },
  html: { grammar: g("tree-sitter-html", "tree-sitter-html.wasm"), names: [".html", ".htm"], interpreters: [] },
  bash: { grammar: g("tree-sitter-bash", "tree-sitter-bash.wasm"), names: [".sh", ".bash"], interpreters: ["sh", "bash", "dash"] },
});

/** Every language, in the table's order. */
export const SYNTAX_LANGUAGES: readonly SyntaxLanguage[] = Object.freeze(Object.keys(LANGUAGES) as SyntaxLanguage[]);

const BY_NAME = new Map<string, SyntaxLanguage>();
const BY_INTERPRETER = new Map<string, SyntaxLanguage>();
for (const language of SYNTAX_LANGUAGES) {
  for (const name of LANGUAGES[language].names) BY_NAME.set(name, language);
  for (const name of LANGUAGES[language].interpreters) BY_INTERPRETER.set(name, language);
}

/** The program a first line `#!/usr/bin/env -S python3 -u` or `#!/bin/bash` names. */
function shebangInterpreter(text: string): string | undefined {
  if (!text.startsWith("#!")) return undefined;
  const end = text.indexOf("\n");
  const words = text.slice(2, end < 0 ? Math.min(text.length, 200) : Math.min(end, 200)).trim().split(/\s+/);
  let program = (words[0] ?? "").split("/").pop() ?? "";
  if (program === "env") program = words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) ?? "";
  return program || undefined;
}

/**
 * The language of a file: by its extension or whole name (case-insensitive),
 * else by the shebang on the first line of `text`; undefined when unknown.
 */
export function languageOf(path: string, text = ""): SyntaxLanguage | undefined {
  const base = (path.split(/[\\/]/).pop() ?? "").toLowerCase();
  const byWhole = BY_NAME.get(base);
  if (byWhole !== undefined) return byWhole;
  const dot = base.lastIndexOf(".");
  if (dot > 0) {
    const byExtension = BY_NAME.get(base.slice(dot));
    if (byExtension !== undefined) return byExtension;
  }
  const interpreter = shebangInterpreter(text);
  if (interpreter === undefined) return undefined;
  // `python3.12` names python: a version suffix is cut.
  return BY_INTERPRETER.get(interpreter) ?? BY_INTERPRETER.get(interpreter.replace(/[\d.]+$/, ""));
}
