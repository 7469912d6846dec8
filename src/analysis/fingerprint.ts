/** The story group key: xxh3-64 over six zero-terminated parts, as an unsigned decimal string. */
import { xxh3 } from '../util/xxhash.js';
import { maskMessage } from './mask.js';
import type { StoryKind } from './types.js';

export interface FingerprintParts {
  kind: StoryKind;
  endpointService: string;
  endpointName: string;
  rcService: string;
  rcSpanName: string;
  /** The unmasked root-cause message; a slow story's is `slow`. */
  rcMessage: string;
}

/** The fingerprint of a story; the message is masked here so callers cannot forget it. */
export function fingerprint(parts: FingerprintParts): string {
  const message = parts.kind === 'slow' ? 'slow' : maskMessage(parts.rcMessage);
  const fields = [parts.kind, parts.endpointService, parts.endpointName, parts.rcService, parts.rcSpanName, message];
  const buffers: Buffer[] = [];
  const terminator = Buffer.alloc(1);
  for (const field of fields) buffers.push(Buffer.from(field, 'utf8'), terminator);
  return xxh3.xxh64(Buffer.concat(buffers)).toString();
}
