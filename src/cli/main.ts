/**
 * The `fuzzpatch` command line: `apply`, `replace`, `diff`. `main` returns
 * the exit code instead of exiting, so tests and the launcher share it.
 *
 * Each command's module is imported when the command runs, not here:
 * `fuzzpatch --help` then loads commander and this file only, not the
 * matcher, the formats and the file layer (start-up is measured by
 * `npm run bench:startup`).
 */

import { Command, CommanderError, Option } from "commander";
import { type Streams, writeError } from "./output.ts";
import { readVersion } from "./version.ts";

const FORMATS = ["auto", "search-replace", "udiff", "str-replace"] as const;

export async function main(argv: readonly string[], streams: Streams = defaultStreams(), stdin: NodeJS.ReadStream = process.stdin): Promise<number> {
  let code = 0;
  const program = new Command("fuzzpatch")
    .description("Apply edits written by AI models (str_replace, SEARCH/REPLACE blocks, unified and fuzzy diffs) to files.")
    .version(readVersion())
    .exitOverride()
    .configureOutput({
      writeOut: (s) => streams.out.write(s),
      writeErr: (s) => streams.err.write(s),
      outputError: (s, write) => write(`INVALID_INPUT: ${s.replace(/^error: /, "")}`),
    })
    .showHelpAfterError("(run fuzzpatch --help for usage)");

  program
    .command("apply")
    .description("apply a model's response or a patch (FILE, or - / nothing for stdin)")
    .argument("[file]", "the response or patch; - reads stdin")
    .option("--root <dir>", "directory the edited paths are relative to", ".")
    .addOption(new Option("--format <format>", "input format").choices(FORMATS).default("auto"))
    .option("--dry-run", "show what would change, write nothing", false)
    .option("--partial", "write the files whose edits all applied even if others failed", false)
    .option("--json", "print the machine-readable report", false)
    .option("--interactive", "ask which place to use when an edit is ambiguous (terminal only)", false)
    .action(async (file: string | undefined, opts) => {
      const { runApply } = await import("./apply.ts");
      code = await runApply(file, opts, streams, stdin);
    });

  program
    .command("replace")
    .description("replace text in one file (str_replace)")
    .argument("<file>", "the file to edit")
    .option("--old <text>", "text to find")
    .option("--new <text>", "replacement text")
    .option("--old-file <file>", "read the text to find from a file")
    .option("--new-file <file>", "read the replacement from a file")
    .option("--all", "replace every occurrence", false)
    .option("--dry-run", "show what would change, write nothing", false)
    .option("--json", "print the machine-readable report", false)
    .action(async (file: string, opts) => {
      const { runReplace } = await import("./replace.ts");
      code = await runReplace(file, opts, streams);
    });

  program
    .command("diff")
    .description("print a unified diff from OLD to NEW")
    .argument("<old>", "the original file")
    .argument("<new>", "the changed file")
    .option("--fuzzy", "omit line numbers from hunk headers (@@ @@)", false)
    .action(async (oldFile: string, newFile: string, opts) => {
      const { runDiff } = await import("./diff.ts");
      code = await runDiff(oldFile, newFile, opts, streams);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
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

function defaultStreams(): Streams {
  return { out: process.stdout, err: process.stderr, env: process.env };
}
