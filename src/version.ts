/**
 * The package's version, read from package.json at run time so it is written
 * in one place (shown by `fuzzpatch --version`, sent to MCP clients). The
 * implementation sits in src/cli/version.ts, whose relative URL to
 * package.json holds both as source and as built code.
 */
import { readVersion } from "./cli/version.ts";

export const VERSION: string = readVersion();
