/**
 * What an export holds in memory, per byte of its (uncompressed) protobuf or JSON body, once
 * decoded: rows of tiny items measure 25 to 35 times the wire size, plus the bus records encoded
 * from them (about the body's size again). Reserved before decoding, so the budget is never
 * overrun by decoding.
 */
export const HELD_BYTES_PER_BODY_BYTE = 32;

/**
 * Bytes an export holds: its bytes as received (when gzipped, besides the body) plus its body's
 * decoded estimate. Before a gzipped body is inflated its size is unknown, and the received size
 * stands for it.
 */
export function heldBytesFor(receivedBytes: number, bodyBytes: number = receivedBytes): number {
  const compressed = bodyBytes === receivedBytes ? 0 : receivedBytes;
  return compressed + bodyBytes * HELD_BYTES_PER_BODY_BYTE;
}
