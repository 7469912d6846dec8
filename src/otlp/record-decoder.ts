import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import { decodeLogs } from './decode-logs.js';
import { decodeTraces } from './decode-traces.js';

const decodeLogsWithoutIds = (value: Uint8Array): LogRow[] => decodeLogs(value, { logIds: false });

/** Where a consumed record sits on the bus (a BusRecord is one), for the log line. */
export interface RecordPlace {
  topic: string;
  partition: number;
  offset: bigint;
}

export interface RecordDecoderOptions {
  logger: Logger;
  /** Counts one undecodable record (the consumer's dropped-items counter, reason bad_record). */
  countBad(): void;
  /** The metric `countBad` adds to, named in the log line. */
  counterName: string;
  /**
   * Whether log rows carry their logId (default true). A consumer that never reads it (the
   * assembler: stories show a log's time, span, severity and body) saves building and hashing each
   * record's canonical content, the dearest part of a log's decode.
   */
  logIds?: boolean;
}

/**
 * Decodes the values of consumed bus records for a consumer. A value that does not decode (another
 * producer's garbage, a truncated record) yields no rows, so one bad record never blocks its
 * partition: it is counted, and the first one is logged.
 */
export class RecordDecoder {
  private logged = false;

  constructor(private readonly options: RecordDecoderOptions) {}

  /** The spans of a `TracesData` value; none when it does not decode. */
  spans(value: Uint8Array, place?: RecordPlace): SpanRow[] {
    return this.decodeOrSkip(decodeTraces, value, place);
  }

  /** The logs of a `LogsData` value; none when it does not decode. */
  logs(value: Uint8Array, place?: RecordPlace): LogRow[] {
    return this.decodeOrSkip(this.options.logIds === false ? decodeLogsWithoutIds : decodeLogs, value, place);
  }

  private decodeOrSkip<Row>(decode: (value: Uint8Array) => Row[], value: Uint8Array, place: RecordPlace | undefined): Row[] {
    try {
      return decode(value);
    } catch (error) {
      this.skip(error, place);
      return [];
    }
  }

  /** `place` is absent for a value decoded after its record was committed (the assembler's buffered chunks). */
  private skip(error: unknown, place: RecordPlace | undefined): void {
    this.options.countBad();
    if (this.logged) return;
    this.logged = true;
    const fields = place === undefined ? { err: error } : { err: error, topic: place.topic, partition: place.partition, offset: String(place.offset) };
    this.options.logger.error(fields, `skipping an undecodable bus record (counted in ${this.options.counterName}; logged once)`);
  }
}
