/**
 * An integer written with commas between groups of three digits, as
 * `toLocaleString("en")` writes it: `1,200,000`. Not that call: its first use
 * in a process builds ICU's number formatter, ~30 ms of CPU, paid by a
 * command line whose call refuses blocks past its search allowance (issue 39).
 */
export function groupDigits(n: number): string {
  // Past the exactly written integers (and for fractions and -0), the formatter's own answer.
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let k = out.length; k < digits.length; k += 3) out += `,${digits.slice(k, k + 3)}`;
  return n < 0 ? `-${out}` : out;
}
