/**
 * The server's input lines, checked as JSON-RPC before the SDK's stdio
 * transport sees them. That transport drops a line that is not JSON without
 * a word, and reads a batch (an array) as no message at all; JSON-RPC 2.0
 * says a parse error gets an error response (`-32700`, id null), an invalid
 * request one too (`-32600`), and each request of a batch its own answer.
 * MCP dropped batches in its 2025-06-18 revision, so the requests of a batch
 * are passed on one by one and answered one by one (not as one array).
 */

import { type Readable, Transform } from "node:stream";

/** An error response this layer answers itself. */
export interface RpcErrorReply {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

const NEWLINE = 0x0a;

function reply(id: string | number | null, code: number, message: string): RpcErrorReply {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function idOf(value: Record<string, unknown>): string | number | null {
  const id = value.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Whether `value` has the shape of a JSON-RPC 2.0 request, notification or response (the SDK checks the rest). */
function isMessage(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  return m.jsonrpc === "2.0" && (typeof m.method === "string" || "result" in m || "error" in m);
}

/**
 * What one input line becomes: the messages to pass on (one line each) and
 * the error responses to send back. An empty line is nothing.
 */
export function checkLine(line: string): { pass: string[]; replies: RpcErrorReply[] } {
  const text = line.trim();
  if (text === "") return { pass: [], replies: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { pass: [], replies: [reply(null, -32700, `Parse error: the message is not JSON (${(error as Error).message}).`)] };
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return { pass: [], replies: [reply(null, -32600, "Invalid Request: an empty batch.")] };
  const pass: string[] = [];
  const replies: RpcErrorReply[] = [];
  for (const item of items) {
    if (isMessage(item)) pass.push(Array.isArray(value) ? JSON.stringify(item) : text);
    else {
      const id = typeof item === "object" && item !== null && !Array.isArray(item) ? idOf(item as Record<string, unknown>) : null;
      replies.push(reply(id, -32600, 'Invalid Request: a JSON-RPC message is an object with "jsonrpc": "2.0" and a "method" (or a "result" or "error").'));
    }
  }
  return { pass, replies };
}

/**
 * Wraps `input` (lines, as `boundedLines` gives them): the returned stream
 * carries the valid messages, one per line; `send` gets the error responses.
 */
export function jsonRpcLines(input: Readable, send: (reply: RpcErrorReply) => void): Readable {
  let tail: Buffer[] = [];
  const emit = (stream: Transform, line: string) => {
    const { pass, replies } = checkLine(line);
    for (const message of pass) stream.push(`${message}\n`);
    for (const r of replies) send(r);
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let pos = 0;
      for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, pos)) {
        tail.push(chunk.subarray(pos, end));
        emit(this, Buffer.concat(tail).toString("utf8"));
        tail = [];
        pos = end + 1;
      }
      if (pos < chunk.length) tail.push(chunk.subarray(pos));
      done();
    },
    flush(done) {
      if (tail.length > 0) emit(this, Buffer.concat(tail).toString("utf8"));
      done();
    },
  });
  input.on("error", (error) => out.destroy(error));
  return input.pipe(out);
}
