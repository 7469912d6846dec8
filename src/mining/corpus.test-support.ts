/** A deterministic synthetic log corpus for tests: several services, numeric and word variables. */

/** Small seeded PRNG (mulberry32), so the corpus is the same in every run. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SHAPES = [
  (r: () => number) => `user ${Math.floor(r() * 1000)} logged in from 10.0.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`,
  (r: () => number) => `user ${Math.floor(r() * 1000)} logged out after ${(r() * 100).toFixed(2)} s`,
  (r: () => number) => `GET /api/items/${Math.floor(r() * 99)} HTTP/1.1" ${r() < 0.8 ? 200 : 404} ${Math.floor(r() * 5000)}`,
  (r: () => number) => `cache miss key=${Math.floor(r() * 1e6).toString(16)}deadbeef region=${['eu', 'us', 'ap'][Math.floor(r() * 3)]}`,
  (r: () => number) => `job ${['build', 'test', 'deploy', 'lint'][Math.floor(r() * 4)]} finished in ${Math.floor(r() * 900)}ms`,
  (r: () => number) => `connection to db-${Math.floor(r() * 9)} lost, retrying in ${Math.floor(r() * 10)} seconds`,
  (r: () => number) => `request ${uuidFrom(r)} failed: timeout after ${Math.floor(r() * 30)} s`,
  (r: () => number) =>
    `worker ${Math.floor(r() * 16)} picked ${Math.floor(r() * 5) + 1} tasks ${Array.from({ length: Math.floor(r() * 4) + 1 }, () => Math.floor(r() * 100)).join(' ')} done`,
  (r: () => number) => `session ${['opened', 'closed'][Math.floor(r() * 2)]} for user ${['root', 'alice', 'bob'][Math.floor(r() * 3)]}`,
];

function uuidFrom(r: () => number): string {
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

export interface CorpusLine {
  service: string;
  line: string;
}

/** `n` lines spread over `services` services. */
export function corpus(n: number, services = 3, seed = 42): CorpusLine[] {
  const r = prng(seed);
  const out: CorpusLine[] = [];
  for (let i = 0; i < n; i++) {
    const service = `svc-${Math.floor(r() * services)}`;
    out.push({ service, line: SHAPES[Math.floor(r() * SHAPES.length)](r) });
  }
  return out;
}
