/** Proto enum names accepted in OTLP/JSON besides the integers the OTLP spec prescribes. */

export const SPAN_KIND_NAMES: ReadonlyMap<string, number> = new Map([
  ['SPAN_KIND_UNSPECIFIED', 0],
  ['SPAN_KIND_INTERNAL', 1],
  ['SPAN_KIND_SERVER', 2],
  ['SPAN_KIND_CLIENT', 3],
  ['SPAN_KIND_PRODUCER', 4],
  ['SPAN_KIND_CONSUMER', 5],
]);

export const STATUS_CODE_NAMES: ReadonlyMap<string, number> = new Map([
  ['STATUS_CODE_UNSET', 0],
  ['STATUS_CODE_OK', 1],
  ['STATUS_CODE_ERROR', 2],
]);

function severityNames(): Map<string, number> {
  const names = new Map<string, number>([['SEVERITY_NUMBER_UNSPECIFIED', 0]]);
  const levels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];
  levels.forEach((level, index) => {
    for (let step = 0; step < 4; step++) {
      names.set(`SEVERITY_NUMBER_${level}${step === 0 ? '' : step + 1}`, index * 4 + step + 1);
    }
  });
  return names;
}

export const SEVERITY_NUMBER_NAMES: ReadonlyMap<string, number> = severityNames();
