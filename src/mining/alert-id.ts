/** Alert ids: first 16 hex characters of xxh3 over kind, template id and start (zero-byte separated). */
import type { AlertKind } from '../config/settings.js';
import { xxh3 } from '../util/xxhash.js';

/**
 * `start` is the start minute (Unix minutes) for `new` and `spike`, the last hit (Unix ns) for
 * `silence`; the same alert therefore gets the same id on every tick and in every process.
 */
export function alertId(kind: AlertKind, templateId: string, start: number | bigint): string {
  return xxh3.xxh64(`${kind}\0${templateId}\0${start.toString()}`).toString(16).padStart(16, '0').slice(0, 16);
}
