/** Stable template ids: xxh3-64 of the service and the template's first masked token signature. */
import { xxh3 } from '../util/xxhash.js';

/**
 * The id is fixed at creation from the first line's masked tokens, so it survives the template
 * text generalizing to wildcards, and it is the same in every process for the same input order.
 * `salt` disambiguates the rare case of two templates of one service created from the same
 * signature (possible when a line no longer fits its first template after generalization).
 */
export function templateId(service: string, signature: string, salt = 0): string {
  const key = salt === 0 ? `${service}\0${signature}` : `${service}\0${signature}\0${salt}`;
  return xxh3.xxh64(key).toString();
}

/** The id of a service's overflow template (lines beyond max_clusters_per_service). */
export function overflowTemplateId(service: string): string {
  return xxh3.xxh64(`${service}\0\0overflow`).toString();
}
