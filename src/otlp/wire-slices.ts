/**
 * Where each decoded item's message lies in the request it came from, so that ingest can frame the
 * bus records from the original bytes instead of encoding the rows again (that re-encoding, with
 * its grouping by resource, was ~8 % of the all-in-one main thread). Traces and logs share the
 * shape: Data { 1: Resource* { 1: resource, 2: Scope* { 1: scope, 2: item* } } }, same tags.
 *
 * A consumer decodes a framed record to exactly the rows ingest decoded: every item keeps its own
 * bytes and the resource and scope it was read with. Only fields ingest's decoder skips (schema
 * URLs, scope attributes) may differ from a re-encoded record, and none of them reaches a row.
 */

import { at } from '../util/at.js';

const TAG_OUTER = 0x0a; // Data.resource_* = 1, Resource*.resource = 1, Scope*.scope = 1
const TAG_INNER = 0x12; // Resource*.scope_* = 2, Scope*.{spans,log_records} = 2

/** A byte range [start, end) of the request; start < 0 when the field was absent. */
interface Range {
  start: number;
  end: number;
}

/** One ScopeSpans / ScopeLogs: its scope message and the resource message of its parent. */
interface Envelope {
  resource: Range;
  scope: Range;
}

export class WireSlices {
  private readonly envelopes: Envelope[] = [];
  private readonly itemEnvelope: number[] = [];
  private readonly itemStart: number[] = [];
  private readonly itemEnd: number[] = [];
  /**
   * False when the request repeats a resource or scope field inside one message (protobuf merges
   * them; one slice could not carry both): the caller re-encodes the rows instead.
   */
  usable = true;

  constructor(readonly bytes: Uint8Array) {}

  /** Called at the start of a ResourceSpans / ResourceLogs; its resource range is filled in when read. */
  openResource(): Range {
    return { start: -1, end: -1 };
  }

  /** Records the resource field's content range (it may come before or after the scopes). */
  setResource(resource: Range, start: number, end: number): void {
    if (resource.start >= 0) this.usable = false;
    resource.start = start;
    resource.end = end;
  }

  /** Called at the start of a ScopeSpans / ScopeLogs; returns its envelope index. */
  openScope(resource: Range): number {
    this.envelopes.push({ resource, scope: { start: -1, end: -1 } });
    return this.envelopes.length - 1;
  }

  setScope(envelope: number, start: number, end: number): void {
    const scope = this.envelopes[envelope].scope;
    if (scope.start >= 0) this.usable = false;
    scope.start = start;
    scope.end = end;
  }

  /** The next item (span or log record), in decode order: its index is its row's index. */
  addItem(envelope: number, start: number, end: number): void {
    this.itemEnvelope.push(envelope);
    this.itemStart.push(start);
    this.itemEnd.push(end);
  }

  get items(): number {
    return this.itemStart.length;
  }

  /**
   * `TracesData` / `LogsData` bytes holding the items at `indices` (in that order within each
   * envelope), each under a copy of its own resource and scope.
   */
  frame(indices: readonly number[]): Buffer {
    const envelope = this.soleEnvelope(indices);
    if (envelope >= 0) return this.frameOne(envelope, indices);
    const groups = this.byEnvelope(indices);
    const innerBytes: number[] = [];
    let total = 0;
    for (const [envelope, members] of groups) {
      const { resource, scope } = at(this.envelopes, envelope);
      let inner = optionalFieldSize(scope);
      for (const index of members) inner += fieldSize(this.itemEnd[index] - this.itemStart[index]);
      innerBytes.push(inner);
      total += fieldSize(optionalFieldSize(resource) + fieldSize(inner));
    }
    const out = Buffer.allocUnsafe(total);
    let pos = 0;
    let group = 0;
    for (const [envelope, members] of groups) {
      const { resource, scope } = at(this.envelopes, envelope);
      const inner = at(innerBytes, group++);
      pos = writeHeader(out, pos, TAG_OUTER, optionalFieldSize(resource) + fieldSize(inner));
      pos = this.writeOptional(out, pos, resource);
      pos = writeHeader(out, pos, TAG_INNER, inner);
      pos = this.writeOptional(out, pos, scope);
      for (const index of members)
        pos = this.copy(out, writeHeader(out, pos, TAG_INNER, this.itemEnd[index] - this.itemStart[index]), this.itemStart[index], this.itemEnd[index]);
    }
    return out;
  }

  /** The one envelope holding every item of `indices` (almost always the case), or -1. */
  private soleEnvelope(indices: readonly number[]): number {
    if (indices.length === 0) return -1;
    const first = at(this.itemEnvelope, at(indices, 0));
    for (let i = 1; i < indices.length; i++) if (this.itemEnvelope[at(indices, i)] !== first) return -1;
    return first;
  }

  /** frame() for items of one envelope: the same bytes, without the grouping's arrays. */
  private frameOne(envelope: number, indices: readonly number[]): Buffer {
    const { resource, scope } = at(this.envelopes, envelope);
    let inner = optionalFieldSize(scope);
    for (const index of indices) inner += fieldSize(this.itemEnd[index]! - this.itemStart[index]!);
    const outerContent = optionalFieldSize(resource) + fieldSize(inner);
    const out = Buffer.allocUnsafe(fieldSize(outerContent));
    let pos = writeHeader(out, 0, TAG_OUTER, outerContent);
    pos = this.writeOptional(out, pos, resource);
    pos = writeHeader(out, pos, TAG_INNER, inner);
    pos = this.writeOptional(out, pos, scope);
    for (const index of indices) {
      const start = this.itemStart[index]!;
      const end = this.itemEnd[index]!;
      pos = this.copy(out, writeHeader(out, pos, TAG_INNER, end - start), start, end);
    }
    return out;
  }

  /** `indices` grouped by envelope, in order of first appearance (when more than one envelope holds them). */
  private byEnvelope(indices: readonly number[]): [envelope: number, members: readonly number[]][] {
    const groups = new Map<number, number[]>();
    for (const index of indices) {
      const envelope = at(this.itemEnvelope, index);
      const group = groups.get(envelope);
      if (group === undefined) groups.set(envelope, [index]);
      else group.push(index);
    }
    return [...groups];
  }

  private writeOptional(out: Buffer, pos: number, range: Range): number {
    if (range.start < 0) return pos;
    return this.copy(out, writeHeader(out, pos, TAG_OUTER, range.end - range.start), range.start, range.end);
  }

  private copy(out: Buffer, pos: number, start: number, end: number): number {
    out.set(this.bytes.subarray(start, end), pos);
    return pos + (end - start);
  }
}

function varintSize(value: number): number {
  let bytes = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    bytes++;
  }
  return bytes;
}

/** Bytes of a length-delimited field with a one-byte tag and `content` bytes. */
function fieldSize(content: number): number {
  return 1 + varintSize(content) + content;
}

function optionalFieldSize(range: Range): number {
  return range.start < 0 ? 0 : fieldSize(range.end - range.start);
}

function writeHeader(out: Buffer, pos: number, tag: number, length: number): number {
  out[pos++] = tag;
  while (length >= 0x80) {
    out[pos++] = (length & 0x7f) | 0x80;
    length = Math.floor(length / 128);
  }
  out[pos++] = length;
  return pos;
}
