import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Toml from 'smol-toml';
import { ConfigError } from './config-error.js';

/** Where a setting's raw value came from: a typed TOML value, or an environment string to convert. */
export type RawSetting = { origin: 'file'; value: unknown } | { origin: 'env'; text: string };

export type Table = Record<string, unknown>;

const ENV_PREFIX = 'SVC__';
const ENV_SEPARATOR = '__';

/** Reads and parses the TOML file named by SVC_CONFIG; no variable (or an empty one) means no file. */
export function readConfigFile(env: NodeJS.ProcessEnv): Table {
  const path = env.SVC_CONFIG;
  if (path === undefined || path === '') return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`SVC_CONFIG: cannot read ${path}: ${(error as Error).message}`);
  }
  // Loaded only when there is a file: the parser is ~15 ms of a start (svc templates, svc mcp).
  const { parse, TomlError } = createRequire(import.meta.url)('smol-toml') as typeof Toml;
  try {
    // 'drop' keeps a "__proto__" key in the file from reaching object prototypes.
    return parse(text, { unsafeKeyBehaviour: 'drop' });
  } catch (error) {
    if (error instanceof TomlError) throw new ConfigError(`SVC_CONFIG: ${path} is not valid TOML: ${error.message}`);
    throw error;
  }
}

/**
 * Maps SVC__ variables to dotted setting paths: SVC__KAFKA__BROKERS -> kafka.brokers,
 * SVC__HTTP_ADDR -> http_addr (single underscores stay inside a name).
 */
export function envOverrides(env: NodeJS.ProcessEnv): Map<string, string> {
  const overrides = new Map<string, string>();
  for (const [name, text] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || text === undefined) continue;
    const parts = name.slice(ENV_PREFIX.length).split(ENV_SEPARATOR);
    // An empty part (SVC__KAFKA____X) names no setting; unknown names never fail.
    if (parts.some((part) => part === '')) continue;
    overrides.set(parts.map((part) => part.toLowerCase()).join('.'), text);
  }
  return overrides;
}

/** A TOML table: smol-toml builds them without a prototype; dates and arrays are not tables. */
export function isTable(value: unknown): value is Table {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}

/** The file and the environment seen together; the environment wins. */
export class SettingSource {
  constructor(
    private readonly file: Table,
    private readonly env: ReadonlyMap<string, string>,
  ) {}

  lookup(path: string): RawSetting | undefined {
    const text = this.env.get(path);
    if (text !== undefined) return { origin: 'env', text };
    const value = this.fileValue(path);
    return value === undefined ? undefined : { origin: 'file', value };
  }

  /** The raw file value at a dotted path; undefined when a part is missing or not a table. */
  fileValue(path: string): unknown {
    let node: unknown = this.file;
    for (const part of path.split('.')) {
      if (!isTable(node) || !Object.hasOwn(node, part)) return undefined;
      node = node[part];
    }
    return node;
  }

  /** True when some environment variable names a key below `path` (SVC__NOTIFIER__TARGETS__0__URL). */
  hasEnvBelow(path: string): boolean {
    const prefix = `${path}.`;
    for (const key of this.env.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }
}
