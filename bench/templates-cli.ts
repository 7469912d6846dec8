/**
 * `svc templates` end to end: the real binary over a 1M-line file (the LogHub 2k message bodies,
 * repeated), output read from its pipe. Reports lines per second of wall time and per CPU-second
 * of the svc process, and its peak RSS (VmHWM), polled from /proc. Then the same through standard
 * input (`-`). Each is run five times: the median run is reported, with the range.
 * Usage: node dist/bench/templates-cli.js [lines] [data_dir]
 *
 * This machine's speed varies by up to half from one hour to the next, so the same lines are first
 * mined in this process on one thread (the tool's own per-line work, no I/O, no second thread) as a
 * reference measured in the same minutes: the CLI's rate over it says how close the tool gets to
 * its mining loop whatever the machine's state.
 */
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MINER_OPTIONS } from '../src/mining/miner.js';
import { TemplateLines } from '../src/mining/templates-tool.js';
import { defaultLoghubDir, loadLoghubSets } from '../src/testing/loghub.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLOCK_TICKS_PER_SECOND = 100;
/** Runs of the CLI per input mode: this machine's speed moves from one run to the next. */
const RUNS = 5;

interface Run {
  lines: number;
  wallS: number;
  cpuS: number;
  peakRssBytes: number;
}

/** CPU seconds and peak RSS of a live process, or null once it is gone. */
function sample(pid: number): { cpuS: number; peakRssBytes: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuS = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuS, peakRssBytes: hwm === null ? 0 : Number(hwm[1]) * 1024 };
  } catch {
    // The process is gone (or going): keep what the last sample saw.
    return null;
  }
}

function runTemplates(dir: string, file: string, viaStdin: boolean): Promise<Run> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [join(ROOT, 'bin/svc.js'), 'templates', viaStdin ? '-' : file], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
    if (viaStdin) createReadStream(file).pipe(child.stdin);
    else child.stdin.end();
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    });
    let last = { cpuS: 0, peakRssBytes: 0 };
    const poll = setInterval(() => {
      const s = child.pid === undefined ? null : sample(child.pid);
      if (s !== null) last = { cpuS: Math.max(last.cpuS, s.cpuS), peakRssBytes: Math.max(last.peakRssBytes, s.peakRssBytes) };
    }, 50);
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(poll);
      if (code !== 0) {
        fail(new Error(`svc templates exited with ${code}`));
        return;
      }
      done({ lines, wallS: Number(process.hrtime.bigint() - started) / 1e9, ...last });
    });
  });
}

/** Lines per CPU-second of mining `lines` in this process, on one thread, output bytes included. */
function oneThreadLinesPerCpuSecond(lines: readonly string[]): number {
  const tool = new TemplateLines(DEFAULT_MINER_OPTIONS, 'input.log');
  const started = process.cpuUsage();
  let bytes = 0;
  for (const line of lines) bytes += tool.next(line).length;
  const used = process.cpuUsage(started);
  if (bytes === 0) throw new Error('no output');
  return lines.length / ((used.user + used.system) / 1e6);
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const total = Number(argv[0] ?? 1_000_000);
  const sets = loadLoghubSets(resolve(argv[1] ?? defaultLoghubDir()));
  if (sets.length === 0) throw new Error('no LogHub 2k datasets');
  const bodies = sets.flatMap((s) => s.content.filter((l) => !l.includes('\n')));
  const dir = mkdtempSync(join(tmpdir(), 'svc-templates-bench-'));
  try {
    const file = join(dir, 'input.log');
    const out: string[] = [];
    for (let i = 0; i < total; i++) out.push(bodies[i % bodies.length]);
    writeFileSync(file, `${out.join('\n')}\n`);
    const referenceLinesPerCpuS = oneThreadLinesPerCpuSecond(out);
    console.log(`templates_cli_reference_one_thread_lines_per_cpu_sec ${Math.round(referenceLinesPerCpuS)}`);
    for (const viaStdin of [false, true]) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await runTemplates(dir, file, viaStdin));
      for (const run of runs) if (run.lines !== total) throw new Error(`expected ${total} output lines, got ${run.lines}`);
      // The run of median wall time stands for all; the range shows how much the machine moved.
      runs.sort((a, b) => a.wallS - b.wallS);
      const run = runs[Math.floor(runs.length / 2)] as Run;
      const rate = (r: Run) => Math.round(r.lines / r.wallS);
      const name = viaStdin ? 'templates_cli_stdin' : 'templates_cli';
      console.log(`${name}_lines_per_sec ${rate(run)} (median of ${RUNS} runs, ${rate(runs[runs.length - 1] as Run)}..${rate(runs[0] as Run)})`);
      console.log(`${name}_over_reference ${(run.lines / run.wallS / referenceLinesPerCpuS).toFixed(2)}`);
      console.log(`${name}_lines_per_cpu_sec ${Math.round(run.lines / run.cpuS)} (last /proc sample, up to 50 ms early)`);
      console.log(`${name}_peak_rss_mb ${(Math.max(...runs.map((r) => r.peakRssBytes)) / 2 ** 20).toFixed(0)} (highest of the runs)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
