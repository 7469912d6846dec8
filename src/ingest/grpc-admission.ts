import * as grpc from '@grpc/grpc-js';
import type { InFlightBudget, InFlightLease } from './in-flight-budget.js';
import { heldBytesFor } from './in-flight-estimate.js';
import type { IngestMetrics } from './metrics.js';
import { RETRY_AFTER_SECS, retryMessage, type RetryReason } from './refusal.js';
import { encodeRpcStatus } from './rpc-status.js';

/**
 * What a gRPC export reserves when it starts, before its message is read and its size known: the
 * held bytes of a typical export (128 KiB on the wire, some 500 spans). Resized to the real size
 * once the message is in.
 */
export const GRPC_FIRST_BYTES = heldBytesFor(128 * 1024);

/** OTLP/gRPC's throttling answer for a bound reached: UNAVAILABLE with a google.rpc.RetryInfo. */
export function retryLaterStatus(reason: RetryReason): grpc.StatusObject {
  return unavailableWithRetryInfo(retryMessage(reason));
}

/**
 * UNAVAILABLE with a google.rpc.RetryInfo of RETRY_AFTER_SECS in grpc-status-details-bin: every
 * "retry later" (a bound, a full bus, a stop, an unreachable broker) tells the exporter when to
 * retry, as HTTP's Retry-After does.
 */
export function unavailableWithRetryInfo(details: string): grpc.StatusObject {
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', encodeRpcStatus(grpc.status.UNAVAILABLE, details, RETRY_AFTER_SECS));
  return { code: grpc.status.UNAVAILABLE, details, metadata };
}

/**
 * Admits each call against the in-flight budget when its headers arrive, before grpc-js reads its
 * message (the stream stays paused until then, so a refused call's message is never buffered beyond
 * HTTP/2's flow-control window). Once the message is in, the lease is resized to its real size.
 * The handler claims the lease by the message and releases it once the export is acknowledged or
 * refused; a call cancelled before that gives it back here.
 */
export function createGrpcAdmission(budget: InFlightBudget, metrics: IngestMetrics) {
  const claimable = new WeakMap<Buffer, Admitted>();

  function refuse(call: grpc.ServerInterceptingCallInterface, reason: RetryReason): void {
    metrics.busy.inc({ transport: 'grpc', reason });
    call.sendStatus(retryLaterStatus(reason));
  }

  const interceptor: grpc.ServerInterceptor = (_method, call) => {
    let admitted: Admitted | undefined;
    let cancelled = false;
    // A lease not claimed by a handler is released here; a claimed one by the handler, once acknowledged.
    const giveBack = () => {
      if (admitted !== undefined && !admitted.claimed) admitted.lease.release();
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            void budget.acquire(GRPC_FIRST_BYTES).then((granted) => {
              if (typeof granted === 'string') return refuse(call, granted);
              admitted = { lease: granted, claimed: false };
              if (cancelled) return giveBack();
              nextMetadata(metadata);
            });
          },
          onReceiveMessage: (message: Buffer, nextMessage) => {
            const current = admitted;
            if (current === undefined) return;
            void current.lease.resize(heldBytesFor(message.length)).then((refusal) => {
              if (refusal !== null) {
                giveBack();
                return refuse(call, refusal);
              }
              if (cancelled) return giveBack();
              claimable.set(message, current);
              nextMessage(message);
            });
          },
          onCancel: () => {
            cancelled = true;
            giveBack();
          },
        });
      },
    });
  };

  return {
    interceptor,
    /** The lease admitting this message, now the handler's to release once the export is answered. */
    claim(message: Buffer): InFlightLease | undefined {
      const admitted = claimable.get(message);
      if (admitted === undefined) return undefined;
      claimable.delete(message);
      admitted.claimed = true;
      return admitted.lease;
    },
  };
}

interface Admitted {
  lease: InFlightLease;
  claimed: boolean;
}
