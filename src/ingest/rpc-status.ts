/** gRPC status codes used by OTLP responses. */
export const GRPC_CODE = {
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  UNAVAILABLE: 14,
} as const;

/** A google.rpc.Status message (code = field 1 varint, message = field 2 string), the OTLP/HTTP error body. */
export function encodeRpcStatus(code: number, message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  const parts: number[] = [0x08, ...varint(code), 0x12, ...varint(text.length)];
  return Buffer.concat([Buffer.from(parts), text]);
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return bytes;
}
