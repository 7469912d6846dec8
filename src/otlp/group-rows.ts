import type { AttrPair } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';
import { serviceNameOf } from './service-name.js';

/** The fields the encoders group by. */
export interface GroupableRow {
  serviceName: string;
  resource: AttrPair[];
  scopeName: string;
  scopeVersion: string;
}

export interface ScopeGroup<Row> {
  name: string;
  version: string;
  rows: Row[];
}

export interface ResourceGroup<Row> {
  /** The resource as it will be encoded: it always yields the rows' serviceName on decode. */
  resource: AttrPair[];
  scopes: ScopeGroup<Row>[];
}

interface PendingResource<Row> {
  resource: AttrPair[];
  serviceName: string;
  scopesByKey: Map<string, ScopeGroup<Row>>;
  newestScope: ScopeGroup<Row> | undefined;
}

/**
 * Groups rows by resource (identical attributes and service) and then by scope, keeping first
 * appearance order. Rows from one decode share their resource array, so grouping by identity is
 * the fast path; content keys are computed only when several distinct arrays are present.
 */
export function groupRows<Row extends GroupableRow>(rows: Row[]): ResourceGroup<Row>[] {
  const byIdentity = new Map<AttrPair[], PendingResource<Row>[]>();
  const pending: PendingResource<Row>[] = [];
  for (const row of rows) {
    let candidates = byIdentity.get(row.resource);
    if (candidates === undefined) {
      candidates = [];
      byIdentity.set(row.resource, candidates);
    }
    let group: PendingResource<Row> | undefined;
    for (const candidate of candidates) {
      if (candidate.serviceName === row.serviceName) {
        group = candidate;
        break;
      }
    }
    if (group === undefined) {
      group = { resource: row.resource, serviceName: row.serviceName, scopesByKey: new Map(), newestScope: undefined };
      candidates.push(group);
      pending.push(group);
    }
    addToScope(group, row);
  }
  const merged = pending.length > 1 ? mergeEqualResources(pending) : pending;
  return merged.map((group) => ({
    resource: resourceYielding(group.resource, group.serviceName),
    scopes: [...group.scopesByKey.values()],
  }));
}

function addToScope<Row extends GroupableRow>(group: PendingResource<Row>, row: Row): void {
  // Rows of one scope usually arrive together: try the newest scope before building a key.
  const newest = group.newestScope;
  if (newest !== undefined && newest.name === row.scopeName && newest.version === row.scopeVersion) {
    newest.rows.push(row);
    return;
  }
  // Length-prefixed so that no two (name, version) pairs share a key.
  const key = `${row.scopeName.length}:${row.scopeName}${row.scopeVersion}`;
  let scope = group.scopesByKey.get(key);
  if (scope === undefined) {
    scope = { name: row.scopeName, version: row.scopeVersion, rows: [row] };
    group.scopesByKey.set(key, scope);
  } else {
    scope.rows.push(row);
  }
  group.newestScope = scope;
}

function mergeEqualResources<Row extends GroupableRow>(groups: PendingResource<Row>[]): PendingResource<Row>[] {
  const byContent = new Map<string, PendingResource<Row>>();
  for (const group of groups) {
    const key = JSON.stringify([group.serviceName, group.resource]);
    const existing = byContent.get(key);
    if (existing === undefined) {
      byContent.set(key, group);
      continue;
    }
    for (const scope of group.scopesByKey.values()) {
      for (const row of scope.rows) addToScope(existing, row);
    }
  }
  return [...byContent.values()];
}

/**
 * The resource to encode: as is when its service.name already gives `serviceName`, else with
 * service.name replaced, so that a decode returns the row's service (hand-built rows may disagree).
 */
function resourceYielding(resource: AttrPair[], serviceName: string): AttrPair[] {
  if (serviceNameOf(resource) === serviceName) return resource;
  const fixed = resource.filter((pair) => pair[0] !== 'service.name');
  if (serviceName !== UNKNOWN_SERVICE) fixed.push(['service.name', serviceName]);
  return fixed;
}
