import { hash } from '@node-rs/argon2';
import { createInterface } from 'node:readline';

/** Argon2id at the parameters the contract shows: m=19456, t=2, p=1. */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** `svc hash-password`: reads the first line of piped input, or prompts twice without echo on a terminal. */
export async function runHashPassword(): Promise<number> {
  const password = process.stdin.isTTY ? await promptTwice() : await firstLine();
  if (password === undefined || password === '') {
    process.stderr.write('svc hash-password: empty password\n');
    return 1;
  }
  process.stdout.write(`${await hash(password, ARGON2_OPTIONS)}\n`);
  return 0;
}

async function firstLine(): Promise<string | undefined> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return undefined;
}

async function promptTwice(): Promise<string | undefined> {
  const first = await promptHidden('Password: ');
  const second = await promptHidden('Again: ');
  if (first !== second) {
    process.stderr.write('svc hash-password: the passwords differ\n');
    return undefined;
  }
  return first;
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    process.stderr.write(question);
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    let typed = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') process.exit(130);
        if (char === '\u007f') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
