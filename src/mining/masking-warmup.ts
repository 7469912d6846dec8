/**
 * Type feedback for the scanner before it is first compiled.
 *
 * V8 compiles a hot function for the paths it has seen run. Log lines take some of the scanner's
 * paths only now and then (a named value like `blk_-1`, a line of more than 64 tokens, an HTTP
 * status), so on real input the compiled scanner met a new path every so often, was thrown away and
 * compiled again: `svc templates` over 1M lines compiled it 8-10 times (~90 ms each on this
 * machine's 2 cores, beside the mining). Running every path once first, on the few lines below,
 * leaves it compiled once or twice per thread: ~15% less CPU and wall time over 1M lines
 * (interleaved runs; the README's benchmark table). The scan is pure, so this changes no result.
 */
import { fingerprintLine, maskLine } from './masking.js';

/** 70 short words: a line folded at 64 tokens. */
const LONG_LINE = Array.from({ length: 70 }, (_, i) => (i % 3 === 0 ? `w${i}` : 'word')).join(' ');

/** One line or more for each path of the scanner and of the segment rules in masking-rules.ts. */
export const WARMUP_LINES: readonly string[] = [
  'GET /index.html HTTP/1.1" 200 1234 "-" "curl/7.1"',
  '"GET /a HTTP/1.0" 404 - HTTP/2 503',
  'user=42 took 12ms at 10.0.0.1:8080 from /10.0.0.2 id=deadbeefcafe',
  'blk_-123 node-7 core.5 0x1f deadbeefcafe abcdefab DFSClient_NONMAPREDUCE_-9_1 jk2_init() ab2_cd',
  '/var/log/app.log C:\\dir\\file host.example.com a.b.c.de Host.Example.com',
  'Mon Jan 12 10:00:01 2024 sent 2.1 KB in 3 ms, 4 MiB total; xB',
  "delete 1 2 3 [1, 2, 3] (4) <5>; a,b 6,7; x:8 {9} @10 |11| '12'",
  '  leading\tand\ttabs  \r',
  'héllo wörld 日本 3 ünïcode=7',
  '',
  '   ',
  LONG_LINE,
];

let warmed = false;

/** Runs the scanner over every path once (once per thread; later calls return at once). */
export function warmUpMasking(): void {
  if (warmed) return;
  warmed = true;
  for (const keepHttpStatus of [true, false]) {
    const opts = { keepHttpStatus };
    for (const line of WARMUP_LINES) {
      fingerprintLine(line, opts);
      maskLine(line, opts);
    }
  }
}
