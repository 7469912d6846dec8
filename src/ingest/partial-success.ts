import { bytesField, varintField } from './rpc-status.js';

/**
 * The body of a successful Export*ServiceResponse. With nothing rejected it is empty (zero bytes in
 * protobuf, `{}` in JSON); otherwise OTLP requires `partial_success` (field 1) with the number of
 * items rejected (field 1: rejected_spans or rejected_log_records) and an error message (field 2).
 */
export function encodeExportResponse(signal: 'traces' | 'logs', encoding: 'protobuf' | 'json', rejected: number, message: string): Buffer | string {
  if (encoding === 'json') {
    if (rejected === 0) return '{}';
    // proto3 JSON writes int64 as a decimal string.
    const count = signal === 'traces' ? { rejectedSpans: String(rejected) } : { rejectedLogRecords: String(rejected) };
    return JSON.stringify({ partialSuccess: { ...count, errorMessage: message } });
  }
  if (rejected === 0) return Buffer.alloc(0);
  return bytesField(1, Buffer.concat([varintField(1, rejected), bytesField(2, Buffer.from(message, 'utf8'))]));
}
