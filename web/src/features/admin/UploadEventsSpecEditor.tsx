/**
 * One form type's media spec in the Upload events dialog: whether its files are checked at all, then what
 * the screens need (containers, video codecs, resolutions as rows, frame rates, the shortest and longest
 * run, audio, the largest file) and whether a file that misses blocks or warns. Ticked lists left empty
 * and blank fields mean "any".
 */
import {
  MEDIA_AUDIO_CODEC_CHOICES,
  MEDIA_CONTAINER_CHOICES,
  MEDIA_VIDEO_CODEC_CHOICES,
  type UploadFormType,
} from '@avp/shared';
import { useId, useRef, type ReactNode } from 'react';
import { Button, Checkbox, RadioGroup, SelectField, TextField } from '../../ui';
import {
  CHANNEL_CHOICES,
  FORM_TYPE_LABELS,
  FRAME_RATE_CHOICES,
  SAMPLE_RATE_CHOICES,
  SIZE_UNITS,
  type DraftErrors,
  type SizeUnit,
  type SpecDraft,
} from './UploadEventsSpec';

type Choice = string | { id: string; label: string };

const RESOLUTION_PRESETS = [
  { width: '1280', height: '720' },
  { width: '1920', height: '1080' },
  { width: '3840', height: '2160' },
];

/** Ticked boxes under one legend; a value not among the choices (from an older spec) is listed too. */
function TickList({
  legend,
  description,
  choices,
  value,
  onChange,
  errorMessage,
}: {
  legend: string;
  description?: string;
  choices: readonly Choice[];
  value: string[];
  onChange: (next: string[]) => void;
  errorMessage?: string | undefined;
}) {
  const helpId = useId();
  const errorId = useId();
  const options = choices.map((c) => (typeof c === 'string' ? { id: c, label: c } : c));
  for (const v of value) if (!options.some((o) => o.id === v)) options.push({ id: v, label: v });
  return (
    <fieldset
      className="kit-fieldset upload-events__ticks"
      aria-describedby={
        [description ? helpId : '', errorMessage ? errorId : ''].filter(Boolean).join(' ') || undefined
      }
    >
      <legend className="kit-legend">{legend}</legend>
      <div className="upload-events__tick-row">
        {options.map((option) => (
          <Checkbox
            key={option.id}
            label={option.label}
            value={value.includes(option.id)}
            onChange={(on) => onChange(on ? [...value, option.id] : value.filter((v) => v !== option.id))}
          />
        ))}
      </div>
      {description ? (
        <p id={helpId} className="staff-muted upload-events__help">
          {description}
        </p>
      ) : null}
      {errorMessage ? (
        <p id={errorId} className="kit-error">
          {errorMessage}
        </p>
      ) : null}
    </fieldset>
  );
}

export interface SpecEditorProps {
  formType: UploadFormType;
  value: SpecDraft;
  onChange: (next: SpecDraft) => void;
  /** The dialog's messages, by field path; this editor reads those under `specs.{formType}.`. */
  errors: DraftErrors;
}

