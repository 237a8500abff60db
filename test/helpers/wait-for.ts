/**
 * Waits until `condition` holds, checking every `everyMs`, and fails the test with `what` once `timeoutMs`
 * has passed: no wait in the suite polls forever.
 */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
