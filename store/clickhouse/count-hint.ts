/**
 * A count the servers are still computing, as the size a reader gives its columns at its first row (connection.ts
 * binaryRead): 0 until the count arrives (the reader then starts small and grows), the count once it has. The query
 * whose answer it sizes is asked for at once, not after the count: its first row comes long after the count.
 */
export function countHint<T>(counted: Promise<T>, count: (answer: T) => number): () => number {
  let hint = 0;
  counted.then(
    (answer) => {
      hint = count(answer);
    },
    () => {}, // the count's own failure is reported by whoever awaits it
  );
  return () => hint;
}
