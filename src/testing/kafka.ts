import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = new URL('../../../', import.meta.url).pathname;
const FETCH_SCRIPT = join(ROOT, 'scripts/kafka/fetch.sh');
/** The JVM prints this once the broker serves clients (logger kafka.server.KafkaRaftServer at INFO). */
const STARTED_LINE = 'Kafka Server started';
/** A JVM starting on a loaded 2-core machine has been seen to need more than 90 s. */
const START_TIMEOUT_MS = 240_000;
/** Small heap: the test broker holds a few MB; two cores and other tests share the machine. */
const JVM_FLAGS = ['-Xmx512m', '-Xms64m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true'];

const execFileAsync = promisify(execFile);

/**
 * Runs the JVM under a shell that kills it (SIGKILL: a test broker has nothing to flush) when told
 * to stop, or when the test process is gone: a test file killed by a signal or a timeout never runs
 * its after() hooks, and an orphaned broker would hold ports and memory on the machine.
 * Arguments: the test process id, the broker's temp dir (removed when the test process is gone),
 * then the JVM command line.
 */
const WATCHDOG = `
parent=$1; dir=$2; shift 2
"$@" &
jvm=$!
trap 'kill -9 $jvm 2>/dev/null; wait $jvm 2>/dev/null; exit 0' TERM INT
while kill -0 "$parent" 2>/dev/null && kill -0 "$jvm" 2>/dev/null; do sleep 1 & wait $!; done
kill -9 $jvm 2>/dev/null
wait $jvm 2>/dev/null
kill -0 "$parent" 2>/dev/null || rm -rf "$dir"
`;

export interface TestKafka {
  /** Bootstrap address, `127.0.0.1:<port>`. */
  brokers: string;
  /** Kills the JVM (at once, like a crash) and removes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** The cached Kafka jars (fetched from Maven Central by scripts/kafka/fetch.sh on first use). */
async function kafkaLibs(): Promise<string> {
  const { stdout } = await execFileAsync('bash', [FETCH_SCRIPT], { maxBuffer: 1 << 20 });
  return stdout.trim().split('\n').pop()!;
}

/** A loopback port free right now (the broker binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function serverProperties(dataDir: string, brokerPort: number, controllerPort: number): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${brokerPort}`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${join(dataDir, 'data')}`,
    // Topics are created by the code under test; a typo must not silently create one.
    'auto.create.topics.enable=false',
    // One node: every internal topic with one replica, few partitions so start-up is quick.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=3',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=3',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'num.network.threads=2',
    'num.io.threads=2',
    'log.flush.interval.messages=9223372036854775807',
    '',
  ].join('\n');
}

function log4jProperties(): string {
  return [
    'rootLogger.level=WARN',
    'rootLogger.appenderRef.stderr.ref=STDERR',
    'appender.stderr.type=Console',
    'appender.stderr.name=STDERR',
    'appender.stderr.target=SYSTEM_ERR',
    'appender.stderr.layout.type=PatternLayout',
    'appender.stderr.layout.pattern=[%d] %p %m (%c)%n',
    'logger.raft.name=kafka.server.KafkaRaftServer',
    'logger.raft.level=INFO',
    '',
  ].join('\n');
}

/** Cluster ids are Kafka Uuids: 16 random bytes in URL-safe base64 without padding. */
function randomClusterId(): string {
  return randomBytes(16).toString('base64url');
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts a single-node KRaft Kafka (combined broker and controller) on free loopback ports in a
 * temp directory and resolves once it serves clients.
 */
export async function startKafka(): Promise<TestKafka> {
  const libs = await kafkaLibs();
  const classpath = `${libs}/*`;
  const dir = mkdtempSync(join(tmpdir(), 'svc-kafka-'));
  const [brokerPort, controllerPort] = [await freePort(), await freePort()];
  const propertiesFile = join(dir, 'server.properties');
  const log4jFile = join(dir, 'log4j2.properties');
  writeFileSync(propertiesFile, serverProperties(dir, brokerPort, controllerPort));
  writeFileSync(log4jFile, log4jProperties());
  const javaArgs = [...JVM_FLAGS, `-Dlog4j2.configurationFile=${log4jFile}`, '-cp', classpath];
  // One token: a random id may begin with '-', which the tool's parser would take for an option.
  await execFileAsync('java', [...javaArgs, 'kafka.tools.StorageTool', 'format', `--cluster-id=${randomClusterId()}`, '-c', propertiesFile], {
    maxBuffer: 4 << 20,
  });

  const child: ChildProcess = spawn(
    'bash',
    ['-c', WATCHDOG, 'svc-kafka-watchdog', String(process.pid), dir, 'java', ...javaArgs, 'kafka.Kafka', propertiesFile],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let outputTail = '';
  let started = false;
  const onOutput = (chunk: Buffer) => {
    outputTail = (outputTail + chunk.toString()).slice(-8000);
    if (outputTail.includes(STARTED_LINE)) started = true;
  };
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadlineMs = Date.now() + START_TIMEOUT_MS;
  while (!(started && (await canConnect(brokerPort)))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`kafka exited before it started:\n${outputTail}`);
    }
    if (Date.now() > deadlineMs) {
      await stop();
      throw new Error(`kafka did not start within ${START_TIMEOUT_MS} ms:\n${outputTail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { brokers: `127.0.0.1:${brokerPort}`, stop };
}
