import type { AttrPair } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';

/** The resource's `service.name` (last occurrence wins, as in a map) when a non-empty string, else 'unknown_service'. */
export function serviceNameOf(resource: AttrPair[]): string {
  for (let i = resource.length - 1; i >= 0; i--) {
    const pair = resource[i];
    if (pair[0] === 'service.name') {
      const value = pair[1];
      return typeof value === 'string' && value !== '' ? value : UNKNOWN_SERVICE;
    }
  }
  return UNKNOWN_SERVICE;
}
