/**
 * /staff/audit: every staff change, newest first, filterable by store: when (in the company's zone), who,
 * and what, as a sentence; the values stored before and after sit behind a disclosure for whoever needs them.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { staffApi, type AuditEntry } from './api';
import { auditSentence } from './labels';
import { staffKeys, useStaffDateTime, useStaffStores } from './queries';
import { StoreSelect } from './StoreSelect';
import './admin.css';

const json = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value, null, 1) : '—');

/**
 * Store names by id: the current list, and for a deleted store the name its own entries recorded (its
 * creation or deletion), so that 'Archived store “Spring Expo”' still reads after it is gone.
 */
function storeNames(stores: { id: number; name: string }[], entries: AuditEntry[]): Map<number, string> {
  const names = new Map<number, string>();
  for (const entry of entries) {
    if (entry.entity !== 'store' || entry.storeId === null || names.has(entry.storeId)) continue;
    const name = entry.after?.name ?? entry.before?.name;
    if (typeof name === 'string' && name !== '') names.set(entry.storeId, name);
  }
  for (const store of stores) names.set(store.id, store.name);
  return names;
}

export default function AuditPage() {
  useDocumentTitle('Audit log');
  const stores = useStaffStores().data?.stores ?? [];
  const products = useQuery({
    queryKey: staffKeys.products,
    queryFn: () => staffApi.products().then((answer) => answer.products),
  }).data;
  const when = useStaffDateTime();
  const [store, setStore] = useState('');
  const audit = useQuery({
    queryKey: staffKeys.audit(store),
    queryFn: ({ signal }) => staffApi.audit(store, signal).then((answer) => answer.entries),
    placeholderData: (previous) => previous,
  });
  const entries = audit.data ?? null;
  const failure = audit.error ? errorMessage(audit.error) : null;
  const names = {
    stores: storeNames(stores, entries ?? []),
    products: new Map((products ?? []).map((p) => [p.id, p.name])),
  };
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
          <table className="staff-table staff-audit" aria-labelledby="audit-title">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>What</th>
                <th>Store</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.at)}</td>
                  <td>{e.actor?.name ?? 'The system'}</td>
                  <td>
                    <p className="staff-audit__sentence">{auditSentence(e, names)}</p>
                    <details className="staff-audit__raw">
                      <summary>Stored values</summary>
                      <dl>
                        <dt>Before</dt>
                        <dd className="staff-json">{json(e.before)}</dd>
                        <dt>After</dt>
                        <dd className="staff-json">{json(e.after)}</dd>
                      </dl>
                    </details>
                  </td>
                  <td>
                    {e.storeId === null
                      ? ''
                      : stores.some((s) => s.id === e.storeId)
                        ? names.stores.get(e.storeId)
                        : `${names.stores.get(e.storeId) ?? `#${e.storeId}`} (deleted)`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
