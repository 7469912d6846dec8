import { Gauge, type Registry } from 'prom-client';
import type { DiskBus } from './disk-bus.js';

/**
 * The embedded bus's own figures, read when scraped: how much of embedded.bus_max_bytes its log
 * uses, and how many publishes it refused for lack of room (each answered "retry later").
 */
export function registerDiskBusMetrics(bus: DiskBus, maxBytes: number, registry: Registry): void {
  const registers = [registry];
  new Gauge({
    name: 'svc_bus_log_bytes',
    help: 'Bytes the embedded bus log holds on disk (records not yet committed by every consumer, by whole segments)',
    registers,
    collect() {
      this.set(bus.diskBytes);
    },
  });
  new Gauge({ name: 'svc_bus_log_max_bytes', help: 'embedded.bus_max_bytes', registers }).set(maxBytes);
  new Gauge({
    name: 'svc_bus_refused_publishes',
    help: 'Publishes the embedded bus refused because its log was full, since start',
    registers,
    collect() {
      this.set(bus.refused);
    },
  });
}
