/** gRPC status codes used by OTLP responses. */
export const GRPC_CODE = {
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  UNAVAILABLE: 14,
} as const;

export const RETRY_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * A google.rpc.Status message (code = 1, message = 2, details = 3), the OTLP/HTTP error body and
 * gRPC's `grpc-status-details-bin`. With `retryDelaySecs` it carries one detail, a
 * google.rpc.RetryInfo: OTLP's throttling signal, telling the exporter when to retry.
 */
export function encodeRpcStatus(code: number, message: string, retryDelaySecs?: number): Buffer {
  const parts = [varintField(1, code), bytesField(2, Buffer.from(message, 'utf8'))];
  if (retryDelaySecs !== undefined) parts.push(bytesField(3, encodeRetryInfoAny(retryDelaySecs)));
  return Buffer.concat(parts);
}

/** google.protobuf.Any { type_url = 1, value = 2 } holding RetryInfo { retry_delay = 1: Duration { seconds = 1 } }. */
function encodeRetryInfoAny(retryDelaySecs: number): Buffer {
  const duration = varintField(1, retryDelaySecs);
  const retryInfo = bytesField(1, duration);
  return Buffer.concat([bytesField(1, Buffer.from(RETRY_INFO_TYPE_URL, 'utf8')), bytesField(2, retryInfo)]);
}

export function varintField(field: number, value: number): Buffer {
  // proto3 leaves zero scalars out.
  return value === 0 ? Buffer.alloc(0) : Buffer.from([field << 3, ...varint(value)]);
}

export function bytesField(field: number, bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...varint(bytes.length)]), bytes]);
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
