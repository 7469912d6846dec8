import { ConfigError } from './config-error.js';
import { describeValue, quote } from './describe-value.js';
import { isTable, type RawSetting, type SettingSource, type Table } from './sources.js';

/** A rule on a converted value: null when it holds, else the whole message naming the setting. */
export type Check<T> = (value: T, path: string) => string | null;

export interface ListOptions {
  /** Keeps the value out of the message: notifier target URLs must never be printed. */
  hideValue?: boolean;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads typed settings from the file and the environment. A strict reader throws a ConfigError on a
 * bad value; a lenient one (for sections the component does not use) falls back to the default,
 * because a component ignores sections it does not use.
 */
export class SettingReader {
  constructor(
    private readonly source: SettingSource,
    readonly strict: boolean,
  ) {}

  string(path: string, fallback: string, ...checks: Check<string>[]): string {
    return this.read(path, fallback, checks, (raw) => {
      if (raw.origin === 'env') return raw.text;
      if (typeof raw.value === 'string') return raw.value;
      throw typeError(path, 'a string', raw.value);
    });
  }

  int(path: string, fallback: number, ...checks: Check<number>[]): number {
    return this.read(path, fallback, checks, (raw) => {
      const value = raw.origin === 'env' && INTEGER_TEXT.test(raw.text.trim()) ? Number(raw.text.trim()) : rawNumber(raw);
      if (Number.isSafeInteger(value)) return value as number;
      throw typeError(path, 'an integer', raw.origin === 'env' ? raw.text : raw.value);
    });
  }

  float(path: string, fallback: number, ...checks: Check<number>[]): number {
    return this.read(path, fallback, checks, (raw) => {
      const value = raw.origin === 'env' && FLOAT_TEXT.test(raw.text.trim()) ? Number(raw.text.trim()) : rawNumber(raw);
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw typeError(path, 'a number', raw.origin === 'env' ? raw.text : raw.value);
    });
  }

  bool(path: string, fallback: boolean): boolean {
    return this.read(path, fallback, [], (raw) => {
      if (raw.origin === 'file' && typeof raw.value === 'boolean') return raw.value;
      const text = raw.origin === 'env' ? raw.text.trim().toLowerCase() : '';
      if (text === 'true' || text === 'false') return text === 'true';
      throw typeError(path, 'true or false', raw.origin === 'env' ? raw.text : raw.value);
    });
  }

  /** A string limited to a few words; `message` is the contract's wording for anything else. */
  oneOf<T extends string>(path: string, allowed: readonly T[], fallback: T, message: string): T {
    const isAllowed = (value: string): value is T => (allowed as readonly string[]).includes(value);
    const value = this.string(path, fallback, (text) => (isAllowed(text) ? null : message));
    return isAllowed(value) ? value : fallback;
  }

  /** A list of strings; lists are set in the file only. */
  stringList(path: string, fallback: readonly string[], ...itemChecks: Check<string>[]): string[] {
    return this.list(path, fallback, {}, (item, itemPath) => {
      if (typeof item !== 'string') throw typeError(itemPath, 'a string', item);
      for (const check of itemChecks) fail(check(item, itemPath));
      return item;
    });
  }

  /** A list of tables ([[section.key]] in the file); each item is parsed by `parseItem`. */
  tableList<T>(path: string, fallback: readonly T[], options: ListOptions, parseItem: (item: Table, itemPath: string) => T): T[] {
    return this.list(path, fallback, options, (item, itemPath) => {
      if (!isTable(item)) throw new ConfigError(`${itemPath} must be a table, got ${describeValue(item)}`);
      return parseItem(item, itemPath);
    });
  }

  private list<T>(path: string, fallback: readonly T[], options: ListOptions, parseItem: (item: unknown, itemPath: string) => T): T[] {
    const fresh = (): T[] => structuredClone([...fallback]);
    return this.guard(fresh, () => {
      const raw = this.source.lookup(path);
      if (raw === undefined) {
        // SVC__NOTIFIER__TARGETS__0__URL would build a map where a sequence belongs.
        if (this.source.hasEnvBelow(path)) throw new ConfigError(`${path}: invalid type: map, expected a sequence`);
        return fresh();
      }
      if (raw.origin === 'env') {
        const shown = options.hideValue === true ? '"<hidden>"' : quote(raw.text);
        throw new ConfigError(`${path}: invalid type: string ${shown}, expected a sequence`);
      }
      if (!Array.isArray(raw.value)) throw new ConfigError(`${path}: invalid type: ${describeValue(raw.value)}, expected a sequence`);
      return raw.value.map((item, index) => parseItem(item, `${path}[${index}]`));
    });
  }

  private read<T>(path: string, fallback: T, checks: readonly Check<T>[], convert: (raw: RawSetting) => T): T {
    return this.guard(
      () => fallback,
      () => {
        const raw = this.source.lookup(path);
        if (raw === undefined) return fallback;
        const value = convert(raw);
        for (const check of checks) fail(check(value, path));
        return value;
      },
    );
  }

  private guard<T>(fallback: () => T, body: () => T): T {
    try {
      return body();
    } catch (error) {
      if (!this.strict && error instanceof ConfigError) return fallback();
      throw error;
    }
  }
}

/** Throws the check's message, if any. */
export function fail(message: string | null): void {
  if (message !== null) throw new ConfigError(message);
}

function rawNumber(raw: RawSetting): unknown {
  return raw.origin === 'file' && typeof raw.value === 'number' ? raw.value : NaN;
}

function typeError(path: string, expected: string, got: unknown): ConfigError {
  return new ConfigError(`${path} must be ${expected}, got ${describeValue(got)}`);
}

/** A string field of a table item; '' when absent and not required. */
export function itemString(item: Table, key: string, itemPath: string, required: boolean): string {
  const value = item[key];
  if (value === undefined || value === '') {
    if (required) throw new ConfigError(`${itemPath}.${key} is required`);
    return '';
  }
  if (typeof value !== 'string') throw typeError(`${itemPath}.${key}`, 'a string', value);
  return value;
}
