import type http from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { InFlightLease, Refusal } from './in-flight-budget.js';
import { heldBytesFor } from './in-flight-estimate.js';
import { GRPC_CODE } from './rpc-status.js';

/** The same bound as gRPC messages: 64 MiB, on the wire and after gunzip. */
export const MAX_OTLP_MESSAGE_BYTES = 64 * 1024 * 1024;

/** What an export of unknown length (chunked) reserves first; the reservation grows as bytes arrive. */
export const UNKNOWN_LENGTH_FIRST_BYTES = 64 * 1024;

/** A request answered with an error that is not retried (4xx), counted in svc_ingest_rejected_requests_total. */
/** Every `reason` label of svc_ingest_rejected_requests_total (gRPC has only `decode`). */
export const REJECT_REASONS = ['decode', 'content_type', 'content_encoding', 'too_large'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export class HttpReject extends Error {
  constructor(
    readonly status: number,
    readonly grpcCode: number,
    message: string,
    readonly reason: RejectReason,
  ) {
    super(message);
  }
}

/** The budget refused to grow while the body was read or inflated: answered "retry later". */
export class HttpRetryLater extends Error {
  constructor(readonly reason: Refusal) {
    super(`refused: ${reason}`);
  }
}

/** The stream failed or closed before its end: for a request, the client went away (nobody to answer). */
export class BodyCutShort extends Error {}

/** Declared Content-Length, or undefined for a chunked body. */
export function declaredLength(request: http.IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/**
 * Reads and inflates the body while keeping `lease` covering what is held, growing it as bytes
 * arrive (a chunked body, a gzipped one) so that no body is held beyond the budget. Throws
 * HttpReject (too large, bad gzip) or HttpRetryLater (the budget refused to grow).
 */
export async function readBodyWithin(request: http.IncomingMessage, lease: InFlightLease): Promise<Buffer> {
  const received = await collectWithin(request, lease, (bytes) => heldBytesFor(bytes), 'message');
  const contentEncoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (contentEncoding === 'identity' || contentEncoding === '') return received;
  if (contentEncoding !== 'gzip')
    throw new HttpReject(415, GRPC_CODE.INVALID_ARGUMENT, `content encoding ${contentEncoding} is not supported (gzip is)`, 'content_encoding');
  const gunzip = zlib.createGunzip();
  gunzip.end(received);
  try {
    return await collectWithin(gunzip, lease, (bytes) => heldBytesFor(received.length, bytes), 'message after gunzip');
  } catch (error) {
    gunzip.destroy();
    if (error instanceof HttpReject || error instanceof HttpRetryLater) throw error;
    throw new HttpReject(400, GRPC_CODE.INVALID_ARGUMENT, 'invalid gzip body', 'decode');
  }
}

/**
 * Collects a stream's bytes, growing the lease ahead of them. Events, not `for await`: leaving an
 * async iterator early destroys the request's socket, and the refusal could not be answered.
 */
function collectWithin(source: Readable, lease: InFlightLease, heldFor: (bytes: number) => number, what: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    // Bytes the lease covers; doubled when passed, so that a growing body asks the budget a few times, not per chunk.
    let coveredBytes = 0;
    const fail = (error: unknown) => {
      source.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // A later error of an abandoned stream must not become an uncaught exception.
      source.on('error', () => undefined);
      source.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      chunks.push(chunk);
      if (total > MAX_OTLP_MESSAGE_BYTES)
        return fail(new HttpReject(413, GRPC_CODE.RESOURCE_EXHAUSTED, `${what} larger than ${MAX_OTLP_MESSAGE_BYTES} bytes`, 'too_large'));
      if (heldFor(total) <= lease.bytes) return;
      coveredBytes = Math.min(MAX_OTLP_MESSAGE_BYTES, Math.max(total, coveredBytes * 2, UNKNOWN_LENGTH_FIRST_BYTES));
      source.pause();
      lease.resize(heldFor(coveredBytes)).then((refusal) => (refusal === null ? source.resume() : fail(new HttpRetryLater(refusal))), fail);
    };
    // A client that goes away mid-body ends neither with 'end' nor always with 'error'.
    const onClose = () => fail(new BodyCutShort(`${what} closed before its end`));
    const onError = (error: Error) => fail(new BodyCutShort(error.message));
    const onEnd = () => {
      source.off('data', onData).off('error', onError).off('close', onClose);
      // Give back what was reserved ahead of the bytes.
      lease.resize(heldFor(total)).then(() => resolve(Buffer.concat(chunks, total)), reject);
    };
    source.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
