/** Worker thread of the parallel miner: owns the services routed to it and mines their lines. */
import { parentPort, workerData } from 'node:worker_threads';
import { templateText, type Cluster } from './drain.js';
import { LogMiner, type MinerOptions } from './miner.js';
import { restoreMiner, snapshotMiner } from './snapshot.js';
import type { WorkerReply, WorkerRequest } from './parallel-protocol.js';

const port = parentPort;
if (port === null) throw new Error('parallel-worker must run in a worker thread');
const options = workerData as MinerOptions;
let miner = new LogMiner(options);

port.on('message', (req: WorkerRequest) => {
  let reply: WorkerReply;
  if (req.kind === 'mine') {
    const ids: string[] = new Array<string>(req.lines.length);
    // Only templates touched by this batch travel back, with their current text.
    const touched = new Set<Cluster>();
    for (let i = 0; i < req.lines.length; i++) {
      const c = miner.mine(req.services[i], req.lines[i], req.timesMs[i], req.severities[i]);
      ids[i] = c.id;
      touched.add(c);
    }
    reply = { kind: 'mine', seq: req.seq, ids, texts: [...touched].map((c) => [c.id, templateText(c)]) };
  } else if (req.kind === 'templates') {
    reply = { kind: 'templates', seq: req.seq, templates: miner.templates() };
  } else if (req.kind === 'restore') {
    // Replaces this worker's state with the stored templates of its services (logminer start).
    miner = restoreMiner(req.snapshot, options);
    reply = { kind: 'restore', seq: req.seq };
  } else {
    reply = { kind: 'snapshot', seq: req.seq, snapshot: snapshotMiner(miner) };
  }
  port.postMessage(reply);
});
