/**
 * XXH3-64 compiled to WebAssembly (assembly/xxh3.ts), over bytes the caller writes into the
 * instance's memory: the same numbers as the native xxh3.xxh64 (xxhash.ts), without its call's
 * cost of some hundreds of nanoseconds (log ids hash every log record, on two threads).
 * One instance per thread, made on first use.
 */
import { compileWasm, instantiateWasm, WASM_PAGE_BYTES, type WasmMemory } from './wasm-module.js';

interface Xxh3Exports {
  memory: WasmMemory;
  freeAddress(): number;
  /** XXH3-64 of [address, address + length), as a signed 64-bit BigInt (WebAssembly's i64). */
  hash(address: number, length: number): bigint;
}

/** Input bytes and their hash: ensure(n), write up to n bytes into `bytes` from 0, then hash(length). */
export class Xxh3Scratch {
  private readonly exports: Xxh3Exports;
  private readonly address: number;
  /** The input area (replaced when the memory grows: keep no reference across ensure()). */
  bytes: Uint8Array;

  constructor() {
    const module = compileWasm(new URL('./xxh3.wasm', import.meta.url), 'hash');
    this.exports = instantiateWasm(module) as Xxh3Exports;
    this.address = this.exports.freeAddress();
    this.bytes = this.view();
  }

  /** Makes the input area at least `bytes` long. */
  ensure(bytes: number): void {
    if (bytes <= this.bytes.length) return;
    const missing = this.address + bytes - this.exports.memory.buffer.byteLength;
    this.exports.memory.grow(Math.ceil(missing / WASM_PAGE_BYTES));
    this.bytes = this.view();
  }

  /** The unsigned XXH3-64 of the first `length` bytes of the input area. */
  hash(length: number): bigint {
    return BigInt.asUintN(64, this.exports.hash(this.address, length));
  }

  private view(): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, this.address);
  }
}
