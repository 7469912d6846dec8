// Response shapes of the contract (interface.md, "Resources and their fields" and "Other response
// shapes"), derived from the server's route declarations (src/api/schemas/): the same schemas the
// server's tests hold every reply to. Type-only imports: nothing of the server is bundled.
// `WireOf` is a declaration as JSON.parse gives it: `*_ns` values may exceed 2^53 and arrive as
// approximate numbers, which the app accepts because it only displays and positions them. Ids stay strings.

import type { incidentEvidence, incidentEvidenceKind, incidentGroup, incidentGroupTrend, incidents, incidentSuspect } from '../../../src/api/schemas/incidents';
import type {
  logAlert,
  logSearchPage,
  logSearchRow,
  logSeries,
  logTemplate,
  logTemplateDetail,
  severityLevel,
  silenceSetting,
} from '../../../src/api/schemas/logs';
import type { appConfig, lagRow, pipelineSeries } from '../../../src/api/schemas/pipeline';
import type {
  criticalSegment,
  overview,
  pathSpan,
  searchResult,
  slowerOp,
  storiesSeries,
  story,
  storyGroup,
  storyGroupDetail,
  storyGroupExample,
  storyLog,
  topContributor,
  traceSearchRow,
} from '../../../src/api/schemas/stories';
import type { mapEdge, mapNode, redBucket, serviceMap, serviceRed, span, trace, traceLog, traceLogTemplate } from '../../../src/api/schemas/traces';
import type { attrPair, pair, WireOf } from '../../../src/api/schemas/wire';

export type Pair = WireOf<typeof pair>;
export type KeyValue = WireOf<typeof attrPair>;

export type StoryGroup = WireOf<typeof storyGroup>;
export type StoryGroupExample = WireOf<typeof storyGroupExample>;
export type StoryGroupDetail = WireOf<typeof storyGroupDetail>;
export type PathSpan = WireOf<typeof pathSpan>;
export type CriticalSegment = WireOf<typeof criticalSegment>;
export type TopContributor = WireOf<typeof topContributor>;
export type SlowerOp = WireOf<typeof slowerOp>;
export type StoryLog = WireOf<typeof storyLog>;
export type Story = WireOf<typeof story>;
export type StoriesSeries = WireOf<typeof storiesSeries>;
export type Overview = WireOf<typeof overview>;
export type TraceSearchRow = WireOf<typeof traceSearchRow>;
export type SearchResult = WireOf<typeof searchResult>;

export type Span = WireOf<typeof span>;
export type TraceLog = WireOf<typeof traceLog>;
export type Trace = WireOf<typeof trace>;
export type TraceLogTemplate = WireOf<typeof traceLogTemplate>;
export type MapEdge = WireOf<typeof mapEdge>;
export type MapNode = WireOf<typeof mapNode>;
export type ServiceMap = WireOf<typeof serviceMap>;
export type RedBucket = WireOf<typeof redBucket>;
export type ServiceRed = WireOf<typeof serviceRed>;

export type LogAlert = WireOf<typeof logAlert>;
export type LogTemplate = WireOf<typeof logTemplate>;
export type LogTemplateDetail = WireOf<typeof logTemplateDetail>;
export type SilenceSetting = WireOf<typeof silenceSetting>;

export type PipelineSeries = WireOf<typeof pipelineSeries>;
export type LagRow = WireOf<typeof lagRow>;
export type AppConfig = WireOf<typeof appConfig>;

// Incident analysis (beyond the contract, documented in docs/api.md and docs/incidents.md).
export type Incidents = WireOf<typeof incidents>;
export type IncidentSuspect = WireOf<typeof incidentSuspect>;
export type IncidentEvidence = WireOf<typeof incidentEvidence>;
export type IncidentEvidenceKind = WireOf<typeof incidentEvidenceKind>;
export type IncidentGroup = WireOf<typeof incidentGroup>;
export type IncidentGroupTrend = WireOf<typeof incidentGroupTrend>;

// Log search (routes beyond the contract, documented in docs/logs.md).
export type LogSearchRow = WireOf<typeof logSearchRow>;
export type LogSearchPage = WireOf<typeof logSearchPage>;
export type LogSeries = WireOf<typeof logSeries>;
export type SeverityLevel = WireOf<typeof severityLevel>;

/** The levels in display order: a value the app needs at run time, so kept here and checked against the declaration below. */
export const SEVERITY_LEVELS = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type MustHold<T extends true> = T;
/** Does not compile when SEVERITY_LEVELS and the server's declared levels differ. */
export type SeverityLevelsMatch = MustHold<Same<(typeof SEVERITY_LEVELS)[number], SeverityLevel>>;
