/**
 * A WebAssembly module from its base64 bytes (the *-bytes.ts modules scripts/build-wasm.ts writes), or
 * undefined where this runtime refuses to compile it (no WebAssembly or SIMD, or a page whose
 * Content-Security-Policy lacks 'wasm-unsafe-eval'): its callers then take their JavaScript path.
 */
function compileWasm(base64: string): WebAssembly.Module | undefined {
  try {
    return new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The module of `base64`, compiled on the first call and kept for the thread (a refusal too). */
export function compiledOnce(base64: string): () => WebAssembly.Module | undefined {
  let module: WebAssembly.Module | null | undefined;
  return () => {
    if (module === undefined) module = compileWasm(base64) ?? null;
    return module ?? undefined;
  };
}

/** `byte` rounded up to a multiple of 8 (where a Float64Array view may start). */
export const align8 = (byte: number): number => Math.ceil(byte / 8) * 8;

/** Grows `memory` to hold at least `bytes` (views made before a growth must be made again). */
export function reserveBytes(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
}
