/**
 * One retry rule for everything that writes to a store or a remote: exponential backoff from a
 * first delay, capped, with an error type that says "retrying cannot fix this".
 */

/** An error retrying cannot fix (a row that can never be encoded): retry loops stop at it at once. */
export class PermanentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

export function isPermanentError(error: unknown): boolean {
  return error instanceof PermanentError;
}

export interface Backoff {
  /** Delay after the first failure; doubled after each further one. */
  firstMs: number;
  maxMs: number;
}

/**
 * Backoff of the writers to the store (writer, assembler, logminer): 250 ms, 500 ms, ... 10 s.
 * Short enough that a store back within seconds loses little time, long enough that a store down
 * for minutes is asked a few times a minute.
 */
export const STORE_WRITE_BACKOFF: Backoff = { firstMs: 250, maxMs: 10_000 };

/** The delay after `failedAttempts` failures (1 for the first): first, 2 x first, 4 x first, ... capped. */
export function backoffDelayMs(failedAttempts: number, backoff: Backoff): number {
  const doublings = Math.min(Math.max(0, failedAttempts - 1), 30);
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** doublings);
}

export interface RetryOptions {
  backoff: Backoff;
  /** True for an error no retry can fix; the default is a PermanentError. */
  isPermanent?: (error: unknown) => boolean;
  /**
   * When, on the `nowMs` clock, a failure becomes final (undefined: never). Read after every
   * failure, so a close() that sets it while the attempts run ends them at the next failure.
   */
  deadlineMs?: () => number | undefined;
  nowMs?: () => number;
  sleep?: (delayMs: number) => Promise<void>;
  /** Told of every failure, with its attempt number (1 for the first). */
  onFailure?: (error: unknown, attempt: number) => void;
}

/**
 * Runs `attempt` until it resolves and returns its result. After a failure it waits the backoff
 * delay and tries again, unless the error is permanent or the deadline has passed: then it
 * rejects with that error.
 */
export async function retryWithBackoff<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const isPermanent = options.isPermanent ?? isPermanentError;
  const nowMs = options.nowMs ?? Date.now;
  const sleep = options.sleep ?? sleepMs;
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      options.onFailure?.(error, attemptNumber);
      if (isPermanent(error)) throw error;
      const deadlineMs = options.deadlineMs?.();
      if (deadlineMs !== undefined && nowMs() >= deadlineMs) throw error;
      await sleep(backoffDelayMs(attemptNumber, options.backoff));
    }
  }
}

function sleepMs(delayMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}
