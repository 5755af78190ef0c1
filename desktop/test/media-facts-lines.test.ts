/**
 * What av-upload says on a terminal of each file's media facts (issue #30): the facts line, each
 * mismatch marked as blocking or as a warning, and the line naming the blocked files; and the engine's
 * matching of the form's event name to an open event.
 */
import { describe, expect, it } from 'vitest';
import { checkMediaFacts } from '@avp/shared';
import type { MediaFacts, MediaSpec, SubmissionFields, UploadEventPublic } from '@avp/shared';
import { blockedLine, reportFacts } from '../src/cli/media-lines.js';
import type { Io } from '../src/cli/io.js';
import { matchEvent, withCheck } from '../src/engine/media-facts.js';
import type { Inspection } from '../src/engine/index.js';

const FACTS: MediaFacts = {
  kind: 'video',
  container: 'MP4',
  videoCodec: 'H.264',
  width: 1280,
  height: 720,
  fps: 25,
  durationSeconds: 2,
  audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
  sizeBytes: 97146,
};
const SPEC: MediaSpec = {
  containers: [],
  videoCodecs: [],
  resolutions: [{ width: 1920, height: 1080 }],
  frameRates: [],
  minDurationSeconds: null,
  maxDurationSeconds: null,
  audio: null,
  maxSizeBytes: null,
  onMismatch: 'block',
};

function terminal() {
  const out: string[] = [];
  const err: string[] = [];
  const o: Io = { json: false, out: (l) => out.push(l), err: (l) => err.push(l), event: () => undefined };
  return { o, out, err };
}

function inspection(spec: MediaSpec | null, files: [string, MediaFacts | null][]): Inspection {
  return {
    spec,
    event: spec ? 'Expo 2030' : null,
    files: files.map(([name, facts]) => ({ path: `/x/${name}`, name, size: 1, ...withCheck(facts, spec) })),
  };
}

describe('reportFacts on a terminal', () => {
  it('prints each facts line and each blocking mismatch, then names the blocked file', () => {
    const { o, out, err } = terminal();
    const blocked = reportFacts(
      inspection(SPEC, [
        ['spot.mp4', FACTS],
        ['notes.txt', null],
      ]),
      o,
    );
    expect(blocked).toEqual(['spot.mp4']);
    expect(out).toEqual([
      'spot.mp4  1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo',
      '  Blocked: The screens need 1920×1080; this file is 1280×720.',
      "notes.txt  Could not read this file's details",
    ]);
    expect(err).toEqual([
      'Not sent: spot.mp4 does not meet the media spec of Expo 2030, which blocks such files. Nothing was queued.',
    ]);
  });

  it('says warnings and lets the files go', () => {
    const { o, out, err } = terminal();
    expect(reportFacts(inspection({ ...SPEC, onMismatch: 'warn' }, [['spot.mp4', FACTS]]), o)).toEqual([]);
    expect(out[1]).toBe('  Warning: The screens need 1920×1080; this file is 1280×720.');
    expect(err).toEqual([]);
  });

  it('says when the spec could not be asked for', () => {
    const { o, err } = terminal();
    reportFacts({ ...inspection(null, [['spot.mp4', FACTS]]), unavailable: 'Nothing answers' }, o);
    expect(err[0]).toMatch(/^The event's media spec could not be fetched \(Nothing answers\)/);
  });

  it('names several blocked files in one sentence', () => {
    expect(blockedLine(inspection(SPEC, []), ['a.mp4', 'b.mov', 'c.mxf'])).toBe(
      'Not sent: a.mp4, b.mov and c.mxf do not meet the media spec of Expo 2030, which blocks such files. Nothing was queued.',
    );
  });
});

describe('matchEvent', () => {
  const events = [{ name: 'Expo 2030' }, { name: 'Gala' }] as UploadEventPublic[];
  const sponsor = (event_name: string) =>
    ({ form_type: 'sponsor', event_name, sponsor_company: 'Acme', description: '' }) as SubmissionFields;

  it('matches the name trimmed and in any case, and nothing else', () => {
    expect(matchEvent(events, sponsor('  expo 2030 '))?.name).toBe('Expo 2030');
    expect(matchEvent(events, sponsor('Expo'))).toBeNull();
    expect(matchEvent(events, sponsor(''))).toBeNull();
    expect(
      matchEvent(events, {
        form_type: 'creative',
        project_name: 'Expo 2030',
        description: '',
      } as SubmissionFields),
    ).toBeNull();
  });

  it('an unreadable file is never blocked, whatever the spec', () => {
    expect(checkMediaFacts(SPEC, null).verdict).toBe('unreadable');
  });
});
