/**
 * Gives a payload's memory back now instead of at V8's next full collection. A payload that lived
 * through a few young collections (a batch waiting for max_age_ms, an insert running) has its
 * buffer object promoted, and its bytes, held outside the JS heap, stay allocated until a
 * mark-compact finds the object dead, however long before the bytes stopped being needed.
 * Transferring the buffer detaches it (the view reads as empty from then on) and leaves the bytes
 * with a fresh, unreachable buffer object that the next young collection frees.
 *
 * Only a view that covers its whole buffer is released: a smaller view may share its buffer with
 * other data (Buffer's pool of small allocations, a slab cloned from another thread), which must
 * stay. The caller must be the bytes' last user.
 */
export function releaseBytes(view: Uint8Array): void {
  const buffer = view.buffer;
  if (view.byteLength === 0 || view.byteOffset !== 0 || view.byteLength !== buffer.byteLength || !(buffer instanceof ArrayBuffer)) return;
  try {
    structuredClone(buffer, { transfer: [buffer] });
  } catch {
    // An untransferable buffer (marked so by its owner) is left to the collector.
  }
}
