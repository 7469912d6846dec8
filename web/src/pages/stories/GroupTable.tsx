import type { StoryGroup } from '../../api/types';
import { setQuery } from '../../app/router';
import { ServiceTag } from '../../components/ServiceTag';
import { Sparkline } from '../../components/Sparkline';
import { Time } from '../../components/Time';
import { formatCount } from '../../lib/format';
import { GroupCells } from './GroupCells';

/** Story groups, most stories first; a row opens the newest story, the count opens the group. */
export function GroupTable({ groups, startMs, endMs, windowQuery }: { groups: StoryGroup[]; startMs: number; endMs: number; windowQuery: string }) {
  return (
    <table className="data groups">
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Summary</th>
          <th scope="col">Root cause</th>
          <th scope="col">Endpoint</th>
          <th scope="col" className="num">
            Stories
          </th>
          <th scope="col">Over the window</th>
          <th scope="col" className="wide-only">
            First seen
          </th>
          <th scope="col">Last seen</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr key={group.fingerprint}>
            <GroupCells group={group} windowQuery={windowQuery} />
            <td>
              <ServiceTag service={group.endpoint_service} />
              <div className="sub">{group.endpoint_name}</div>
            </td>
            <td className="num">
              <button type="button" className="link-button" onClick={() => setQuery({ group: group.fingerprint })} title="Show this group's stories">
                {formatCount(group.stories)}
              </button>
            </td>
            <td>
              <Sparkline
                buckets={group.buckets}
                bucketSecs={group.bucket_secs}
                startMs={startMs}
                endMs={endMs}
                label={`Stories of ${group.summary}`}
                tone={group.kind}
              />
            </td>
            <td className="wide-only">
              <Time ns={group.first_seen_ns} />
            </td>
            <td>
              <Time ns={group.last_seen_ns} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
