/** Figures for people: speed and time left beside shared's formatBytes and file-name cut. */
import { formatBytes } from '@avp/shared';
import type { JobView } from './api';

export function speedText(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(Math.round(bytesPerSecond))}/s` : '—';
}

export function timeLeftText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds <= 0) return '';
  if (seconds < 60) return `${seconds} s left`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s left`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** The same titles as the web portal's forms. */
export const FORM_TITLES: Record<JobView['formType'], string> = {
  creative: 'Creative Asset',
  event: 'Event Asset',
  sponsor: 'Sponsor Commercial',
};

/** What a submission is about, in a few words: the project, or the event (and sponsor). */
export function submissionSummary(fields: Record<string, string | undefined>): string {
  if (fields.project_name) return fields.project_name;
  if (fields.sponsor_company) return `${fields.event_name ?? ''} · ${fields.sponsor_company}`;
  return fields.event_name ?? '';
}
