import type { FastifyReply } from 'fastify';
import { StorageError, StorageTimeoutError } from '../model/store.js';

/**
 * Stable machine-readable error codes. The contract fixes every error body on /api/ word for word
 * (`{"error": "<message>"}`), so the code travels beside it in the `svc-error-code` header: a
 * client branches on the code and shows the message, and messages can be reworded without
 * breaking clients that branch.
 */
export type ApiErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'url_too_long'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'too_many_attempts'
  | 'header_too_large'
  | 'internal'
  | 'storage_unavailable'
  | 'kafka_unavailable'
  | 'storage_timeout';

/** The response header carrying an error's code. */
export const ERROR_CODE_HEADER = 'svc-error-code';

/** The API's error catalogue: every error on /api/ is `{"error": "<message>"}` with one of these statuses. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: ApiErrorCode = codeOfStatus(status),
    /** Seconds a client waits before trying again, sent as `Retry-After`. */
    readonly retryAfterSecs?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The code of an error known only by its status (framework and parser errors). */
export function codeOfStatus(status: number): ApiErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 408:
      return 'request_timeout';
    case 413:
      return 'body_too_large';
    case 414:
      return 'url_too_long';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_attempts';
    case 431:
      return 'header_too_large';
    case 503:
      return 'storage_unavailable';
    case 504:
      return 'storage_timeout';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = () => new ApiError(404, 'not found');
export const unauthorized = () => new ApiError(401, 'unauthorized');
export const unsupportedMediaType = () => new ApiError(415, 'content type must be application/json');
export const tooManyAttempts = (retryAfterSecs: number) => new ApiError(429, 'too many attempts', 'too_many_attempts', retryAfterSecs);
export const storageUnavailable = () => new ApiError(503, 'storage unavailable');
export const storageTimeout = () => new ApiError(504, 'storage timeout');
export const kafkaUnavailable = () => new ApiError(503, 'kafka unavailable', 'kafka_unavailable');
export const internalError = () => new ApiError(500, 'internal error');

/**
 * One classifier from any failure to the API answer; storage details never reach the client.
 * Returns the error to answer with and whether it is a storage failure (counted in metrics).
 */
export function classifyError(error: unknown): { apiError: ApiError; storage: boolean } {
  if (error instanceof ApiError) return { apiError: error, storage: false };
  if (error instanceof StorageTimeoutError) return { apiError: storageTimeout(), storage: true };
  if (error instanceof StorageError) return { apiError: storageUnavailable(), storage: true };
  return { apiError: internalError(), storage: false };
}

/** The body of every error reply: the contract's shape, nothing more. */
export function errorBody(error: ApiError): { error: string } {
  return { error: error.message };
}

/** The headers of every error reply besides its content type. */
export function errorHeaders(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = { [ERROR_CODE_HEADER]: error.code };
  if (error.retryAfterSecs !== undefined) headers['retry-after'] = String(error.retryAfterSecs);
  return headers;
}

/** Answers `error` on a fastify reply: the one place an error reply is written. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(errorHeaders(error)).type('application/json; charset=utf-8').send(errorBody(error));
}
