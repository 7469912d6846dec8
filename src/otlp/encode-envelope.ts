import type { AttrPair } from '../model/signals.js';
import { sizeAttributes, sizeStringField, writeAttributes } from './encode-any-value.js';
import { TAG_RESOURCE, TAG_RESOURCE_ITEMS, TAG_SCOPE, TAG_SCOPE_ITEMS } from './envelope-tags.js';
import { groupRows, type GroupableRow } from './group-rows.js';
import { fieldSize, type ProtoWriter } from './proto-writer.js';

// resource.proto Resource: attributes = 1. common.proto InstrumentationScope: name = 1, version = 2.
const TAG_RESOURCE_ATTRIBUTES = 0x0a;
const TAG_SCOPE_NAME = 0x0a;
const TAG_SCOPE_VERSION = 0x12;

/** Bytes of the resource field with tag (0 when the resource has no attributes and is omitted). */
export function sizeResourceField(w: ProtoWriter, resource: AttrPair[]): number {
  if (resource.length === 0) return 0;
  const slot = w.reserve();
  const content = sizeAttributes(w, resource);
  w.setPlanned(slot, content);
  return fieldSize(content);
}

export function writeResourceField(w: ProtoWriter, tag: number, resource: AttrPair[]): void {
  if (resource.length === 0) return;
  w.messageHeader(tag, w.next());
  writeAttributes(w, TAG_RESOURCE_ATTRIBUTES, resource);
}

/** Bytes of the InstrumentationScope field with tag (0 when name and version are empty). */
export function sizeScopeField(w: ProtoWriter, name: string, version: string): number {
  if (name === '' && version === '') return 0;
  const slot = w.reserve();
  let content = 0;
  if (name !== '') content += sizeStringField(w, name);
  if (version !== '') content += sizeStringField(w, version);
  w.setPlanned(slot, content);
  return fieldSize(content);
}

export function writeScopeField(w: ProtoWriter, tag: number, name: string, version: string): void {
  if (name === '' && version === '') return;
  w.messageHeader(tag, w.next());
  if (name !== '') w.stringField(TAG_SCOPE_NAME, name);
  if (version !== '') w.stringField(TAG_SCOPE_VERSION, version);
}

/**
 * Encodes rows of one signal as its Data message, grouped by resource and scope, in two passes over
 * `w`: the first plans every message's size (`sizeItem` plans one item and returns its content
 * bytes), the second writes (`writeItem` writes one item with its own field header).
 */
export function encodeEnvelopes<Row extends GroupableRow>(
  w: ProtoWriter,
  rows: Row[],
  sizeItem: (w: ProtoWriter, row: Row) => number,
  writeItem: (w: ProtoWriter, row: Row) => void,
): Buffer {
  const groups = groupRows(rows);
  w.resetPlan();
  let total = 0;
  for (const group of groups) {
    const resourceSlot = w.reserve();
    let resourceItems = sizeResourceField(w, group.resource);
    for (const scope of group.scopes) {
      const scopeSlot = w.reserve();
      let scopeItems = sizeScopeField(w, scope.name, scope.version);
      for (const row of scope.rows) scopeItems += fieldSize(sizeItem(w, row));
      w.setPlanned(scopeSlot, scopeItems);
      resourceItems += fieldSize(scopeItems);
    }
    w.setPlanned(resourceSlot, resourceItems);
    total += fieldSize(resourceItems);
  }
  w.startWrite(total);
  for (const group of groups) {
    w.messageHeader(TAG_RESOURCE_ITEMS, w.next());
    writeResourceField(w, TAG_RESOURCE, group.resource);
    for (const scope of group.scopes) {
      w.messageHeader(TAG_SCOPE_ITEMS, w.next());
      writeScopeField(w, TAG_SCOPE, scope.name, scope.version);
      for (const row of scope.rows) writeItem(w, row);
    }
  }
  return w.finish();
}
