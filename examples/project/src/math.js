export function add(a, b) {
  return a + b;
}

export function average(values) {
  let total = 0;
  for (const v of values) {
    total += v;
  }
  return total / values.length;
}
