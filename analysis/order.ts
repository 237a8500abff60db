/** Plain code-point order (contract rule 2); JS `<` compares UTF-16 code units, which differs above U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator](),
    ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next(),
      y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!,
      cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx - cy;
  }
}
