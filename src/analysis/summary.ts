/** The one-sentence summaries of the three story forms. */
import type { SpanRow } from '../model/signals.js';
import { firstStringAttr, stringAttr } from './attrs.js';
import { humanDuration } from './human-duration.js';

/** A summary quotes at most this much of a message: it must stay one readable sentence. */
const MAX_QUOTED_CHARS = 200;

/**
 * Peer attributes in preference order: `peer.service` is the name the user gave the remote service;
 * `server.address` (current conventions) and `net.peer.name` (older ones) are host names.
 */
export const PEER_ATTRS = ['peer.service', 'server.address', 'net.peer.name'] as const;

/** Error form: the root-cause service and span with the error message. */
export function errorSummary(rc: SpanRow, message: string): string {
  return `${rc.serviceName} failed in "${rc.name}": ${quote(message)}`;
}

/** Client-without-children form: the caller could not reach the peer. */
export function unreachableSummary(rc: SpanRow, message: string): string {
  return `${rc.serviceName} could not reach ${peerOf(rc)} in "${rc.name}": ${quote(message)}`;
}

export interface SlowSummaryInput {
  endpointName: string;
  endpointService: string;
  durationNs: bigint;
  baselineP99Ns: bigint;
  holder: SpanRow;
  holderSelfNs: bigint;
}

/** Slow form: the endpoint, its duration against the baseline p99, and where the time went. */
export function slowSummary(input: SlowSummaryInput): string {
  const { holder } = input;
  return (
    `${input.endpointName} (${input.endpointService}) took ${humanDuration(input.durationNs)} ` +
    `against a p99 of ${humanDuration(input.baselineP99Ns)}; ` +
    `${holder.serviceName} "${holder.name}" held ${humanDuration(input.holderSelfNs)} of the critical path`
  );
}

/** The remote side of a client span, with its port when the address attribute names a host. */
function peerOf(span: SpanRow): string {
  const service = stringAttr(span.attrs, 'peer.service');
  if (service !== undefined) return service;
  const host = firstStringAttr(span.attrs, PEER_ATTRS);
  if (host === undefined) return 'its peer';
  const port = span.attrs.find(([k]) => k === 'server.port' || k === 'net.peer.port')?.[1];
  return typeof port === 'number' || (typeof port === 'string' && port !== '') ? `${host}:${port}` : host;
}

/** The message's first line, shortened, so that a stack trace does not become the summary. */
function quote(message: string): string {
  const firstLine = (message.split('\n', 1)[0] ?? '').trim();
  const line = firstLine === '' ? message.trim() : firstLine;
  return line.length > MAX_QUOTED_CHARS ? `${line.slice(0, MAX_QUOTED_CHARS - 1)}…` : line;
}
