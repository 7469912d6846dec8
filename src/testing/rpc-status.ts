import { ProtoReader, WIRE_LEN, WIRE_VARINT } from '../otlp/proto-reader.js';

export interface DecodedRpcStatus {
  code: number;
  message: string;
  /** Seconds of each google.rpc.RetryInfo detail's retry_delay. */
  retryDelaysSecs: number[];
  /** type_url of every detail. */
  detailTypes: string[];
}

/** Reads a google.rpc.Status (an OTLP/HTTP error body or gRPC's grpc-status-details-bin), for tests. */
export function decodeRpcStatus(bytes: Buffer): DecodedRpcStatus {
  const status: DecodedRpcStatus = { code: 0, message: '', retryDelaysSecs: [], detailTypes: [] };
  readFields(bytes, 0, bytes.length, (reader, field, end) => {
    if (field === 1) status.code = reader.int32(end);
    else if (field === 2) status.message = reader.string(end);
    else if (field === 3) {
      const detailEnd = reader.lengthEnd(end);
      let typeUrl = '';
      let value: Buffer = Buffer.alloc(0);
      readFields(reader.buf, reader.pos, detailEnd, (inner, innerField, innerEnd) => {
        if (innerField === 1) typeUrl = inner.string(innerEnd);
        else if (innerField === 2) {
          const valueEnd = inner.lengthEnd(innerEnd);
          value = inner.buf.subarray(inner.pos, valueEnd);
          inner.pos = valueEnd;
        } else return false;
        return true;
      });
      reader.pos = detailEnd;
      status.detailTypes.push(typeUrl);
      if (typeUrl === 'type.googleapis.com/google.rpc.RetryInfo') status.retryDelaysSecs.push(retryDelaySecs(value));
    } else return false;
    return true;
  });
  return status;
}

function retryDelaySecs(retryInfo: Buffer): number {
  let seconds = 0;
  readFields(retryInfo, 0, retryInfo.length, (reader, field, end) => {
    if (field !== 1) return false;
    const durationEnd = reader.lengthEnd(end);
    readFields(reader.buf, reader.pos, durationEnd, (inner, innerField, innerEnd) => {
      if (innerField !== 1) return false;
      seconds = Number(inner.int64(innerEnd));
      return true;
    });
    reader.pos = durationEnd;
    return true;
  });
  return seconds;
}

/** Calls `onField` per field in [start, end); fields it does not read (returns false) are skipped. */
function readFields(bytes: Buffer, start: number, end: number, onField: (reader: ProtoReader, field: number, end: number) => boolean): void {
  const reader = new ProtoReader(bytes);
  reader.pos = start;
  while (reader.pos < end) {
    const tag = reader.varint32(end);
    const field = tag >>> 3;
    const wireType = tag & 7;
    const before = reader.pos;
    const known = (wireType === WIRE_VARINT || wireType === WIRE_LEN) && onField(reader, field, end);
    if (!known) {
      reader.pos = before;
      reader.skipUnknown(tag, end, 0);
    }
  }
}
