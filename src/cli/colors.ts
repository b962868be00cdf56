/**
 * ANSI styles for the terminal output: the five the CLI uses. Written here
 * rather than taken from picocolors, which decides at load time whether
 * colours are supported by reading process.stdout: that builds the stream,
 * ~8 ms of every start (`npm run bench:startup`), while the CLI decides
 * per stream, from --color, itself (./output.ts).
 */

export interface Colors {
  bold: (text: string) => string;
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  cyan: (text: string) => string;
}

/** Wraps in `open`…`close`; a `close` inside (a nested style of the same kind) re-opens, so the rest keeps the style. */
function style(open: number, close: number): (text: string) => string {
  const on = `\x1b[${open}m`;
  const off = `\x1b[${close}m`;
  return (text) => on + text.replaceAll(off, on) + off;
}

const plain = (text: string): string => text;

export function createColors(enabled: boolean): Colors {
  if (!enabled) return { bold: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return { bold: style(1, 22), red: style(31, 39), green: style(32, 39), yellow: style(33, 39), cyan: style(36, 39) };
}
