import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError, storageTimeout } from './errors.js';

/** How long past the database limit a request may still run before the API answers 504 itself. */
export const REQUEST_GRACE_SECS = 5;

const controllers = new WeakMap<FastifyRequest, AbortController>();

/**
 * Per-request bounds of the contract: every read carries `query_timeout_secs` as its database
 * limit, and a request still running 5 s after that limit is answered 504 and its reads aborted.
 * `query_timeout_secs = 0` turns both off.
 */
export function createRequestContext(queryTimeoutSecs: number) {
  return {
    queryTimeoutSecs,
    /** Arms the request's deadline; call from an onRequest hook for /api/ routes. */
    arm(request: FastifyRequest, reply: FastifyReply): void {
      const controller = new AbortController();
      controllers.set(request, controller);
      if (queryTimeoutSecs <= 0) return;
      const timer = setTimeout(
        () => {
          controller.abort();
          if (!reply.sent) void sendError(reply, storageTimeout());
        },
        (queryTimeoutSecs + REQUEST_GRACE_SECS) * 1000,
      );
      reply.raw.once('close', () => clearTimeout(timer));
    },
    signal(request: FastifyRequest): AbortSignal | undefined {
      return controllers.get(request)?.signal;
    },
  };
}

export type RequestContext = ReturnType<typeof createRequestContext>;
