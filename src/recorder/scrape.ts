/** Scraping one metric target: GET its URL, bounded in time and bytes, and parse the text. */

import { parsePrometheusText, type ParsedText } from './prom-text.js';

export interface ScrapeLimits {
  timeoutMs: number;
  /** A body larger than this is refused (a misconfigured URL must not fill the heap). */
  maxBodyBytes: number;
  maxSamples: number;
}

/** The target's `instance`: the URL's host:port, with the scheme's default port when none is given. */
export function instanceOf(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port !== '' ? parsed.port : parsed.protocol === 'https:' ? '443' : '80';
  return `${parsed.hostname}:${port}`;
}

/** Fetches and parses the target; rejects when it cannot be read (the target is then `up` 0). */
export async function scrapeTarget(url: string, limits: ScrapeLimits): Promise<ParsedText> {
  const response = await fetch(url, {
    headers: { accept: 'text/plain;version=0.0.4;q=1,*/*;q=0.1' },
    signal: AbortSignal.timeout(limits.timeoutMs),
    redirect: 'error',
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`status ${response.status}`);
  }
  const text = await readBoundedText(response, limits.maxBodyBytes);
  return parsePrometheusText(text, limits.maxSamples);
}

async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      throw new Error(`body larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
