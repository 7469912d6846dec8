/** Raw spans and logs live 3 days; the writer drops items stamped older than that, or 0, at insert. */
export const RAW_RETENTION_NS = 3n * 24n * 3600n * 1_000_000_000n;

/** Whether an item stamped `tsNs` is still inside the raw lifetime at `nowNs`. */
export function isStorable(tsNs: bigint, nowNs: bigint): boolean {
  return tsNs !== 0n && tsNs >= nowNs - RAW_RETENTION_NS;
}
