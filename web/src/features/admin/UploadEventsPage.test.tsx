import type { UploadEventStaff } from '@avp/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, type FakeRoute } from '../../test/fakeApi';
import UploadEventsPage, { UPLOAD_EVENTS_EMPTY } from './UploadEventsPage';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

function renderPage(route: FakeRoute) {
  api = fakeApi(route);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <UploadEventsPage />
    </QueryClientProvider>,
  );
}

const EVENT: UploadEventStaff = {
  id: 'ev1',
  name: 'Spring Summit',
  startsOn: '2027-03-01',
  endsOn: '2027-03-03',
  timeZone: 'America/Chicago',
  deadline: '2027-02-25T23:00:00.000Z',
  deadlineText: 'Feb 25, 2027, 5:00 PM CST',
  deadlineLocal: '2027-02-25T17:00',
  specs: { creative: null, event: null, sponsor: null },
  open: true,
  archivedAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('the staff Upload events page', () => {
  it('says it is loading, then that there are no events yet', async () => {
    renderPage(({ path }) =>
      path === '/api/staff/upload-events' ? { status: 200, body: { events: [] } } : undefined,
    );
    expect(screen.getByText('Loading upload events…')).toBeTruthy();
    expect(await screen.findByText(UPLOAD_EVENTS_EMPTY)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a failed load with Retry, which loads the list', async () => {
    let fail = true;
    renderPage(({ path }) => {
      if (path !== '/api/staff/upload-events') return undefined;
      if (fail) return { status: 503, body: { error: { code: 'unavailable', message: 'Try again soon.' } } };
      return {
        status: 200,
        body: { events: [EVENT, { ...EVENT, id: 'ev2', name: 'Old Fair', open: false }] },
      };
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Try again soon.');
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    const rows = await screen.findAllByRole('row');
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell')[3]?.textContent)).toEqual([
      'Open',
      'Closed',
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
