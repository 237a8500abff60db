// Assembles analysis/'s WebAssembly kernels from their .wat sources into the modules that carry
// their bytes (scripts/wasm-modules.ts). Run after editing a .wat file: npm run wasm.
import { writeFileSync } from "node:fs";
import { assemble, bytesModule, WASM_MODULES } from "./wasm-modules.js";

process.chdir(new URL("..", import.meta.url).pathname);
for (const m of WASM_MODULES) {
  const bytes = await assemble(m.source);
  writeFileSync(m.module, bytesModule(m.name, m.source, bytes));
  console.log(`wrote ${m.module} (${bytes.length} bytes)`);
}
