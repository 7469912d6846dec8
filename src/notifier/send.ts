/**
 * One HTTP attempt to a target, returned as a result (DESIGN.md §4), never thrown. Results carry
 * only the status or an error class and code: fetch errors and their causes name the host (and
 * parse errors the whole URL), so nothing from them may reach a log line.
 */

import { retryAfterMs } from './backoff.js';

export type AttemptResult =
  | { kind: 'ok'; status: number }
  | { kind: 'retryable'; reason: string; status?: number; retryAfterMs?: number }
  | { kind: 'failed'; reason: string; status?: number };

export interface SendOptions {
  fetch: typeof fetch;
  url: string;
  body: string;
  timeoutMs: number;
  nowMs: () => number;
}

/** POSTs `body` once; 2xx ok; 408, 429 and 5xx retryable; other 3xx/4xx permanent; network errors and timeouts retryable. */
export async function sendOnce(options: SendOptions): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: options.body,
      // A redirect is a permanent answer for a webhook; following it would POST elsewhere.
      redirect: 'manual',
      signal: timeout,
    });
  } catch (error) {
    if (timeout.aborted) return { kind: 'retryable', reason: 'timeout' };
    return { kind: 'retryable', reason: safeErrorReason(error) };
  }
  // The body is never read into logs; draining it frees the connection. A body cut short by the
  // timeout after the status arrived does not change the answer.
  await response.arrayBuffer().catch(() => undefined);
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: 'ok', status };
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retryable', reason: `http ${status}`, status, retryAfterMs: retryAfterMs(response.headers.get('retry-after'), options.nowMs()) };
  }
  return { kind: 'failed', reason: `http ${status}`, status };
}

/** An error class and system code (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET), never a message. */
export function safeErrorReason(error: unknown): string {
  const name = error instanceof Error && /^[A-Za-z]+$/.test(error.name) ? error.name : 'Error';
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,40}$/.test(code) ? `${name} ${code}` : name;
}
