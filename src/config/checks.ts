import { quote } from './describe-value.js';
import { parseListenAddr } from './listen-addr.js';
import type { Check } from './reader.js';

/** Integers that count or time something; 0 would stall or disable a loop nobody asked to disable. */
export const positiveInt: Check<number> = (value, path) => (value >= 1 ? null : `${path} must be a positive integer`);

export const positive: Check<number> = (value, path) => (value > 0 ? null : `${path} must be above 0`);

export const nonNegative: Check<number> = (value, path) => (value >= 0 ? null : `${path} must be 0 or more`);

/** An inclusive range, written the way the contract writes one (`1..=15`). */
export function within(min: number, max: number): Check<number> {
  return (value, path) => (value >= min && value <= max ? null : `${path} must be within ${min}..=${max}`);
}

export const nonEmpty: Check<string> = (value, path) => (value.trim() !== '' ? null : `${path} must not be empty`);

/** Kafka's own rule for topic names; the in-process bus keeps it so a config works in both modes. */
export const topicName: Check<string> = (value, path) =>
  /^[A-Za-z0-9._-]{1,249}$/.test(value) ? null : `${path} must be a topic name of 1 to 249 letters, digits, '.', '_' or '-'`;

/** The database name is written into DDL, so only a plain identifier is safe. */
export const identifier: Check<string> = (value, path) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) ? null : `${path} must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)`;

export const listenAddress: Check<string> = (value, path) => {
  try {
    parseListenAddr(value);
    return null;
  } catch {
    return `${path} must be host:port with a port within 0..=65535, got ${quote(value)}`;
  }
};

/** Never echoes the value: URLs may carry webhook secrets. */
export const httpUrl: Check<string> = (value, path) => (isHttpUrl(value) ? null : `${path} must be an http:// or https:// URL`);

/** Empty turns a link off; anything else must be a URL. */
export const optionalHttpUrl: Check<string> = (value, path) => (value === '' ? null : httpUrl(value, path));

/** The placeholder a link template's trace id replaces, as typed or as Grafana's copied URLs encode it. */
export const TRACE_ID_PLACEHOLDER = /\{trace_id\}|%7Btrace_id%7D/gi;

/** Empty turns the link off; anything else must be an http(s) URL with a `{trace_id}` placeholder. */
export const optionalTraceUrlTemplate: Check<string> = (value, path) => {
  if (value === '') return null;
  if (value.match(TRACE_ID_PLACEHOLDER) === null) return `${path} must contain {trace_id} where the trace id goes`;
  return httpUrl(value.replace(TRACE_ID_PLACEHOLDER, '0'), path);
};

export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}
