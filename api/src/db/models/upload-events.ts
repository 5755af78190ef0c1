import { DataTypes } from 'sequelize';
import type { MediaCheck, MediaKind, MediaSpec } from '@avp/shared';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

/** Issue #30: upload events with their media specs, and the facts read from each file. */

export interface UploadEventSpecsColumn {
  creative: MediaSpec | null;
  event: MediaSpec | null;
  sponsor: MediaSpec | null;
}

export interface UploadEventAttributes {
  id: string;
  name: string;
  /** Trimmed and case-folded name: unique among events not archived (a partial unique index). */
  nameKey: string;
  startsOn: string;
  endsOn: string;
  timeZone: string;
  deadline: Date;
  specs: UploadEventSpecsColumn;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
export type UploadEventCreation = Optional<
  UploadEventAttributes,
  'id' | 'archivedAt' | 'createdAt' | 'updatedAt'
>;
export interface UploadEventInstance
  extends Model<UploadEventAttributes, UploadEventCreation>, UploadEventAttributes {}

export function defineUploadEvent(sequelize: Sequelize): ModelStatic<UploadEventInstance> {
  return sequelize.define<UploadEventInstance>(
    'UploadEvent',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      name: { type: DataTypes.STRING(120), allowNull: false },
      nameKey: { type: DataTypes.STRING(120), allowNull: false },
      startsOn: { type: DataTypes.STRING(10), allowNull: false },
      endsOn: { type: DataTypes.STRING(10), allowNull: false },
      timeZone: { type: DataTypes.STRING(64), allowNull: false },
      deadline: { type: DataTypes.DATE, allowNull: false },
      specs: { type: DataTypes.JSON, allowNull: false },
      archivedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'upload_events', underscored: true },
  );
}

export const MEDIA_FACT_SOURCES = ['client', 'server'] as const;
export type MediaFactSource = (typeof MEDIA_FACT_SOURCES)[number];

export interface MediaFactsAttributes {
  id: number;
  fileId: string;
  source: MediaFactSource;
  /** False when the reader gave no facts ("Could not read this file's details"). */
  readable: boolean;
  kind: MediaKind | null;
  container: string | null;
  videoCodec: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  durationSeconds: number | null;
  audioCodec: string | null;
  audioChannels: number | null;
  audioSampleRate: number | null;
  sizeBytes: number | null;
  /** What reading cost (server reads only). */
  bytesRead: number | null;
  /** MediaInfoLib's own JSON (server reads only). */
  raw: unknown;
  verdict: MediaCheck['verdict'];
  issues: string[];
  createdAt: Date;
  updatedAt: Date;
}
export type MediaFactsCreation = Optional<
  MediaFactsAttributes,
  | 'id'
  | 'kind'
  | 'container'
  | 'videoCodec'
  | 'width'
  | 'height'
  | 'fps'
  | 'durationSeconds'
  | 'audioCodec'
  | 'audioChannels'
  | 'audioSampleRate'
  | 'sizeBytes'
  | 'bytesRead'
  | 'raw'
  | 'createdAt'
  | 'updatedAt'
>;
export interface MediaFactsInstance
  extends Model<MediaFactsAttributes, MediaFactsCreation>, MediaFactsAttributes {}

export function defineMediaFacts(sequelize: Sequelize): ModelStatic<MediaFactsInstance> {
  return sequelize.define<MediaFactsInstance>(
    'MediaFacts',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      fileId: { type: DataTypes.UUID, allowNull: false, unique: 'media_facts_file_source_unique' },
      source: {
        type: DataTypes.STRING(8),
        allowNull: false,
        unique: 'media_facts_file_source_unique',
        validate: { isIn: [MEDIA_FACT_SOURCES] },
      },
      readable: { type: DataTypes.BOOLEAN, allowNull: false },
      kind: { type: DataTypes.STRING(8), allowNull: true },
      container: { type: DataTypes.STRING(64), allowNull: true },
      videoCodec: { type: DataTypes.STRING(64), allowNull: true },
      width: { type: DataTypes.INTEGER, allowNull: true },
      height: { type: DataTypes.INTEGER, allowNull: true },
      fps: { type: DataTypes.DOUBLE, allowNull: true },
      durationSeconds: { type: DataTypes.DOUBLE, allowNull: true },
      audioCodec: { type: DataTypes.STRING(64), allowNull: true },
      audioChannels: { type: DataTypes.INTEGER, allowNull: true },
      audioSampleRate: { type: DataTypes.INTEGER, allowNull: true },
      sizeBytes: { type: DataTypes.BIGINT, allowNull: true },
      bytesRead: { type: DataTypes.BIGINT, allowNull: true },
      raw: { type: DataTypes.JSON, allowNull: true },
      verdict: { type: DataTypes.STRING(16), allowNull: false },
      issues: { type: DataTypes.JSON, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'media_facts', underscored: true },
  );
}
