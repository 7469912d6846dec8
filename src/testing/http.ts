import { parseJsonExact } from '../util/json.js';

/** GET a JSON route; bigints stay exact. */
export async function getJson(url: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url);
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json')) body = parseJsonExact(text);
  return { status: response.status, body, headers: response.headers };
}

/** Reads a counter or gauge value from Prometheus text (sum over label sets matching `labels`). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const labelText = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) total += Number(match[3]);
  }
  return total;
}

/**
 * GETs a JSON route until `ready` accepts the answer, and returns it. An export is acknowledged
 * once the bus has it, before the writer stores it: reads after an export wait on this.
 */
export async function pollJson(
  url: string,
  ready: (response: { status: number; body: unknown }) => boolean,
  timeoutMs = 30_000,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await getJson(url);
    if (ready(response)) return response;
    if (Date.now() > deadline) return response; // the caller's assertion then says what was wrong
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
