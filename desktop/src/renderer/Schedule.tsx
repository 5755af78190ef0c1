/**
 * Scheduled bandwidth in Settings: windows of chosen days and hours, each with its own rate, as the
 * engine's schedule defines them (engine/schedule.ts: its schema checks each window again before it is
 * kept, and MAX_WINDOWS caps the list). Outside every window the plain limit applies; the rate in
 * force at this moment is shown and follows the clock.
 */
import { Button, Checkbox, NumberInput, SelectField } from '@avp/web/ui';
import { useEffect, useState } from 'react';
import { bandwidthWindowSchema, inWindow, MAX_WINDOWS } from '../engine/schedule.js';
import type { BandwidthWindow, EngineSettings } from './api';

/** Rates are entered in KB/s (1024 bytes), as the plain limit is. */
export const KB = 1024;

/** The week as people read it, Monday first; the values are Date.getDay()'s (0 = Sunday). */
const WEEK = [
  { day: 1, short: 'Mon' },
  { day: 2, short: 'Tue' },
  { day: 3, short: 'Wed' },
  { day: 4, short: 'Thu' },
  { day: 5, short: 'Fri' },
  { day: 6, short: 'Sat' },
  { day: 0, short: 'Sun' },
];

const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

export interface WindowDraft {
  key: number;
  days: number[];
  /** 'HH:MM', '' while not chosen. */
  from: string;
  to: string;
  /** KB/s; 0 = unlimited; null while empty. */
  rateKb: number | null;
}

export type WindowErrors = Partial<Record<'days' | 'from' | 'to' | 'rateKb', string>>;

let nextKey = 1;

export function draftsOf(schedule: BandwidthWindow[] | undefined): WindowDraft[] {
  return (schedule ?? []).map((w) => ({
    key: nextKey++,
    days: [...w.days],
    from: w.from,
    to: w.to,
    rateKb: Math.round(w.bytesPerSecond / KB),
  }));
}

/** Office hours by default: what most people add a window for. */
function newDraft(): WindowDraft {
  return { key: nextKey++, days: [1, 2, 3, 4, 5], from: '09:00', to: '18:00', rateKb: 512 };
}

/** The windows to save, or each draft's messages (by index) when one is not a window yet. */
export function checkDrafts(
  drafts: WindowDraft[],
): { ok: true; windows: BandwidthWindow[] } | { ok: false; errors: WindowErrors[] } {
  const errors = drafts.map((draft): WindowErrors => {
    const found: WindowErrors = {};
    if (draft.days.length === 0) found.days = 'Choose at least one day.';
    if (!draft.from) found.from = 'Choose when the window starts.';
    if (!draft.to) found.to = 'Choose when the window ends.';
    else if (draft.from === draft.to) found.to = 'A window must not start and end at the same time.';
    if (draft.rateKb === null) found.rateKb = 'Enter a rate in KB/s, or 0 for unlimited.';
    return found;
  });
  if (errors.some((e) => Object.keys(e).length > 0)) return { ok: false, errors };
  const windows = drafts.map((draft) =>
    bandwidthWindowSchema.parse({
      days: [...draft.days].sort(),
      from: draft.from,
      to: draft.to,
      bytesPerSecond: (draft.rateKb ?? 0) * KB,
    }),
  );
  return { ok: true, windows };
}

export function rateText(bytesPerSecond: number): string {
  return bytesPerSecond === 0 ? 'unlimited' : `${Math.round(bytesPerSecond / KB)} KB/s`;
}

export function describeDays(days: number[]): string {
  if (days.length === 7) return 'every day';
  return WEEK.filter((d) => days.includes(d.day))
    .map((d) => d.short)
    .join(', ');
}

/** The limit in force now and where it comes from, in words. */
export function inForceText(settings: EngineSettings, now: Date): string {
  const window = settings.schedule?.find((w) => inWindow(w, now));
  if (window) {
    return `In force now: ${rateText(window.bytesPerSecond)}, from the window ${describeDays(window.days)} ${window.from}–${window.to}.`;
  }
  return `In force now: ${rateText(settings.bandwidthBytesPerSecond)} (the bandwidth limit; no window applies at this hour).`;
}

