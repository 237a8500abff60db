/**
 * A WebAssembly module from its base64 bytes (the *-bytes.ts modules scripts/build-wasm.ts writes), or
 * undefined where this runtime refuses to compile it (no WebAssembly or SIMD, or a page whose
 * Content-Security-Policy lacks 'wasm-unsafe-eval'): its callers then take their JavaScript path.
 */
export function compileWasm(base64: string): WebAssembly.Module | undefined {
  try {
    return new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}
