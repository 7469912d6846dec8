/** Every component factory returns this; the CLI composes them and owns process exit. */
export interface Component {
  start(): Promise<void>;
  /** Stops accepting work, drains buffers into storage, releases resources. */
  close(): Promise<void>;
}