/** Re-renders every 30 s, as often as the engine looks at its schedule. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export interface ScheduleProps {
  drafts: WindowDraft[];
  onChange: (drafts: WindowDraft[]) => void;
  /** Messages per draft, by index (after a save was tried). */
  errors: WindowErrors[];
  /** The settings in force (what was saved), for the rate in force now. */
  saved: EngineSettings;
}

export function Schedule({ drafts, onChange, errors, saved }: ScheduleProps) {
  const now = useNow();
  const update = (index: number, change: Partial<WindowDraft>) =>
    onChange(drafts.map((d, i) => (i === index ? { ...d, ...change } : d)));
  const full = drafts.length >= MAX_WINDOWS;

  return (
    <fieldset className="app-schedule">
      <legend>Scheduled bandwidth</legend>
      <p className="app-help">
        Limits for chosen hours, such as office hours throttled and nights unlimited. Outside every window the
        bandwidth limit above applies; where windows overlap, the first one counts. Times are this computer’s.
      </p>
      <p className="app-in-force" data-testid="rate-in-force">
        {inForceText(saved, now)}
      </p>
      {drafts.length === 0 ? (
        <p className="app-empty">No windows: the bandwidth limit applies at all hours.</p>
      ) : null}
      <ol className="app-windows" aria-label="Bandwidth windows">
        {drafts.map((draft, index) => (
          <li key={draft.key}>
            <WindowEditor
              number={index + 1}
              draft={draft}
              errors={errors[index] ?? {}}
              onChange={(change) => update(index, change)}
              onRemove={() => onChange(drafts.filter((_, i) => i !== index))}
            />
          </li>
        ))}
      </ol>
      <div className="app-actions">
        <Button variant="secondary" isDisabled={full} onPress={() => onChange([...drafts, newDraft()])}>
          Add a window
        </Button>
        {full ? <p className="app-help">At most {MAX_WINDOWS} windows.</p> : null}
      </div>
    </fieldset>
  );
}

function WindowEditor({
  number,
  draft,
  errors,
  onChange,
  onRemove,
}: {
  number: number;
  draft: WindowDraft;
  errors: WindowErrors;
  onChange: (change: Partial<WindowDraft>) => void;
  onRemove: () => void;
}) {
  // A time saved from the command line may be off the hour: keep it choosable.
  const times = (value: string) => (value && !HOURS.includes(value) ? [...HOURS, value].sort() : HOURS);
  const title = `Window ${number}`;
  return (
    <fieldset className="app-window" aria-label={title}>
      <legend>{title}</legend>
      <div
        className={`app-days${errors.days ? ' app-days--error' : ''}`}
        role="group"
        aria-label={`Days of ${title.toLowerCase()}`}
      >
        {WEEK.map((d) => (
          <Checkbox
            key={d.day}
            label={d.short}
            value={draft.days.includes(d.day)}
            onChange={(on) =>
              onChange({ days: on ? [...draft.days, d.day] : draft.days.filter((x) => x !== d.day) })
            }
          />
        ))}
        {errors.days ? (
          <p className="kit-error app-days__error" role="alert">
            {errors.days}
          </p>
        ) : null}
      </div>
      <div className="app-window__fields">
        <SelectField
          label="From"
          options={times(draft.from)}
          value={draft.from}
          onChange={(from) => onChange({ from })}
          errorMessage={errors.from}
          placeholder="Choose…"
        />
        <SelectField
          label="To"
          options={times(draft.to)}
          value={draft.to}
          onChange={(to) => onChange({ to })}
          errorMessage={errors.to}
          placeholder="Choose…"
        />
        <NumberInput
          label="Rate (KB/s)"
          description="0 means unlimited."
          value={draft.rateKb}
          onChange={(rateKb) => onChange({ rateKb })}
          errorMessage={errors.rateKb}
          min={0}
        />
      </div>
      <div className="app-actions">
        <Button variant="secondary" dense aria-label={`Remove ${title.toLowerCase()}`} onPress={onRemove}>
          Remove
        </Button>
      </div>
    </fieldset>
  );
}
