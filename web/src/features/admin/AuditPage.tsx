/** /staff/audit: every staff change, newest first (who, what, when, before and after), filterable by store. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { staffApi } from './api';
import { staffKeys, useStaffStores } from './queries';
import { StoreSelect } from './StoreSelect';
import './admin.css';

const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value, null, 1) : '');

export default function AuditPage() {
  useDocumentTitle('Audit log');
  const stores = useStaffStores().data?.stores ?? [];
  const [store, setStore] = useState('');
  const audit = useQuery({
    queryKey: staffKeys.audit(store),
    queryFn: ({ signal }) => staffApi.audit(store, signal).then((answer) => answer.entries),
    placeholderData: (previous) => previous,
  });
  const entries = audit.data ?? null;
  const failure = audit.error ? errorMessage(audit.error) : null;
  const names = new Map(stores.map((s) => [s.id, s.name]));
  return (
    <>
      <h1 id="audit-title">Audit log</h1>
      <div className="staff-filters">
        <StoreSelect stores={stores} value={store} onChange={setStore} allStores />
      </div>
      {failure ? (
        <p role="alert" className="staff-error">
          {failure}
        </p>
      ) : null}
      {entries === null ? (
        <p role="status">Loading…</p>
      ) : (
        <div className="staff-table-scroll">
          <table className="staff-table" aria-labelledby="audit-title">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>What</th>
                <th>Store</th>
                <th>Before</th>
                <th>After</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{new Date(e.at).toLocaleString()}</td>
                  <td>{e.actor?.name ?? '—'}</td>
                  <td>
                    {e.action}
                    <div className="staff-muted">
                      {e.entity} {e.entityId ?? ''}
                    </div>
                  </td>
                  <td>{e.storeId === null ? '' : (names.get(e.storeId) ?? `#${e.storeId} (deleted)`)}</td>
                  <td className="staff-json">{json(e.before)}</td>
                  <td className="staff-json">{json(e.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
