import { ConfigError } from './config-error.js';

/**
 * A failure and what it wraps, in one line: client libraries wrap the network error a person can
 * act on (`connect ECONNREFUSED 10.0.0.5:9092`) in their own (`metadata failed 4 times`).
 */
export function reasonChain(error: unknown): string {
  const lines: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && lines.length < 4) {
    seen.add(current);
    const line = (current instanceof Error ? current.message : String(current)).split('\n', 1)[0]!.trim().replace(/\.$/, '');
    if (line !== '' && !lines.includes(line)) lines.push(line);
    current = typeof current === 'object' ? ((current as { errors?: unknown[] }).errors?.[0] ?? (current as { cause?: unknown }).cause) : undefined;
  }
  return lines.join(': ');
}

/** Runs a start-up step against the service a setting names; its failure becomes one line naming the setting. */
export async function namingSetting<T>(setting: string, what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${setting}: ${what}: ${reasonChain(error)}`);
  }
}
