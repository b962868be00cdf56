import { createEditor, replace } from "fuzzpatch";

const editor = createEditor("function greet(name) {\n    return 'hello ' + name;\n}\n");
replace(editor, "return 'hello ' + name;", "return 'hello, ' + name;");
replace(editor, "function greet(name) {", "function greet(name = 'you') {");
console.log(editor.content);
