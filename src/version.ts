/** The package version, shown by `fuzzpatch --version` and sent to MCP clients. */
export const VERSION = "0.1.0";
