/**
 * Response declarations of the Jaeger query API under /jaeger (Jaeger's HTTP JSON API as its UI
 * and Grafana's Jaeger data source read it): the `{data, total, limit, offset, errors}` envelope
 * and Jaeger's trace, operation and dependency shapes.
 */

import { z } from 'zod';
import { int64 } from './wire.js';

export const jaegerKeyValue = z.strictObject({
  key: z.string(),
  type: z.enum(['string', 'bool', 'int64', 'float64', 'binary']),
  value: z.union([z.string(), z.number(), z.bigint(), z.boolean()]),
});

export const jaegerSpan = z.strictObject({
  traceID: z.string(),
  spanID: z.string(),
  operationName: z.string(),
  references: z.array(z.strictObject({ refType: z.enum(['CHILD_OF', 'FOLLOWS_FROM']), traceID: z.string(), spanID: z.string() })),
  /** Unix µs. */
  startTime: int64,
  /** µs. */
  duration: int64,
  tags: z.array(jaegerKeyValue),
  logs: z.array(z.strictObject({ timestamp: int64, fields: z.array(jaegerKeyValue) })),
  processID: z.string(),
  warnings: z.array(z.string()).nullable(),
});

export const jaegerTrace = z.strictObject({
  traceID: z.string(),
  spans: z.array(jaegerSpan),
  processes: z.record(z.string(), z.strictObject({ serviceName: z.string(), tags: z.array(jaegerKeyValue) })),
  warnings: z.array(z.string()).nullable(),
});

const jaegerError = z.strictObject({ code: z.number().int().optional(), msg: z.string(), traceID: z.string().optional() });

/** Jaeger's structured response around every answer. */
function envelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ data, total: z.number().int(), limit: z.number().int(), offset: z.number().int(), errors: z.array(jaegerError).nullable() });
}

export const jaegerServices = envelope(z.array(z.string()).nullable());
export const jaegerOperationNames = envelope(z.array(z.string()).nullable());
export const jaegerOperations = envelope(z.array(z.strictObject({ name: z.string(), spanKind: z.string() })));
export const jaegerTraces = envelope(z.array(jaegerTrace));
export const jaegerDependencies = envelope(z.array(z.strictObject({ parent: z.string(), child: z.string(), callCount: z.number().int() })));

export type JaegerKeyValue = z.output<typeof jaegerKeyValue>;
export type JaegerSpan = z.output<typeof jaegerSpan>;
export type JaegerTrace = z.output<typeof jaegerTrace>;

type OtlpAnyValue = { [key: string]: unknown };
/** An OTLP AnyValue in its JSON form (`{"stringValue": ...}`, `{"intValue": "..."}`, lists and maps nested). */
const otlpAnyValue: z.ZodType<OtlpAnyValue> = z.lazy(() =>
  z.union([
    z.strictObject({ stringValue: z.string() }),
    z.strictObject({ boolValue: z.boolean() }),
    z.strictObject({ intValue: z.string() }),
    z.strictObject({ doubleValue: z.number() }),
    z.strictObject({ bytesValue: z.string() }),
    z.strictObject({ arrayValue: z.strictObject({ values: z.array(otlpAnyValue) }) }),
    z.strictObject({ kvlistValue: z.strictObject({ values: z.array(z.strictObject({ key: z.string(), value: otlpAnyValue })) }) }),
    z.strictObject({}),
  ]),
);
const otlpAttributes = z.array(z.strictObject({ key: z.string(), value: otlpAnyValue }));

/** Jaeger's API v3 answers: OTLP JSON traces wrapped in `result`, services, operations. */
export const jaegerV3Traces = z.strictObject({
  result: z.strictObject({
    resourceSpans: z.array(
      z.strictObject({
        resource: z.strictObject({ attributes: otlpAttributes }),
        scopeSpans: z.array(
          z.strictObject({
            scope: z.strictObject({ name: z.string().optional(), version: z.string().optional() }),
            spans: z.array(
              z.strictObject({
                traceId: z.string(),
                spanId: z.string(),
                parentSpanId: z.string().optional(),
                name: z.string(),
                kind: z.number().int().optional(),
                startTimeUnixNano: z.string(),
                endTimeUnixNano: z.string(),
                attributes: otlpAttributes.optional(),
                events: z.array(z.strictObject({ timeUnixNano: z.string(), name: z.string(), attributes: otlpAttributes.optional() })).optional(),
                links: z
                  .array(
                    z.strictObject({
                      traceId: z.string(),
                      spanId: z.string(),
                      traceState: z.string().optional(),
                      attributes: otlpAttributes.optional(),
                      droppedAttributesCount: z.number().int().optional(),
                    }),
                  )
                  .optional(),
                status: z.strictObject({ code: z.number().int().optional(), message: z.string().optional() }),
              }),
            ),
          }),
        ),
      }),
    ),
  }),
});
export const jaegerV3Services = z.strictObject({ services: z.array(z.string()) });
export const jaegerV3Operations = z.strictObject({ operations: z.array(z.strictObject({ name: z.string(), spanKind: z.string().optional() })) });
