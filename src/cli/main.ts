/**
 * The `fuzzpatch` command line: `apply`, `replace`, `diff`, `mcp`. `main` returns
 * the exit code instead of exiting, so tests and the launcher share it.
 *
 * Each command's module is imported when the command runs, not here:
 * `fuzzpatch --help` then loads commander and this file only, not the
 * matcher, the formats and the file layer (start-up is measured by
 * `npm run bench:startup`).
 */

import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { COLOR_MODES, type ColorMode, type Streams, writeError } from "./output.ts";
import { VERSION } from "../version.ts";

const PRESETS = ["default", "opencode"] as const;

/** A whole number of at least `min`, for option values ("-p1", "--max-file-bytes 1000"). */
function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected a whole number${min > 0 ? ` of at least ${min}` : ""}.`);
    return Number(value);
  };
}

/** Options every command shares: colour, and the library options of the edit. */
function addCommonOptions(command: Command, edits: boolean): Command {
  command.addOption(new Option("--color <when>", "colour the output").choices(COLOR_MODES).default("auto"));
  if (!edits) return command;
  return command
    .addOption(new Option("--preset <name>", "matcher preset").choices(PRESETS).default("default"))
    .option("--max-file-bytes <n>", "largest file to edit, in bytes (default 10485760)", wholeNumber(1))
    .option("--allow-binary", "edit files with NUL bytes or invalid UTF-8", false)
    .option("--timeout <ms>", "give up after this many milliseconds, writing nothing (TIMEOUT; default 30000, 0: no limit)", wholeNumber(0));
}

/** What a command's action needs: the streams, stdin (built on first use), and where its exit code goes. */
interface Run {
  streams: Streams;
  stdin: () => NodeJS.ReadStream;
  done: (code: number) => void;
}

export async function main(argv: readonly string[], streams: Streams = defaultStreams(), stdin?: NodeJS.ReadStream): Promise<number> {
  let code = 0;
  const run: Run = {
    streams,
    stdin: () => stdin ?? process.stdin,
    done: (c) => {
      code = c;
    },
  };
  const program = createProgram(streams);
  const apply = addApplyCommand(program, run);
  addBatchCommand(program, run);
  addReplaceCommand(program, run);
  addDiffCommand(program, run);
  addReadCommand(program, run);
  addJournalCommands(program, run);
  addMcpCommand(program, run);
  // The formats are listed under `apply --help` from the registry, loaded only when that help is asked for.
  if (argv.includes("apply") && (argv.includes("--help") || argv.includes("-h") || argv[0] === "help")) {
    const { FORMATS } = await import("../formats/index.ts");
    const rows = FORMATS.map((f) => `  ${f.name.padEnd(15)} ${f.summary ?? ""}`);
    apply.addHelpText("after", `\nFormats (--format; auto finds every one but whole):\n${rows.join("\n")}\n`);
  }
  try {
    await program.parseAsync(inlineInputLast(argv, apply), { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for exits 0; help shown because of bad usage (no command) exits 2.
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
      return error.code === "commander.help" && error.exitCode === 0 ? 0 : 2;
    }
    writeError(streams, { code: "IO", message: String((error as Error)?.stack ?? error) });
    return 2;
  }
  return code;
}

/** The program: its description, version, and output through `streams` (errors as `INVALID_INPUT: …`). */
function createProgram(streams: Streams): Command {
  return new Command("fuzzpatch")
    .description("Apply edits written by AI models (str_replace and other tool calls, SEARCH/REPLACE blocks, unified and fuzzy diffs, Codex V4A patches) to files.")
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => streams.out.write(s),
      writeErr: (s) => streams.err.write(s),
      outputError: (s, write) => write(`INVALID_INPUT: ${s.replace(/^error: /, "")}`),
    })
    .showHelpAfterError("(run fuzzpatch --help for usage)");
}

/** The streams with the command's `--color`. Getters, not a spread, so the process's streams stay unbuilt until written to (see defaultStreams). */
function withColor(streams: Streams, opts: { color: ColorMode }): Streams {
  return {
    get out() {
      return streams.out;
    },
    get err() {
      return streams.err;
    },
    env: streams.env,
    color: opts.color,
  };
}

/** `apply`: a model's response or a patch. */
function addApplyCommand(program: Command, run: Run): Command {
  const apply = program
    .command("apply")
    .description("apply a model's response or a patch (FILE, the text itself, or - / nothing for stdin)")
    .argument("[input]", "a file holding the response or patch, or the text itself (any text with a line break, as Codex passes '*** Begin Patch…'); - reads stdin")
    .option("--root <dir>", "directory the edited paths are relative to", ".")
    // Checked against the format registry when the command runs (loading it here would slow --help).
    .option("--format <format>", "input format: auto, or a format's name (a wrong name lists them)", "auto")
    .option("--dry-run", "show what would change, write nothing", false)
    .option("--check", "only check that every edit applies: write nothing, print only errors; exit 0 or 1", false)
    .option("--stat", "print files and changed line counts instead of the diff; writes nothing (as git apply --stat)", false)
    .option("--numstat", "print added and deleted lines per file, tab-separated; writes nothing (as git apply --numstat)", false)
    .option("--summary", "print files created, deleted, renamed or whose mode changes; writes nothing (as git apply --summary)", false)
    .option("-q, --quiet", "print nothing but errors", false)
    .option("--partial", "write the files whose edits all applied even if others failed", false)
    .option("--reject", "apply what applies and write each failed hunk or block to FILE.rej (as git apply --reject); exit 1 if any", false)
    .option("--json", "print the machine-readable report", false)
    .option("--stream", "read the response as it arrives and print events as NDJSON (edit-started, located, edit-complete, done with the --json report)", false)
    .option("--interactive", "ask which place to use when an edit or hunk is ambiguous (terminal only)", false)
    .option("-p, --strip <n>", "remove N leading components from every path (as patch -pN)", wholeNumber(0))
    .option("-R, --reverse", "undo the diffs instead of applying them", false)
    .option("--target <file>", "the one file the input edits, for blocks or diffs that name none")
    .option("--3way", "for a git diff: merge it into the file from the blob its index line names (as git apply --3way)", false)
    .option("--history <files...>", "earlier versions of the --target file the edit may be written against, oldest first")
    .option("--no-journal", "do not record the write in the undo journal (FUZZPATCH_JOURNAL=0 for every command)")
    .option("--replay <bundle>", "reproduce a `fuzzpatch report` bundle (a JSON file or a --dir directory) in a temporary directory and compare the result")
    .addOption(new Option("--verify <check>", "refuse an edit that introduces a syntax error (tree-sitter; see docs/syntax.md)").choices(["none", "syntax"]))
    .addOption(new Option("--syntax <mode>", "report syntax errors an edit introduces as warnings, or skip the check").choices(["report", "off"]));
  addCommonOptions(apply, true).action(async (file: string | undefined, opts) => {
    const { runApply } = await import("./apply.ts");
    run.done(await runApply(file, opts, withColor(run.streams, opts), run.stdin));
  });
  return apply;
}

/** `batch`: cases of a JSONL file on worker threads. */
function addBatchCommand(program: Command, run: Run): void {
  const batch = program
    .command("batch")
    .description("apply one case per line of CASES.jsonl ({ id?, path, content?, edit, format?, options? }) on worker threads; prints one NDJSON result per case, in order")
    .argument("[cases]", "the JSONL file of cases; - or nothing reads stdin")
    .option("--root <dir>", "directory the paths of cases without content are relative to", ".")
    .option("--dry-run", "write nothing for cases with a path", false)
    .option("--jobs <n>", "worker threads (0: apply in the main thread; default: the number of cores)", wholeNumber(0))
    .option("--shard <i/n>", "take every Nth case from the Ith (1-based, as 2/4), to split the cases across machines");
  addCommonOptions(batch, false).action(async (file: string | undefined, opts) => {
    const { runBatch } = await import("./batch.ts");
    run.done(await runBatch(file, opts, withColor(run.streams, opts), run.stdin));
  });
}

/** `replace`: str_replace on one file. */
function addReplaceCommand(program: Command, run: Run): void {
  const replace = program
    .command("replace")
    .description("replace text in one file (str_replace)")
    .argument("<file>", "the file to edit")
    .option("--old <text>", "text to find")
    .option("--new <text>", "replacement text")
    .option("--old-file <file>", "read the text to find from a file")
    .option("--new-file <file>", "read the replacement from a file")
    .option("--all", "replace every occurrence", false)
    .option("--dry-run", "show what would change, write nothing", false)
    .option("-q, --quiet", "print nothing but errors", false)
    .option("--json", "print the machine-readable report", false)
    .option("--no-journal", "do not record the write in the undo journal");
  addCommonOptions(replace, true).action(async (file: string, opts) => {
    const { runReplace } = await import("./replace.ts");
    run.done(await runReplace(file, opts, withColor(run.streams, opts)));
  });
}

/** `diff`: a unified diff of two files. */
function addDiffCommand(program: Command, run: Run): void {
  const diff = program
    .command("diff")
    .description("print a unified diff from OLD to NEW; exit 0 when equal, 1 when they differ, 2 on bad usage or a file that cannot be read")
    .argument("<old>", "the original file")
    .argument("<new>", "the changed file")
    .option("--fuzzy", "omit line numbers from hunk headers (@@ @@)", false);
  addCommonOptions(diff, false).action(async (oldFile: string, newFile: string, opts) => {
    const { runDiff } = await import("./diff.ts");
    run.done(await runDiff(oldFile, newFile, opts, withColor(run.streams, opts)));
  });
}

/** `read`: a file as read_file shows it. */
function addReadCommand(program: Command, run: Run): void {
  const read = program
    .command("read")
    .description("print a file as read_file shows it: numbered lines, or with --anchors tagged lines (N#TAG:text) for line edits")
    .argument("<file>", "the file to show")
    .option("--anchors", "tag each line with a hash of its content", false)
    .option("--offset <n>", "first line to show, 1-based", wholeNumber(1))
    .option("--limit <n>", "most lines to show (default 2000)", wholeNumber(1));
  addCommonOptions(read, false).action(async (file: string, opts) => {
    const { runRead } = await import("./read.ts");
    run.done(await runRead(file, opts, withColor(run.streams, opts)));
  });
}

/** `undo`, `log` and `report`: the undo journal's writes. */
function addJournalCommands(program: Command, run: Run): void {
  const undo = program
    .command("undo")
    .description("take back a write recorded in the undo journal: the last one under --root, or the one ID names (see fuzzpatch log)")
    .argument("[id]", "the write's id, or the start of it")
    .option("--last", "the last write under --root not yet undone (the default without an id)", false)
    .option("--root <dir>", "without an id: the last write whose root is this directory, inside it or holds it", ".")
    .option("--merge", "a file changed since: take the write's change out of it by three-way merge instead of refusing", false)
    .option("--dry-run", "show what would change, write nothing", false)
    .option("--json", "print the machine-readable result", false)
    .option("-q, --quiet", "print nothing but errors", false)
    .option("--no-journal", "do not record the undo itself (it then cannot be redone)");
  addCommonOptions(undo, false).action(async (id: string | undefined, opts) => {
    const { runUndo } = await import("./undo.ts");
    run.done(await runUndo(id, opts, withColor(run.streams, opts)));
  });

  const log = program
    .command("log")
    .description("list the writes in the undo journal, newest first")
    .option("--root <dir>", "only writes whose root is this directory, inside it or holds it")
    .option("-n, --max <n>", "most writes listed (default 20)", wholeNumber(1))
    .option("--json", "print the machine-readable list", false);
  addCommonOptions(log, false).action(async (opts) => {
    const { runLog } = await import("./undo.ts");
    run.done(await runLog(opts, withColor(run.streams, opts)));
  });

  const report = program
    .command("report")
    .description("write a reproduction bundle of a write (the last under --root, or ID): its input, options, files before and after, result and versions")
    .argument("[id]", "the write's id, or the start of it")
    .option("-o, --output <path>", "where to write it (default fuzzpatch-report-ID.json, or fuzzpatch-report-ID/ with --dir)")
    .option("--dir", "write a directory (bundle.json, the input, before/ and after/) instead of one JSON file", false)
    .option("--redact", "replace the files' lines far from the edits with placeholders (checked to still reproduce)", false)
    .option("--root <dir>", "without an id: the last write whose root is this directory, inside it or holds it", ".");
  addCommonOptions(report, false).action(async (id: string | undefined, opts) => {
    const { runReport } = await import("./replay.ts");
    run.done(await runReport(id, opts, withColor(run.streams, opts)));
  });
}

/** `mcp`: the edit tools as an MCP server on stdio. */
function addMcpCommand(program: Command, run: Run): void {
  program
    .command("mcp")
    .description("serve the edit tools (read_file, edit_file, edit_lines, apply_diff, create_file) as an MCP server on stdio")
    .addOption(
      new Option("--root <dir>", "directory the tools may read and edit (repeat for several)")
        .argParser(collect)
        .default([], "the client's roots, else the working directory"),
    )
    .option("--read-only", "offer only read_file", false)
    .option("--anchors", "read_file tags each line (N#TAG:text) for edit_lines unless a call says otherwise", false)
    .option("--allow-client-roots", "let the client's MCP roots widen the scope beyond --root (without it they may only narrow it)", false)
    .option("--no-journal", "do not record writes in the undo journal (and offer no undo_edit)")
    .addOption(new Option("--verify <check>", "refuse an edit that introduces a syntax error (tree-sitter; see docs/syntax.md)").choices(["none", "syntax"]))
    .option("--timeout <ms>", "each tool call's time budget: past it the call fails with TIMEOUT, writing nothing (default 10000)", wholeNumber(1))
    .action(async (opts) => {
      const { runMcp } = await import("./mcp.ts");
      run.done(await runMcp(opts, run.streams));
    });
}

/**
 * `apply` with the patch itself as its argument: a diff starts with `---`,
 * which commander would read as an option. Such an argument (text with a line
 * break that is not an option's value) is moved after a `--`, where nothing
 * is an option.
 */
function inlineInputLast(argv: readonly string[], apply: Command): string[] {
  if (argv[0] !== "apply" || argv.includes("--")) return [...argv];
  const takesValue = (arg: string | undefined) => apply.options.some((o) => (o.long === arg || o.short === arg) && (o.required || o.optional));
  const kept: string[] = [];
  const inline: string[] = [];
  for (const [i, arg] of argv.entries()) {
    if (/[\r\n]/.test(arg) && arg.startsWith("-") && !takesValue(argv[i - 1])) inline.push(arg);
    else kept.push(arg);
  }
  return inline.length === 0 ? kept : [...kept, "--", ...inline];
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The process's streams, read on first use: Node builds process.stdin,
 * stdout and stderr when first touched (loading the stream modules, ~10 ms
 * of a 75 ms start for a file or a pipe), and `apply -q` of a clean edit
 * writes nothing.
 */
function defaultStreams(): Streams {
  return {
    get out() {
      return process.stdout;
    },
    get err() {
      return process.stderr;
    },
    env: process.env,
  };
}
