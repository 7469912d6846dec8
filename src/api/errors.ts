import { StorageError, StorageTimeoutError } from '../model/store.js';

/** The API's error catalogue: every error on /api/ is `{"error": "<message>"}` with one of these statuses. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = () => new ApiError(404, 'not found');
export const unauthorized = () => new ApiError(401, 'unauthorized');
export const unsupportedMediaType = () => new ApiError(415, 'content type must be application/json');
export const storageUnavailable = () => new ApiError(503, 'storage unavailable');
export const storageTimeout = () => new ApiError(504, 'storage timeout');
export const kafkaUnavailable = () => new ApiError(503, 'kafka unavailable');

/**
 * One classifier from any failure to the API answer; storage details never reach the client.
 * Returns the error to answer with and whether it is a storage failure (counted in metrics).
 */
export function classifyError(error: unknown): { apiError: ApiError; storage: boolean } {
  if (error instanceof ApiError) return { apiError: error, storage: false };
  if (error instanceof StorageTimeoutError) return { apiError: storageTimeout(), storage: true };
  if (error instanceof StorageError) return { apiError: storageUnavailable(), storage: true };
  return { apiError: new ApiError(500, 'internal error'), storage: false };
}
