/** 0, 1, …, n − 1. */
export function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * `items` stably reordered by key[item] ascending, keys integers in [0, keys): a counting sort, O(n + keys)
 * (Knuth, TAOCP vol. 3, §5.2, "distribution counting"). Two of them, the minor key first, order by two keys.
 */
export function countingSort(items: Int32Array, key: ArrayLike<number>, keys: number): Int32Array {
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < items.length; i++) start[key[items[i]] + 1]++;
  for (let k = 0; k < keys; k++) start[k + 1] += start[k];
  const out = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) out[start[key[items[i]]]++] = items[i];
  return out;
}
