/**
 * Endpoint derivation: the root span's service and name; a name without `/` gets the request path
 * appended, taken from the span's route or URL attribute and masked so that ids do not split one
 * endpoint into thousands.
 */
import type { SpanRow } from '../model/signals.js';
import { firstStringAttr } from './attrs.js';
import { MASK } from './mask.js';

/**
 * Preference order: `http.route` is already a template (`/users/{id}`), the lowest cardinality;
 * then `url.path` (current semantic conventions) and `http.target` (older ones), which hold a path;
 * last the full URLs `url.full` and `http.url`, from which scheme and host are stripped.
 */
export const ENDPOINT_PATH_ATTRS = ['http.route', 'url.path', 'http.target', 'url.full', 'http.url'] as const;

/** A segment longer than this is an id or token, not a resource name. */
const MAX_PLAIN_SEGMENT_CHARS = 24;

export interface Endpoint {
  service: string;
  name: string;
}

/** The endpoint of a trace whose root span is `root`. */
export function deriveEndpoint(root: SpanRow): Endpoint {
  if (root.name.includes('/')) return { service: root.serviceName, name: root.name };
  const raw = firstStringAttr(root.attrs, ENDPOINT_PATH_ATTRS);
  if (raw === undefined) return { service: root.serviceName, name: root.name };
  const path = maskPath(pathOf(raw));
  return { service: root.serviceName, name: root.name === '' ? path : `${root.name} ${path}` };
}

/** The path part of a path or URL: scheme and authority stripped, query and fragment removed. */
export function pathOf(value: string): string {
  let rest = value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (scheme !== null) rest = rest.slice(scheme[0].length);
  const cut = rest.search(/[?#]/);
  if (cut !== -1) rest = rest.slice(0, cut);
  return rest === '' ? '/' : rest;
}

/** Replaces every segment that contains a digit or is longer than 24 characters with `<*>`. */
export function maskPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (/[0-9]/.test(segment) || segment.length > MAX_PLAIN_SEGMENT_CHARS ? MASK : segment))
    .join('/');
}
