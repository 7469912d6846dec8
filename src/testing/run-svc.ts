import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';

const ROOT = new URL('../../../', import.meta.url).pathname;

export interface SvcExit {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Lines of standard error that are not JSON log lines: what a person reads. */
  messages: string[];
}

/**
 * Runs the real `svc` binary until it exits; kills it (and rejects) if it is still running after
 * `deadlineMs`, so a process that should have stopped fails the test instead of hanging it.
 */
export function runSvcToExit(args: string[], env: Record<string, string>, deadlineMs = 120_000): Promise<SvcExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.SVC_TEST_NODE ?? process.execPath, [join(ROOT, 'bin/svc.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} still running after ${deadlineMs} ms:\n${stderr.slice(-4000)}`));
    }, deadlineMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, messages: nonJsonLines(stderr) });
    });
  });
}

export function nonJsonLines(text: string): string[] {
  return text.split('\n').filter((line) => {
    if (line.trim() === '') return false;
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
}

/** A loopback port held by another listener for the test's duration. */
export async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}
