/** Thrown when OTLP protobuf or JSON input is malformed; the message is short and safe to return to a client. */
export class OtlpDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpDecodeError';
  }
}

/** Thrown when rows cannot be encoded (an id that is not hex); rows from the decoders never trigger it. */
export class OtlpEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpEncodeError';
  }
}
