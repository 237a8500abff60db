/**
 * Store text is untrusted: control characters (ANSI escapes, BEL, backspace, C1 codes) are
 * stripped before anything reaches a terminal; tabs and newlines stay.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControl(text: string): string {
  return text.replace(CONTROL, "");
}
