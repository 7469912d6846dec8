import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = new URL('../../../', import.meta.url).pathname;

export interface RunningAllInOne {
  apiUrl: string;
  grpcPort: number;
  otlpHttpPort: number;
  dataDir: string;
  /** Every JSON log line the process wrote so far. */
  logs: Record<string, unknown>[];
  /** Sends SIGTERM and waits for exit; returns the exit code. */
  stop(): Promise<number | null>;
  process: ChildProcess;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Node binary to run svc with (defaults to this process's, or SVC_TEST_NODE). */
  nodeBin?: string;
  /** Extra node flags before the script (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /** Runs this command instead of this checkout's bin/svc.js under node (e.g. `svc` from an installed package, found on env.PATH). */
  command?: string;
  /** Working directory (defaults to the repository root). */
  cwd?: string;
  /** Runs bin/svc.js of this checkout (a copy of an older build, for interleaved benchmarks) instead of this one. */
  svcRoot?: string;
}

/** A fresh temp data directory, removed by the returned cleanup. */
export function tempDataDir(prefix = 'svc-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts the real `svc all-in-one` on loopback port 0 and resolves once it reports ready. */
export async function startAllInOne(options: StartOptions = {}): Promise<RunningAllInOne> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-aio-'));
  const [file, args] =
    options.command !== undefined
      ? [options.command, ['all-in-one']]
      : [
          options.nodeBin ?? process.env.SVC_TEST_NODE ?? process.execPath,
          [...(options.nodeArgs ?? []), join(options.svcRoot ?? ROOT, 'bin/svc.js'), 'all-in-one'],
        ];
  const child = spawn(file, args, {
    cwd: options.cwd ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SVC__HTTP_ADDR: '127.0.0.1:0',
      SVC__GRPC_ADDR: '127.0.0.1:0',
      SVC__OTLP_HTTP_ADDR: '127.0.0.1:0',
      SVC__EMBEDDED__DATA_DIR: dataDir,
      ...options.env,
    },
  });
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderrTail = '';
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderrTail = (stderrTail + line + '\n').slice(-4000);
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'svc all-in-one ready') resolve(entry);
      } catch {
        // not a log line (e.g. a start-up error message)
      }
    });
    child.stdout!.resume();
    void exited.then((code) => reject(new Error(`svc all-in-one exited with ${code} before ready:\n${stderrTail}`)));
  });
  const entry = await ready;
  // A server that dies under a test shows up there only as refused connections; its last words say why.
  let stopping = false;
  void exited.then((code) => {
    if (!stopping) process.stderr.write(`svc all-in-one (pid ${child.pid}) exited with ${code} during the test; its last log lines:\n${stderrTail}\n`);
  });
  const apiPort = Number(String(entry.api).split(':').pop());
  return {
    apiUrl: `http://127.0.0.1:${apiPort}`,
    grpcPort: Number(entry.grpc),
    otlpHttpPort: Number(entry.otlp_http),
    dataDir,
    logs,
    process: child,
    async stop() {
      stopping = true;
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
