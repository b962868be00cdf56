/**
 * The server's stdin cut into JSON-RPC lines of at most `limit` bytes. The
 * SDK's stdio transport closes the connection (and so ends the process) when
 * one message passes its buffer limit: any client could stop the server with
 * one long line. Here a line over the limit never reaches the transport: its
 * bytes are dropped as they arrive (never held whole), scanned only for the
 * request's top-level `"id"`, so the request can be answered with an error
 * while the server stays up.
 */

import { type Readable, Transform } from "node:stream";

/** A JSON-RPC request id, or `undefined` when the message had none (a notification) or it was not found. */
export type RequestId = string | number | undefined;

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** Longest id text kept (ids are short; a longer one is not answered by id). */
const MAX_ID_BYTES = 256;

/**
 * Finds the top-level `"id"` of a JSON object fed in pieces, keeping only a
 * few bytes of state: the message itself may be gigabytes. Clients put the id
 * first or last (the SDK's client writes it last), so the whole message is read.
 */
export class IdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private inKey = false;
  private key: number[] = [];
  private lastKey = "";
  private value: number[] | undefined;
  private found: RequestId;

  feed(bytes: Uint8Array): void {
    for (const c of bytes) this.step(c);
  }

  /** The id, once the message has been fed whole. */
  id(): RequestId {
    if (this.value) this.finish();
    return this.found;
  }

  private step(c: number): void {
    if (this.value) {
      if (!this.inString && this.depth === 1 && (c === COMMA || c === CLOSE_BRACE)) this.finish();
      else if (this.value.length <= MAX_ID_BYTES) this.value.push(c);
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === BACKSLASH) this.escaped = true;
      else if (c === QUOTE) {
        this.inString = false;
        if (this.inKey) {
          this.inKey = false;
          this.lastKey = Buffer.from(this.key).toString("utf8");
        }
        return;
      }
      if (this.inKey && this.key.length < 8) this.key.push(c);
      return;
    }
    switch (c) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.inKey = true;
          this.key = [];
          this.expectKey = false;
        }
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.depth++;
        if (this.depth === 1) this.expectKey = c === OPEN_BRACE;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth--;
        break;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        break;
      case COLON:
        if (this.depth === 1 && this.lastKey === "id") this.value = [];
        break;
    }
  }

  private finish(): void {
    const text = Buffer.from(this.value ?? []).toString("utf8");
    this.value = undefined;
    this.lastKey = "";
    try {
      const id: unknown = JSON.parse(text);
      if (typeof id === "number" || typeof id === "string") this.found = id;
    } catch {
      // Not a JSON value (or longer than MAX_ID_BYTES): no id to answer.
    }
  }
}

/**
 * Wraps `input`: the returned stream carries its lines (each with its
 * newline) of at most `limit` bytes; for each longer line, `onOversize` gets
 * its id and length in bytes.
 */
export function boundedLines(input: Readable, limit: number, onOversize: (id: RequestId, bytes: number) => void): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let scanner: IdScanner | undefined;
  let dropped = 0;
  const drop = (bytes: Buffer) => {
    scanner ??= new IdScanner();
    scanner.feed(bytes);
    dropped += bytes.length;
  };
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let pos = 0;
      while (pos < chunk.length) {
        const end = chunk.indexOf(NEWLINE, pos);
        const piece = chunk.subarray(pos, end === -1 ? chunk.length : end);
        pos = end === -1 ? chunk.length : end + 1;
        if (scanner === undefined && pendingBytes + piece.length > limit) {
          // Over the limit: what was held goes to the scanner, and so does the rest of the line.
          for (const held of pending) drop(held);
          pending = [];
          pendingBytes = 0;
        }
        if (scanner !== undefined) drop(piece);
        else {
          pending.push(piece);
          pendingBytes += piece.length;
        }
        if (end === -1) break;
        if (scanner !== undefined) {
          onOversize(scanner.id(), dropped);
          scanner = undefined;
          dropped = 0;
        } else {
          pending.push(Buffer.from([NEWLINE]));
          // One line per push: the transport parses each before the next arrives, so its buffer never holds two.
          this.push(Buffer.concat(pending));
          pending = [];
          pendingBytes = 0;
        }
      }
      done();
    },
    flush(done) {
      if (scanner !== undefined) onOversize(scanner.id(), dropped);
      else if (pendingBytes > 0) this.push(Buffer.concat(pending));
      done();
    },
  });
  input.on("error", (error) => out.destroy(error));
  return input.pipe(out);
}
