import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDemoArgs } from './demo.js';

test('svc demo options: defaults, each option, and a clear refusal of a bad one', () => {
  assert.deepEqual(parseDemoArgs([]), { minutes: 15, rate: 4, seed: 1, historyMinutes: 60 });
  assert.deepEqual(
    parseDemoArgs([
      '--minutes',
      '2.5',
      '--rate',
      '20',
      '--seed',
      '7',
      '--history-minutes',
      '0',
      '--otlp-url',
      'http://svc:4318/',
      '--api-url',
      'http://svc:8090',
    ]),
    {
      minutes: 2.5,
      rate: 20,
      seed: 7,
      historyMinutes: 0,
      otlpUrl: 'http://svc:4318',
      apiUrl: 'http://svc:8090',
    },
  );
  const refusals: [string[], string][] = [
    [['--minutes', '0'], '--minutes must be a number within 1..=1440'],
    [['--minutes'], '--minutes must be a number within 1..=1440'],
    [['--rate', 'fast'], '--rate must be a number within 0.1..=1000'],
    [['--seed', '1.5'], '--seed must be a whole number within 0..=4294967295'],
    [['--otlp-url', 'localhost:4318'], '--otlp-url must be an http:// or https:// URL, e.g. http://localhost:4318'],
    [['--api-url', 'http://svc:8090'], '--api-url goes with --otlp-url'],
    [['--minute', '3'], 'unknown option "--minute"'],
  ];
  for (const [args, message] of refusals) assert.throws(() => parseDemoArgs(args), { message }, args.join(' '));
});
