// Values that break naive readers: wrong types, empty and huge numbers, control and formula-injection text.
export const WEIRD_VALUES = [
  null,
  0,
  -1,
  1.5,
  1e308,
  "",
  "x",
  "Yes",
  "PASS",
  true,
  [],
  {},
  ["a", 1],
  "\u0000",
  "💥".repeat(3),
  "=cmd|' /C calc'!A0",
];
