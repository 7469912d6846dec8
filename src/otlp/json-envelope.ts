import type { AttrPair } from '../model/signals.js';
import { OtlpDecodeError } from './errors.js';
import { jsonAttributes } from './json-any-value.js';
import { jsonObject, jsonString, type JsonObject } from './json-fields.js';
import type { ScopeFields } from './read-envelope.js';

/** The attributes of an OTLP/JSON `resource` object (empty when absent). */
export function jsonResource(value: unknown): AttrPair[] {
  const resource = jsonObject(value, 'resource');
  return resource === null ? [] : jsonAttributes(resource.attributes, []);
}

/** The kept fields of an OTLP/JSON `scope` object. */
export function jsonScope(value: unknown): ScopeFields {
  const scope = jsonObject(value, 'scope');
  if (scope === null) return { name: '', version: '' };
  return { name: jsonString(scope.name, 'scope.name'), version: jsonString(scope.version, 'scope.version') };
}

/** The top-level object of an OTLP/JSON request. */
export function jsonRoot(value: unknown): JsonObject {
  const root = jsonObject(value, 'request');
  if (root === null) throw new OtlpDecodeError('request must be an object');
  return root;
}
