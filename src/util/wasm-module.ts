/**
 * Loading a module that `npm run build:wasm` compiles from assembly/ next to the code that uses it,
 * and the few parts of the WebAssembly API the project calls (its type libraries do not declare
 * them; Node has them).
 */
import { readFileSync } from 'node:fs';

/** A module's linear memory, grown in pages. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Bytes in one page of WebAssembly memory. */
export const WASM_PAGE_BYTES = 65536;

/**
 * Compiles the module in `file`. Throws a one-line error naming the file and what it is when the
 * build left it out (a build by `tsc` alone).
 */
export function compileWasm(file: URL, what: string): object {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new Error(`the WebAssembly ${what} is not built (${file.pathname}: ${(error as Error).message}); run npm run build`);
  }
  return new wasm.Module(bytes);
}

/** A new instance of a compiled module (no imports), with its own memory. */
export function instantiateWasm(module: object): unknown {
  return new wasm.Instance(module, {}).exports;
}
