/**
 * The MCP server: the tools of `src/tools/` over stdio with the official
 * SDK. Each tool call goes through `runTool`, so the server adds only what
 * MCP has and plain function calling has not: the client's roots, and the
 * wire. stdout is the protocol; every log line goes to stderr.
 */

import { fileURLToPath } from "node:url";
import { McpServer, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { type StdioServerHandle, StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import { DEFAULT_FILE_CACHE_BYTES, FileCache } from "../fs/file-cache.ts";
import type { VerifyMode } from "../fs/syntax-check.ts";
import type { PresetName } from "../match/cascade.ts";
import { READ_ONLY_TOOLS, toolDefinitions } from "../tools/definitions.ts";
import type { JsonSchemaObject } from "../tools/json-schema.ts";
import { runTool } from "../tools/run-tool.ts";
import { narrowRoots } from "../tools/roots.ts";
import { VersionStore } from "../tools/version-store.ts";
import { VERSION } from "../version.ts";
import { journalDisabled } from "../fs/journal-dir.ts";
import type { JournalOptions } from "../fs/journal.ts";
import { boundedLines } from "./bounded-lines.ts";
import { jsonRpcLines } from "./json-rpc-lines.ts";

/** Longest JSON-RPC message read, in bytes: a longer one is answered with an error and dropped, the server stays up. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface McpServerOptions {
  /**
   * Directories every path is confined to; relative paths belong to the
   * first. The client's MCP roots are added when it offers them; with
   * neither, the working directory is the root.
   * @default []
   */
  roots?: readonly string[];
  /**
   * Let the client's MCP roots widen the scope: they are added to `roots`.
   * Without it, when `roots` is given, a client root may only narrow it
   * (see `narrowRoots`): a client offering `file:///` gains nothing.
   * @default false
   */
  allowClientRoots?: boolean;
  /**
   * Offer only `read_file`.
   * @default false
   */
  readOnly?: boolean;
  /**
   * Matcher preset.
   * @default "default"
   */
  preset?: PresetName;
  /**
   * Largest file, in bytes, that is read or edited.
   * @default 10485760
   */
  maxFileBytes?: number;
  /**
   * read_file shows line tags (`N#TAG:text`) unless a call says otherwise,
   * for edit_lines (`fuzzpatch mcp --anchors`).
   * @default false
   */
  anchors?: boolean;
  /**
   * Memory, in bytes, the server may keep between calls for the files it
   * read and wrote (decoded text, line table; see fs/file-cache.ts), so an
   * agent's next edit of a big file is not decoded and indexed again. 0
   * keeps nothing.
   * @default 67108864 (64 MiB)
   */
  cacheBytes?: number;
  /**
   * Record every write in the undo journal (`undo_edit`, `fuzzpatch undo`,
   * `fuzzpatch report`); `false` also withdraws undo_edit
   * (`fuzzpatch mcp --no-journal`). FUZZPATCH_JOURNAL=0 turns it off too.
   * @default true
   */
  journal?: boolean | JournalOptions;
  /**
   * "syntax": an edit that introduces a syntax error is not written; it
   * fails with SYNTAX (`fuzzpatch mcp --verify syntax`).
   * @default "none" (introduced errors are reported, the edit is written)
   */
  verify?: VerifyMode;
  /**
   * Milliseconds a tool call may take before it fails with TIMEOUT and
   * writes nothing (`fuzzpatch mcp --timeout`): a large file on a slow disk
   * may need more.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Where log lines go; never stdout, which carries the protocol.
   * @default writes to process.stderr
   */
  log?: (line: string) => void;
}

/** How long a tool call waits for the client to answer roots/list before using the configured roots. */
const ROOTS_TIMEOUT_MS = 5000;

const INSTRUCTIONS =
  "fuzzpatch edits text files under the project root. Read a file with read_file, then change it with edit_file (oldString/newString pairs) or apply_diff (SEARCH/REPLACE blocks or a unified diff). Edits that cannot be placed with certainty are refused with an error that shows the closest text or every candidate; fix the edit and call again.";

/** One server instance (one connection). */
export function createMcpServer(options: McpServerOptions = {}): McpServer {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const configured = [...(options.roots ?? [])];
  let clientRoots: string[] = [];
  let rootsReady: Promise<void> = Promise.resolve();

  const server = new McpServer({ name: "fuzzpatch", version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  // Client roots exist on 2025-era connections (roots/list is a request from
  // server to client); the 2026-07-28 revision has no such request, so there
  // the configured roots are all there is.
  const refreshRoots = async () => {
    try {
      const result = await server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      clientRoots = result.roots.filter((r) => r.uri.startsWith("file://")).map((r) => fileURLToPath(r.uri));
      log(`fuzzpatch mcp: client roots: ${clientRoots.join(", ") || "(none)"}`);
    } catch (error) {
      log(`fuzzpatch mcp: could not list the client's roots (${(error as Error).message}); using ${describeRoots(currentRoots())}`);
    }
  };
  server.server.oninitialized = () => {
    if (server.server.getClientCapabilities()?.roots) rootsReady = refreshRoots();
  };
  server.server.setNotificationHandler("notifications/roots/list_changed", () => {
    rootsReady = refreshRoots();
  });

  const currentRoots = (): string[] => {
    const all = [...configured, ...clientRoots.filter((r) => !configured.includes(r))];
    return all.length > 0 ? all : [process.cwd()];
  };
  // Asked at every call: a client root's real path is compared with --root when it is used.
  const rootsForCall = async (): Promise<string[]> => {
    if (configured.length === 0 || options.allowClientRoots || clientRoots.length === 0) return currentRoots();
    const { roots, dropped } = await narrowRoots(configured, clientRoots);
    if (dropped.length > 0) log(`fuzzpatch mcp: client roots outside --root ignored: ${dropped.join(", ")} (--allow-client-roots to use them)`);
    return roots;
  };

  // The versions of each file this server served and wrote: edits written against them are merged.
  const versions = new VersionStore();
  // Each file's decoded text and document, for the next call on the same bytes.
  const cache = new FileCache(options.cacheBytes ?? DEFAULT_FILE_CACHE_BYTES);
  for (const def of toolDefinitions) {
    if (options.readOnly && !READ_ONLY_TOOLS.has(def.name)) continue;
    if (def.name === "undo_edit" && (options.journal === false || journalDisabled())) continue;
    const config = {
      title: def.title,
      description: def.description,
      inputSchema: asStandardSchema(def.inputSchema),
      ...(def.outputSchema !== undefined && { outputSchema: asStandardSchema(def.outputSchema) }),
      annotations: def.annotations,
    };
    server.registerTool(def.name, config, async (args: unknown) => {
      await rootsReady;
      const result = await runTool(def.name, args, {
        root: await rootsForCall(),
        versions,
        cache,
        ...(options.readOnly !== undefined && { readOnly: options.readOnly }),
        ...(options.preset !== undefined && { preset: options.preset }),
        ...(options.maxFileBytes !== undefined && { maxFileBytes: options.maxFileBytes }),
        ...(options.anchors !== undefined && { anchors: options.anchors }),
        journal: options.journal !== false && { source: "mcp", ...(typeof options.journal === "object" && options.journal) },
        ...(options.verify !== undefined && { verify: options.verify }),
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      });
      return {
        content: [{ type: "text", text: result.text }],
        isError: result.isError,
        ...(result.structured !== undefined && { structuredContent: { ...result.structured } }),
      };
    });
  }
  return server;
}

/** Serves over this process's stdin/stdout until the client closes stdin. */
export function serveMcp(options: McpServerOptions = {}): StdioServerHandle {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const roots = options.roots && options.roots.length > 0 ? [...options.roots] : [];
  log(`fuzzpatch mcp ${VERSION}: serving ${describeRoots(roots.length > 0 ? roots : [process.cwd()])}${options.readOnly ? " (read-only)" : ""}`);
  const lines = boundedLines(process.stdin, MAX_MESSAGE_BYTES, (id, bytes) => {
    log(`fuzzpatch mcp: dropped a message of ${bytes} bytes, over the limit of ${MAX_MESSAGE_BYTES}`);
    // A notification (no id) gets no answer; a request gets an error with its id.
    if (id === undefined) return;
    const message = `The request is ${bytes} bytes, over this server's limit of ${MAX_MESSAGE_BYTES} bytes (10 MiB); it was not read. Send a smaller request: an edit or a diff instead of a whole large file.`;
    transport.send({ jsonrpc: "2.0", id, error: { code: -32600, message } }).catch((error: Error) => log(`fuzzpatch mcp: ${error.message}`));
  });
  // Not JSON, a batch, not a JSON-RPC message: answered here (json-rpc-lines.ts), which the transport does not.
  const stdin = jsonRpcLines(lines, (reply) => {
    transport.send(reply as unknown as Parameters<typeof transport.send>[0]).catch((error: Error) => log(`fuzzpatch mcp: ${error.message}`));
  });
  // Each line reaches the transport alone and within the limit, so its own buffer limit (which closes the connection) is never reached.
  const transport = new StdioServerTransport(stdin, process.stdout, { maxBufferSize: 2 * (MAX_MESSAGE_BYTES + 1) });
  return serveStdio(() => createMcpServer({ ...options, log }), { transport, onerror: (error) => log(`fuzzpatch mcp: ${error.message}`) });
}

/**
 * A JSON Schema as the SDK wants it. Validation passes everything through:
 * `runTool` validates arguments with the tool's own schema, so a model gets
 * the same error text over MCP as through plain function calling, and the
 * results it builds are of the output schema's shape by construction.
 */
function asStandardSchema(schema: JsonSchemaObject): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "fuzzpatch",
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value: unknown) => ({ value }),
    },
  };
}

function describeRoots(roots: readonly string[]): string {
  return roots.length === 1 ? `root ${roots[0]}` : `roots ${roots.join(", ")}`;
}