export function SpecEditor({ formType, value, onChange, errors }: SpecEditorProps) {
  const at = `specs.${formType}.`;
  const error = (field: string) => errors[`${at}${field}`];
  const set = <K extends keyof SpecDraft>(key: K, next: SpecDraft[K]) => onChange({ ...value, [key]: next });
  const rowsRef = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const label = FORM_TYPE_LABELS[formType];

  const addRow = (row = { width: '', height: '' }) => {
    set('resolutions', [...value.resolutions, row]);
    // The new row's width field takes the focus (after React has drawn it).
    requestAnimationFrame(() => {
      const inputs = rowsRef.current?.querySelectorAll<HTMLInputElement>('input');
      inputs?.[inputs.length - 2]?.focus();
    });
  };

  let body: ReactNode = null;
  if (value.enabled) {
    body = (
      <div className="upload-events__spec">
        <RadioGroup
          label="A file that does not meet the spec"
          options={[
            { id: 'block', label: 'Blocks: it cannot be sent' },
            { id: 'warn', label: 'Warns: it is sent, with the issues recorded' },
          ]}
          value={value.onMismatch}
          onChange={(next) => set('onMismatch', next as SpecDraft['onMismatch'])}
        />
        <TickList
          legend="Containers"
          description="None ticked: any container."
          choices={MEDIA_CONTAINER_CHOICES}
          value={value.containers}
          onChange={(next) => set('containers', next)}
          errorMessage={error('containers')}
        />
        <TickList
          legend="Video codecs"
          description="None ticked: any codec."
          choices={MEDIA_VIDEO_CODEC_CHOICES}
          value={value.videoCodecs}
          onChange={(next) => set('videoCodecs', next)}
          errorMessage={error('videoCodecs')}
        />
        <fieldset className="kit-fieldset upload-events__resolutions">
          <legend className="kit-legend">Resolutions</legend>
          <div ref={rowsRef} className="upload-events__rows">
            {value.resolutions.map((row, index) => (
              <div
                className="upload-events__resolution"
                key={index}
                role="group"
                aria-label={`Resolution ${index + 1}`}
              >
                <TextField
                  label="Width"
                  inputMode="numeric"
                  value={row.width}
                  onChange={(width) =>
                    set(
                      'resolutions',
                      value.resolutions.map((r, i) => (i === index ? { ...r, width } : r)),
                    )
                  }
                  errorMessage={error(`resolutions.${index}.width`)}
                />
                <span aria-hidden="true" className="upload-events__times">
                  ×
                </span>
                <TextField
                  label="Height"
                  inputMode="numeric"
                  value={row.height}
                  onChange={(height) =>
                    set(
                      'resolutions',
                      value.resolutions.map((r, i) => (i === index ? { ...r, height } : r)),
                    )
                  }
                  errorMessage={error(`resolutions.${index}.height`)}
                />
                <Button
                  dense
                  variant="secondary"
                  aria-label={`Remove resolution ${index + 1}${row.width && row.height ? ` (${row.width}×${row.height})` : ''}`}
                  onPress={() => {
                    set(
                      'resolutions',
                      value.resolutions.filter((_, i) => i !== index),
                    );
                    // The pressed button goes with its row: the focus stays in the list, on Add resolution.
                    addButton.current?.focus();
                  }}
                >
                  Remove
                </Button>
              </div>
            ))}
          </div>
          {value.resolutions.length === 0 ? (
            <p className="staff-muted upload-events__help">No rows: any resolution.</p>
          ) : null}
          <div className="staff-actions">
            <Button ref={addButton} dense variant="secondary" onPress={() => addRow()}>
              Add resolution
            </Button>
            {RESOLUTION_PRESETS.filter(
              (p) => !value.resolutions.some((r) => r.width === p.width && r.height === p.height),
            ).map((p) => (
              <Button key={p.width} dense variant="secondary" onPress={() => addRow(p)}>
                {`Add ${p.width}×${p.height}`}
              </Button>
            ))}
          </div>
        </fieldset>
        <TickList
          legend="Frame rates (fps)"
          description="None ticked: any frame rate."
          choices={FRAME_RATE_CHOICES}
          value={value.frameRates}
          onChange={(next) => set('frameRates', next)}
          errorMessage={error('frameRates')}
        />
        <div className="upload-events__pair">
          <TextField
            label="Shortest run"
            description="m:ss, e.g. 0:10. Blank: no minimum."
            value={value.minDuration}
            onChange={(next) => set('minDuration', next)}
            errorMessage={error('minDuration')}
          />
          <TextField
            label="Longest run"
            description="m:ss, e.g. 0:30. Blank: no maximum."
            value={value.maxDuration}
            onChange={(next) => set('maxDuration', next)}
            errorMessage={error('maxDuration')}
          />
        </div>
        <RadioGroup
          label="Audio"
          options={[
            { id: 'any', label: 'Any audio, or none' },
            { id: 'none', label: 'No audio' },
            { id: 'some', label: 'Audio as listed below' },
          ]}
          value={value.audio}
          onChange={(next) => set('audio', next as SpecDraft['audio'])}
          errorMessage={error('audio')}
        />
        {value.audio === 'some' ? (
          <div className="upload-events__audio">
            <TickList
              legend="Audio codecs"
              description="None ticked: any codec (but the file must have audio)."
              choices={MEDIA_AUDIO_CODEC_CHOICES}
              value={value.audioCodecs}
              onChange={(next) => set('audioCodecs', next)}
              errorMessage={error('audioCodecs')}
            />
            <TickList
              legend="Channels"
              choices={CHANNEL_CHOICES}
              value={value.audioChannels}
              onChange={(next) => set('audioChannels', next)}
              errorMessage={error('audioChannels')}
            />
            <TickList
              legend="Sample rates"
              choices={SAMPLE_RATE_CHOICES}
              value={value.audioSampleRates}
              onChange={(next) => set('audioSampleRates', next)}
              errorMessage={error('audioSampleRates')}
            />
          </div>
        ) : null}
        <div className="upload-events__pair">
          <TextField
            label="Largest file"
            description="Blank: any size."
            inputMode="decimal"
            value={value.maxSize}
            onChange={(next) => set('maxSize', next)}
            errorMessage={error('maxSize')}
          />
          <SelectField
            label="Unit"
            options={Object.keys(SIZE_UNITS)}
            value={value.maxSizeUnit}
            onChange={(next) => set('maxSizeUnit', next as SizeUnit)}
          />
        </div>
      </div>
    );
  }

  return (
    <fieldset className="kit-fieldset upload-events__type" aria-label={`${label} files`}>
      <legend className="kit-legend">{label} files</legend>
      <Checkbox
        label={`Check ${label} files against a media spec`}
        value={value.enabled}
        onChange={(enabled) => set('enabled', enabled)}
      />
      {body}
    </fieldset>
  );
}
