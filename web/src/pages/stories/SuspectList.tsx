import type { IncidentEvidence, IncidentSuspect } from '../../api/types';
import { Link } from '../../app/router';
import { ServiceTag } from '../../components/ServiceTag';
import { formatNumber } from '../../lib/format';
import { beforeAfter, EVIDENCE_LABELS } from './evidence';
import { evidenceHref, serviceHref } from './incidentLinks';

/** The ranked suspects, likeliest first, each with its evidence as short bullets. */
export function SuspectList({ suspects, query }: { suspects: IncidentSuspect[]; query: URLSearchParams }) {
  return (
    <ol className="suspects" aria-label="Suspects">
      {suspects.map((suspect) => (
        <li key={`${suspect.rank}-${suspect.service}`} className="suspect">
          <div className="suspect-head">
            <span className="suspect-rank">#{suspect.rank}</span>
            <Link className="suspect-service" to={serviceHref(query, suspect.service)} title="Show this service on the map">
              <ServiceTag service={suspect.service} />
            </Link>
            {suspect.operation !== null && <span className="mono">{suspect.operation}</span>}
            {suspect.edge !== null && (
              <span className="mono" title="The call the evidence points at">
                {suspect.edge.caller} → {suspect.edge.callee}
              </span>
            )}
            <span className="badge" title="0..100: how strongly the window's changes point here">
              score {formatNumber(suspect.score)}
            </span>
          </div>
          <p className="suspect-summary">{suspect.summary}</p>
          {suspect.evidence.length > 0 && (
            <ul className="evidence">
              {suspect.evidence.map((evidence, index) => (
                <EvidenceItem key={index} evidence={evidence} query={query} />
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

function EvidenceItem({ evidence, query }: { evidence: IncidentEvidence; query: URLSearchParams }) {
  const href = evidenceHref(query, evidence);
  return (
    <li>
      <span className={`badge evidence-${evidence.kind}`}>{EVIDENCE_LABELS[evidence.kind]}</span>{' '}
      {href === null ? evidence.summary : <Link to={href}>{evidence.summary}</Link>}{' '}
      <span className="before-after" title="The hour before → the window">
        ({beforeAfter(evidence)})
      </span>
    </li>
  );
}
