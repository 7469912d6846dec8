/**
 * Identifiers (database, table and column names) are the only SQL text the store builds from
 * values, so they are checked against a strict pattern before they reach a statement.
 */

import { StorageError } from '../model/store.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** True when `name` is a plain ClickHouse identifier that needs no quoting. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Throws a StorageError unless `name` is a plain identifier; `what` names it in the message. */
export function assertIdentifier(name: string, what: string): string {
  if (!isIdentifier(name)) {
    throw new StorageError(`${what} must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*, at most 64 characters)`);
  }
  return name;
}
