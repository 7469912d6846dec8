import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDurationSecs } from './durations.js';
import { parseListenAddr } from './listen-addr.js';
import { isArgon2idPhc } from './password-hash.js';
import { decodeSessionKey } from './session-key.js';

const durations: [string, number | null][] = [
  ['1s', 1],
  ['90s', 90],
  ['30m', 1800],
  ['12h', 43200],
  ['365d', 31536000],
  ['0s', 0],
  [' 5m ', 300],
  ['', null],
  ['12', null],
  ['h', null],
  ['1.5h', null],
  ['-1h', null],
  ['1w', null],
  ['1H', null],
  ['1h30m', null],
];

for (const [text, expected] of durations) {
  test(`parseDurationSecs(${JSON.stringify(text)}) = ${expected}`, () => {
    assert.equal(parseDurationSecs(text), expected);
  });
}

const addresses: [string, { host: string; port: number } | null][] = [
  ['0.0.0.0:8090', { host: '0.0.0.0', port: 8090 }],
  ['localhost:0', { host: 'localhost', port: 0 }],
  ['[::]:4317', { host: '::', port: 4317 }],
  ['[::1]:65535', { host: '::1', port: 65535 }],
  ['kafka-0.kafka.svc:9092', { host: 'kafka-0.kafka.svc', port: 9092 }],
  ['8090', null],
  [':8090', null],
  ['host:', null],
  ['host:65536', null],
  ['::1:80', null],
  ['host:80x', null],
  ['http://host:80', null],
  ['ho st:80', null],
  ['', null],
];

for (const [text, expected] of addresses) {
  test(`parseListenAddr(${JSON.stringify(text)})`, () => {
    if (expected !== null) assert.deepEqual(parseListenAddr(text), expected);
    else {
      assert.throws(() => parseListenAddr(text), {
        name: 'ConfigError',
        message: `invalid listen address ${JSON.stringify(text)}: expected host:port with a port within 0..=65535`,
      });
    }
  });
}

test('session keys: base64 (standard or URL-safe) of at least 32 bytes', () => {
  const key = Buffer.alloc(32, 0xfe);
  assert.deepEqual(decodeSessionKey(key.toString('base64')), key);
  assert.deepEqual(decodeSessionKey(key.toString('base64url')), key);
  assert.deepEqual(decodeSessionKey(`${key.toString('base64')}\n`), key);
  assert.equal(decodeSessionKey(Buffer.alloc(31).toString('base64')), null);
  assert.equal(decodeSessionKey(`${key.toString('base64')}*`), null);
  assert.equal(decodeSessionKey('A'.repeat(45)), null, 'a length of 4n+1 characters is not base64');
  assert.equal(decodeSessionKey(''), null);
});

test('password hashes: Argon2id PHC strings only', () => {
  const salt = Buffer.alloc(16, 1).toString('base64').replace(/=+$/, '');
  const output = Buffer.alloc(32, 2).toString('base64').replace(/=+$/, '');
  assert.ok(isArgon2idPhc(`$argon2id$v=19$m=19456,t=2,p=1$${salt}$${output}`));
  assert.ok(isArgon2idPhc(`$argon2id$v=19$m=65536,t=3,p=4$${salt}$${output}`));
  assert.ok(!isArgon2idPhc('correct horse battery staple'));
  assert.ok(!isArgon2idPhc(`$argon2i$v=19$m=19456,t=2,p=1$${salt}$${output}`));
  assert.ok(!isArgon2idPhc(`$argon2id$v=19$m=19456,t=2,p=1$${salt}`));
  assert.ok(!isArgon2idPhc(`$argon2id$v=19$m=1,t=2,p=1$${salt}$${output}`), 'memory below 8 KiB per lane');
  assert.ok(!isArgon2idPhc(`$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$${output}`), 'salt under 8 bytes');
  assert.ok(!isArgon2idPhc(`$argon2id$v=19$m=19456,t=2,p=1$${salt}$${output}==`));
});
