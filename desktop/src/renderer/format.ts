/** Words for people beside shared's figures (formatBytes, formatSpeed, formatTimeLeft, file-name cut). */

/** What a submission is about, in a few words: the project, or the event (and sponsor). */
export function submissionSummary(fields: Record<string, string | undefined>): string {
  if (fields.project_name) return fields.project_name;
  if (fields.sponsor_company) return `${fields.event_name ?? ''} · ${fields.sponsor_company}`;
  return fields.event_name ?? '';
}
