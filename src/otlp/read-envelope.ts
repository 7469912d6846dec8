import type { AttrPair } from '../model/signals.js';
import { readKeyValue } from './any-value.js';
import { fieldMask, type ProtoReader } from './proto-reader.js';

// resource.proto Resource: attributes = 1.
const TAG_RESOURCE_ATTRIBUTES = 0x0a;
const RESOURCE_FIELDS = fieldMask(1);
// common.proto InstrumentationScope: name = 1, version = 2 (attributes = 3 are not kept).
const TAG_SCOPE_NAME = 0x0a;
const TAG_SCOPE_VERSION = 0x12;
const SCOPE_FIELDS = fieldMask(1, 2);

/** The kept fields of an InstrumentationScope. */
export interface ScopeFields {
  name: string;
  version: string;
}

/** Appends the attributes of the Resource message in [r.pos, end) to `into` (a repeated resource merges). */
export function readResource(r: ProtoReader, end: number, into: AttrPair[]): void {
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_RESOURCE_ATTRIBUTES) into.push(readKeyValue(r, r.lengthEnd(end), 0));
    else r.skipUnknown(tag, end, RESOURCE_FIELDS);
  }
}

/** Reads the InstrumentationScope message in [r.pos, end) into `into`. */
export function readScope(r: ProtoReader, end: number, into: ScopeFields): void {
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_SCOPE_NAME) into.name = r.string(end);
    else if (tag === TAG_SCOPE_VERSION) into.version = r.string(end);
    else r.skipUnknown(tag, end, SCOPE_FIELDS);
  }
}
