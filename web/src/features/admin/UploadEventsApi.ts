/** The staff calls for upload events (shared/src/api/upload-events.ts), and their cached answer. */
import type {
  StaffUploadEventResponse,
  StaffUploadEventsResponse,
  UploadEventInput,
  UploadEventStaff,
} from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';

export type { UploadEventStaff };

const BASE = '/api/staff/upload-events';

export const uploadEventsApi = {
  list: () => apiRequest<StaffUploadEventsResponse>('GET', BASE).then((answer) => answer.events),
  create: (input: UploadEventInput) =>
    apiRequest<StaffUploadEventResponse>('POST', BASE, input).then((answer) => answer.event),
  update: (id: string, input: UploadEventInput) =>
    apiRequest<StaffUploadEventResponse>('PATCH', `${BASE}/${encodeURIComponent(id)}`, input).then(
      (answer) => answer.event,
    ),
  archive: (id: string) =>
    apiRequest<StaffUploadEventResponse>('POST', `${BASE}/${encodeURIComponent(id)}/archive`).then(
      (answer) => answer.event,
    ),
  restore: (id: string) =>
    apiRequest<StaffUploadEventResponse>('POST', `${BASE}/${encodeURIComponent(id)}/restore`).then(
      (answer) => answer.event,
    ),
};

export const uploadEventKeys = {
  staff: ['staff', 'upload-events'] as const,
};

export function useStaffUploadEvents() {
  return useQuery({ queryKey: uploadEventKeys.staff, queryFn: () => uploadEventsApi.list() });
}

/** The list with one event put in (a new one) or replaced (a changed one), in the server's order. */
export function withEvent(
  events: UploadEventStaff[] | undefined,
  event: UploadEventStaff,
): UploadEventStaff[] {
  const list = events ?? [];
  return list.some((e) => e.id === event.id)
    ? list.map((e) => (e.id === event.id ? event : e))
    : [...list, event];
}
