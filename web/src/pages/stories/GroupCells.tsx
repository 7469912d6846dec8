import { Link } from '../../app/router';
import { KindBadge } from '../../components/KindBadge';
import { ServiceTag } from '../../components/ServiceTag';

/** What a story group is, as the first cells of a row: kind, summary (opening the newest story) and root cause. */
export function GroupCells({
  group,
  windowQuery,
}: {
  group: { kind: string; summary: string; sample_story_id: string; rc_service: string; rc_span_name: string };
  windowQuery: string;
}) {
  return (
    <>
      <td>
        <KindBadge kind={group.kind} />
      </td>
      <td className="summary-cell">
        <Link to={`/stories/${group.sample_story_id}${windowQuery}`}>{group.summary}</Link>
      </td>
      <td>
        <ServiceTag service={group.rc_service} />
        <div className="sub">{group.rc_span_name}</div>
      </td>
    </>
  );
}
