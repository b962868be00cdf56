import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { breaksOutsideLiterals, escapedReplacement } from "../src/text/escaped-breaks.ts";

/** What a second JSON encoding does to a text (the accuracy bench's overEscape). */
const overEscape = (text: string) => text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\t", "\\t").replaceAll("\n", "\\n");

const cases: { name: string; replacement: string; find: string; lines?: string[] }[] = [
  { name: "a docstring after a kept line", replacement: 'def f(x):\\n    \\"\\"\\"Doc.\\"\\"\\"', find: "def f(x):", lines: ["def f(x):", '    """Doc."""'] },
  { name: "indented lines", replacement: "if (a) {\\n  b();\\n}", find: "if (a) {}", lines: ["if (a) {", "  b();", "}"] },
  { name: "a line of the find text after a break", replacement: "import a\\nimport os", find: "import os", lines: ["import a", "import os"] },
  { name: "tabs and escaped tabs", replacement: "\\tif (a) {\\n\\t\\tb();\\n\\t}", find: "\tif (a) {", lines: ["\tif (a) {", "\t\tb();", "\t}"] },
  { name: "a doc comment's lines, apostrophe and all", replacement: " * Returns the user's name.\\n * @param id\\n */", find: " * @param id", lines: [" * Returns the user's name.", " * @param id", " */"] },
  { name: "a regex on a line of its own is closed before the break", replacement: "const re = /a/g;\\n  use(re);", find: "const re = /a/g;", lines: ["const re = /a/g;", "  use(re);"] },
  { name: "a string inside, its escapes doubled", replacement: 'x = s.split(\\"\\\\n\\")\\n  y()', find: "x = 1", lines: ['x = s.split("\\n")', "  y()"] },
  { name: "a Markdown fence, a blank line after it", replacement: "```\\n\\n## Usage", find: "```\n\n## Install", lines: ["```", "", "## Usage"] },
  { name: "in a string literal", replacement: 'x = "a\\n  b"', find: 'x = "a"' },
  { name: "in a single-quoted literal", replacement: "print('a\\n  b')", find: "print('a')" },
  { name: "in a regular expression", replacement: "s.split(/\\n  +/)", find: "s.split(/,/)" },
  { name: "after a regex-opening `=`", replacement: "const re = /x\\n    y/", find: "const re = /x/" },
  { name: "prose: one space after the escape", replacement: "Lines end with \\n on Unix.", find: "Lines end." },
  { name: "a template literal (may span lines) with no evidence", replacement: "log(`a\\nb`)", find: "log(`a`)" },
  { name: "a real line break: not written as one line", replacement: "a\\n  b\nc", find: "a" },
  { name: "no escaped break", replacement: 'x = \\"a\\"', find: "x" },
  { name: "an escaped backslash before n", replacement: "path = C:\\\\new", find: "path" },
];

for (const c of cases) {
  test(`escapedReplacement: ${c.name}`, () => {
    const got = escapedReplacement(c.replacement, c.find.split("\n"));
    assert.deepEqual(got?.split("\n"), c.lines);
  });
}

/** A template literal's substitution `${code}`, spelled without a placeholder in a plain string. */
const subst = (code: string) => `$${"{"}${code}}`;

const lexerCases: [string, boolean][] = [
  ['a = "x"\nb', true],
  ['a = "x\ny"', false],
  ['a = "don\'t"\nb', true],
  ["it's prose\nb", true],
  ["tryin' ter parse\nb", true],
  ["x = f'{a}\nb'", false],
  ["x = rb'a\nb'", false],
  ["a = `x\ny`", true],
  ['a = """x\ny"""', true],
  ["a = /x\ny/", false],
  ["a = b / c\nd / e", true],
  ["x(); // it's\ny()", true],
  ["x = 1  # it's\ny = 2", true],
  ["/* it's\n */ x", true],
  ["  * it's a doc line\n  */\nx()", true],
  ["if (a) { return /re\\/x/.test(s) }\nz", true],
  ["[/[/]\n/, 1]", false],
  [`a = \`x ${subst("f(`y`)")} z\`\nb`, true],
  [`a = \`x ${subst('f("y\n")')} z\``, false],
  [`a = \`x ${subst(" {k: 1}.k ")} z\`\nb`, true],
  [`a = \`x\n${subst("`y\nz`")}\``, true],
];
for (const [text, outside] of lexerCases) {
  test(`breaksOutsideLiterals(${JSON.stringify(text)}) is ${outside}`, () => {
    assert.equal(breaksOutsideLiterals(text), outside);
  });
}

// Lines of code made of words, indentation, calls and string literals that hold no break.
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const literal = fc.oneof(word.map((w) => `"${w}"`), word.map((w) => `'${w}'`), word.map((w) => `"${w}\\t${w}"`));
const codeLine = fc
  .tuple(fc.constantFrom("", "  ", "    ", "\t"), word, fc.array(fc.oneof(word, literal), { maxLength: 3 }))
  .map(([indent, head, args]) => `${indent}${head}(${args.join(", ")});`);

test("property: an over-escaped block of indented code is read back whole when its first line is the find text", () => {
  fc.assert(
    fc.property(codeLine, fc.array(codeLine.map((l) => `  ${l}`), { minLength: 1, maxLength: 6 }), (first, rest) => {
      const lines = [first, ...rest];
      assert.deepEqual(escapedReplacement(overEscape(lines.join("\n")), [first])?.split("\n"), lines);
    }),
  );
});

test("property: a one-line replacement whose `\\n` are inside string literals is never split", () => {
  const withBreak = fc.tuple(word, fc.constantFrom("  ", "\t", ""), word).map(([a, pad, b]) => `"${a}\\n${pad}${b}"`);
  fc.assert(
    fc.property(codeLine, fc.array(withBreak, { minLength: 1, maxLength: 3 }), fc.constantFrom("", "  "), (find, args, indent) => {
      const replacement = `${indent}call(${args.join(", ")});`;
      assert.equal(escapedReplacement(replacement, [find, replacement.trim()]), undefined);
    }),
  );
});
