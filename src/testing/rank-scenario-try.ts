import { rankScenario } from './incident-harness.js';
import { faultTargets, FAULT_KINDS, type FaultKind } from '../simulator/faults.js';
import { shopModel } from '../simulator/shop.js';
const kinds = (process.argv[2] ? process.argv[2].split(',') : FAULT_KINDS) as FaultKind[];
const windowFromMs = Math.floor(Date.now() / 60_000) * 60_000 - 20 * 60_000;
for (const kind of kinds) {
  const targets = faultTargets(kind, shopModel());
  for (const [i, target] of targets.entries()) {
    if (i > Number(process.argv[3] ?? 2)) break;
    const started = performance.now();
    const report = rankScenario({
      seed: 7 + i,
      tracesPerSec: Number(process.argv[4] ?? 3),
      windowFromMs,
      windowMinutes: 15,
      faults: [{ kind, service: target, fromMs: windowFromMs, toMs: windowFromMs + 15 * 60_000 }],
    });
    const names = report.suspects
      .slice(0, 3)
      .map((s) => `${s.service}(${s.score})`)
      .join(' ');
    console.log(
      `${report.suspects[0]?.service === target ? 'OK  ' : 'MISS'} ${kind} ${target}: ${names} [${((performance.now() - started) / 1000).toFixed(1)} s]`,
    );
    if (report.suspects[0]?.service !== target || process.env.SHOW)
      for (const s of report.suspects.slice(0, 3))
        console.log(
          '   ',
          s.service,
          s.score,
          s.evidence
            .slice(0, 3)
            .map((e) => `${e.kind}:${e.score}:${e.summary.slice(0, 140)}`)
            .join(' | '),
        );
  }
}
