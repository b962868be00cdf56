/**
 * At most `max` tasks under way at once, the others waiting their turn in
 * the order they were given: how the file layer reads ahead (apply-edits.ts)
 * and writes (transaction.ts) several files at a time, each file's work a
 * dozen file system calls in turn.
 */
export function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running < max) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes to the next task waiting, or is freed.
      const wake = waiting.shift();
      if (wake) wake();
      else running--;
    }
  };
}
