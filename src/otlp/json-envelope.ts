import type { AttrPair } from '../model/signals.js';
import { OtlpDecodeError } from './errors.js';
import { jsonAttributes } from './json-any-value.js';
import { jsonArray, jsonObject, jsonString, type JsonObject } from './json-fields.js';
import type { ScopeFields } from './read-envelope.js';
import { serviceNameOf } from './service-name.js';

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

/** The field names of one signal's envelope, and the labels its errors use, made once per signal. */
export interface JsonEnvelopeNames {
  resources: string;
  scopes: string;
  items: string;
  resourceItem: string;
  scopeItem: string;
}

/** resourceSpans / scopeSpans / spans, resourceLogs / scopeLogs / logRecords. */
export function jsonEnvelopeNames(resources: string, scopes: string, items: string): JsonEnvelopeNames {
  return { resources, scopes, items, resourceItem: `${resources} item`, scopeItem: `${scopes} item` };
}

/**
 * The rows of a parsed OTLP/JSON request, one per item, read by `readItem`; the rows of one
 * resource share its attributes array. Throws OtlpDecodeError on a value of the wrong type.
 */
export function decodeJsonEnvelopes<Row>(
  value: unknown,
  names: JsonEnvelopeNames,
  readItem: (item: unknown, resource: AttrPair[], serviceName: string, scope: ScopeFields) => Row,
): Row[] {
  const rows: Row[] = [];
  for (const resourceItem of jsonArray(jsonRoot(value)[names.resources], names.resources)) {
    const resourceItems = jsonObject(resourceItem, names.resourceItem);
    if (resourceItems === null) throw new OtlpDecodeError(`${names.resourceItem} must be an object`);
    const resource = jsonResource(resourceItems.resource);
    const serviceName = serviceNameOf(resource);
    for (const scopeItem of jsonArray(resourceItems[names.scopes], names.scopes)) {
      const scopeItems = jsonObject(scopeItem, names.scopeItem);
      if (scopeItems === null) throw new OtlpDecodeError(`${names.scopeItem} must be an object`);
      const scope = jsonScope(scopeItems.scope);
      for (const item of jsonArray(scopeItems[names.items], names.items)) rows.push(readItem(item, resource, serviceName, scope));
    }
  }
  return rows;
}
