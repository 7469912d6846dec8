/**
 * Protobuf tags of the envelope traces and logs share, so their decoders and encoders walk one
 * shape: Data { 1: Resource* { 1: resource, 2: Scope* { 1: scope, 2: item* } } }.
 * A tag is (field << 3) | wire type; field numbers from opentelemetry-proto trace.proto and logs.proto.
 */

/** TracesData / ExportTraceServiceRequest.resource_spans, LogsData / ExportLogsServiceRequest.resource_logs = 1. */
export const TAG_RESOURCE_ITEMS = 0x0a;
/** ResourceSpans / ResourceLogs.resource = 1. */
export const TAG_RESOURCE = 0x0a;
/** ResourceSpans.scope_spans / ResourceLogs.scope_logs = 2. */
export const TAG_SCOPE_ITEMS = 0x12;
/** ScopeSpans / ScopeLogs.scope = 1. */
export const TAG_SCOPE = 0x0a;
/** ScopeSpans.spans / ScopeLogs.log_records = 2. */
export const TAG_ITEMS = 0x12;
