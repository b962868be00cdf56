/**
 * The quiet reporter of `npm test` (node --test-reporter): one dot per
 * passing top-level test, every failure in full (file, test name, error, and
 * for a file that failed to run, what it wrote to stderr), then the
 * runner's closing counts as TAP prints them (`# pass N`, `# fail N`, which CI
 * reads) and one plain line `N passed, N failed`. The TAP reporter printed
 * ~9,000 lines for a green run; a newcomer needs the failures and the count.
 * Plain JavaScript: node loads a reporter before `--import tsx` takes effect.
 */
import { inspect } from "node:util";

/** A failure whose only cause is a failed subtest: the subtest itself is printed. */
function onlySubtestsFailed(error) {
  return typeof error === "object" && error !== null && error.failureType === "subtestsFailed";
}

/**
 * The error behind the runner's wrapper (`cause`), with its stack when it has
 * one. An error whose fields could not cross from the test's process (an
 * assertion's `actual` holding functions) arrives as an object `String` cannot
 * convert: its stack or message, else its inspection.
 */
function describeError(error) {
  const cause = error?.cause ?? error;
  if (cause instanceof Error) return cause.stack ?? `${cause.name}: ${cause.message}`;
  if (typeof cause?.stack === "string") return cause.stack;
  if (typeof cause?.message === "string") return cause.message;
  try {
    return String(cause);
  } catch {
    return inspect(cause, { depth: 4 });
  }
}

/** Keeps the end of each file's stderr: a file that fails to load says why only there. */
const STDERR_KEPT = 4000;

function formatFailure(data, stderr) {
  const where = data.file ? `${data.file}\n  ` : "";
  const own = data.file !== undefined && data.name === data.file ? (stderr.get(data.file) ?? "") : "";
  const body = `${describeError(data.details?.error)}${own ? `\n${own}` : ""}`.replace(/\n/g, "\n    ");
  return `\n✖ ${where}${data.name}\n    ${body}\n`;
}

export default async function* summaryReporter(source) {
  const totals = new Map();
  const stderr = new Map();
  let dots = 0;
  for await (const event of source) {
    const { type, data } = event;
    if (type === "test:stderr" && data.file !== undefined) {
      stderr.set(data.file, `${stderr.get(data.file) ?? ""}${data.message}`.slice(-STDERR_KEPT));
    } else if (type === "test:pass" && data.nesting === 0) {
      dots += 1;
      yield dots % 80 === 0 ? ".\n" : ".";
    } else if (type === "test:fail" && !onlySubtestsFailed(data.details?.error)) {
      yield formatFailure(data, stderr);
    } else if (type === "test:diagnostic" && data.nesting === 0 && data.message !== undefined) {
      // The run's closing counts ("tests 1234", "pass 1230", "fail 4", …) arrive as top-level diagnostics.
      const [key, value] = data.message.split(" ");
      if (key !== undefined && value !== undefined && /^\d+(\.\d+)?$/.test(value)) totals.set(key, value);
      else yield `\n# ${data.message}\n`;
    }
  }
  yield "\n";
  for (const [key, value] of totals) yield `# ${key} ${value}\n`;
  yield `${totals.get("pass") ?? 0} passed, ${totals.get("fail") ?? 0} failed\n`;
}
