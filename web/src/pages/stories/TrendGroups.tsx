import type { IncidentGroup } from '../../api/types';
import { Link } from '../../app/router';
import { formatCount, formatCountOf } from '../../lib/format';
import { GroupCells } from './GroupCells';
import { groupHref } from './incidentLinks';

/**
 * The window's story groups by trend: new and rising in view, chronic (about as often as in the
 * hour before) and fading folded below, so standing errors do not crowd out this window's news.
 */
export function TrendGroups({ groups, query, windowQuery }: { groups: IncidentGroup[]; query: URLSearchParams; windowQuery: string }) {
  const news = groups.filter((group) => group.trend === 'new' || group.trend === 'rising');
  const chronic = groups.filter((group) => group.trend === 'chronic');
  const fading = groups.filter((group) => group.trend === 'fading');
  const folded = [...chronic, ...fading];
  return (
    <>
      {news.length > 0 && <TrendTable groups={news} query={query} windowQuery={windowQuery} label="New and rising story groups" />}
      {folded.length > 0 && (
        <details className="chronic-fold">
          <summary>{foldTitle(chronic.length, fading.length)}</summary>
          <TrendTable groups={folded} query={query} windowQuery={windowQuery} label="Chronic and fading story groups" />
        </details>
      )}
    </>
  );
}

function foldTitle(chronic: number, fading: number): string {
  const parts = [];
  if (chronic > 0) parts.push(`${formatCountOf(chronic, 'chronic group')} (as often as in the hour before)`);
  if (fading > 0) parts.push(`${formatCountOf(fading, 'fading group')} (fewer than in the hour before)`);
  return parts.join(', ');
}

function TrendTable({ groups, query, windowQuery, label }: { groups: IncidentGroup[]; query: URLSearchParams; windowQuery: string; label: string }) {
  return (
    <table className="data trend-groups" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Trend</th>
          <th scope="col">Kind</th>
          <th scope="col">Summary</th>
          <th scope="col">Root cause</th>
          <th scope="col" className="num" title="Stories in the window, and in the hour before it">
            Stories (before)
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr key={group.fingerprint}>
            <td>
              <span className={`badge trend-${group.trend}`}>{group.trend}</span>
            </td>
            <GroupCells group={group} windowQuery={windowQuery} />
            <td className="num">
              <Link to={groupHref(query, group.fingerprint)} title="Show this group's stories">
                {formatCount(group.stories)}
              </Link>{' '}
              <span className="muted">({formatCount(group.baseline_stories)})</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
