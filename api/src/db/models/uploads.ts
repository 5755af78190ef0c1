import { DataTypes } from 'sequelize';
import { CLOUD_PROVIDERS, IMPORT_STATUSES } from '@avp/shared';
import type { CloudProvider, ImportStatus } from '@avp/shared';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

export const FORM_TYPES = ['creative', 'event', 'sponsor'] as const;
export type FormType = (typeof FORM_TYPES)[number];

export interface SubmissionAttributes {
  id: string;
  userId: number;
  formType: FormType;
  /** The form's own fields (project name, event name, session date...), validated by shared/ schemas. */
  fields: Record<string, unknown>;
  status: 'open' | 'submitted';
  submittedAt: Date | null;
  /** When staff marked the received upload as dealt with. */
  handledAt: Date | null;
  /** Sent while cloud imports were still copying: the staff notice goes out when the last one completes. */
  noticePending: boolean;
  /** The open upload event the form's event name matched (#30); null for free text. */
  uploadEventId: string | null;
  createdAt: Date;
  updatedAt: Date;
}
export type SubmissionCreation = Optional<
  SubmissionAttributes,
  | 'id'
  | 'status'
  | 'submittedAt'
  | 'handledAt'
  | 'noticePending'
  | 'uploadEventId'
  | 'createdAt'
  | 'updatedAt'
>;
export interface SubmissionInstance
  extends Model<SubmissionAttributes, SubmissionCreation>, SubmissionAttributes {}

export function defineSubmission(sequelize: Sequelize): ModelStatic<SubmissionInstance> {
  return sequelize.define<SubmissionInstance>(
    'Submission',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      formType: { type: DataTypes.STRING(16), allowNull: false, validate: { isIn: [FORM_TYPES] } },
      fields: { type: DataTypes.JSON, allowNull: false },
      status: {
        type: DataTypes.STRING(16),
        allowNull: false,
        defaultValue: 'open',
        validate: { isIn: [['open', 'submitted']] },
      },
      submittedAt: { type: DataTypes.DATE, allowNull: true },
      handledAt: { type: DataTypes.DATE, allowNull: true },
      noticePending: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      uploadEventId: { type: DataTypes.UUID, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'submissions', underscored: true },
  );
}

export interface SubmissionFileAttributes {
  id: string;
  submissionId: string;
  name: string;
  /** Bytes; BIGINT because video files pass 2 GiB. */
  size: number;
  type: string;
  /** The file's own modification time, ms since the epoch (BIGINT). */
  lastModified: number | null;
  sha256: string | null;
  partSize: number;
  partCount: number;
  storageKey: string;
  /** The S3 multipart upload id; null for the local driver. */
  storageUploadId: string | null;
  status: 'uploading' | 'complete';
  completedAt: Date | null;
  /** The check computed at registration from the client's facts (#30); null when none was reported. */
  checkVerdict: 'ok' | 'warn' | 'block' | 'unreadable' | null;
  checkIssues: string[] | null;
  /** Staff review (#31): 'new' until reviewed, and again for a new version. */
  reviewState: 'new' | 'accepted' | 'needs_new_version';
  reviewMessage: string | null;
  reviewedAt: Date | null;
  reviewedBy: number | null;
  /** 1 for a first upload; a new version is the replaced file's version + 1. */
  version: number;
  /** The previous version, which is kept. */
  replacesFileId: string | null;
  /** null: no poster tried yet; 'made' (posterKey holds it); 'none': nothing could be drawn. */
  posterState: 'made' | 'none' | null;
  posterKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}
export type SubmissionFileCreation = Optional<
  SubmissionFileAttributes,
  | 'id'
  | 'lastModified'
  | 'sha256'
  | 'storageUploadId'
  | 'status'
  | 'completedAt'
  | 'checkVerdict'
  | 'checkIssues'
  | 'reviewState'
  | 'reviewMessage'
  | 'reviewedAt'
  | 'reviewedBy'
  | 'version'
  | 'replacesFileId'
  | 'posterState'
  | 'posterKey'
  | 'createdAt'
  | 'updatedAt'
>;
export interface SubmissionFileInstance
  extends Model<SubmissionFileAttributes, SubmissionFileCreation>, SubmissionFileAttributes {}

export function defineSubmissionFile(sequelize: Sequelize): ModelStatic<SubmissionFileInstance> {
  return sequelize.define<SubmissionFileInstance>(
    'SubmissionFile',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      submissionId: { type: DataTypes.UUID, allowNull: false },
      name: { type: DataTypes.STRING(255), allowNull: false },
      size: { type: DataTypes.BIGINT, allowNull: false },
      type: { type: DataTypes.STRING(255), allowNull: false, defaultValue: '' },
      lastModified: { type: DataTypes.BIGINT, allowNull: true },
      sha256: { type: DataTypes.STRING(64), allowNull: true },
      partSize: { type: DataTypes.INTEGER, allowNull: false },
      partCount: { type: DataTypes.INTEGER, allowNull: false },
      storageKey: { type: DataTypes.STRING(512), allowNull: false },
      storageUploadId: { type: DataTypes.STRING(1024), allowNull: true },
      status: {
        type: DataTypes.STRING(16),
        allowNull: false,
        defaultValue: 'uploading',
        validate: { isIn: [['uploading', 'complete']] },
      },
      completedAt: { type: DataTypes.DATE, allowNull: true },
      checkVerdict: { type: DataTypes.STRING(16), allowNull: true },
      checkIssues: { type: DataTypes.JSON, allowNull: true },
      reviewState: {
        type: DataTypes.STRING(24),
        allowNull: false,
        defaultValue: 'new',
        validate: { isIn: [['new', 'accepted', 'needs_new_version']] },
      },
      reviewMessage: { type: DataTypes.TEXT, allowNull: true },
      reviewedAt: { type: DataTypes.DATE, allowNull: true },
      reviewedBy: { type: DataTypes.INTEGER, allowNull: true },
      version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      replacesFileId: { type: DataTypes.UUID, allowNull: true },
      posterState: { type: DataTypes.STRING(8), allowNull: true },
      posterKey: { type: DataTypes.STRING(512), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'submission_files', underscored: true },
  );
}

export interface FilePartAttributes {
  id: number;
  fileId: string;
  /** 1-based, as in S3. */
  partNumber: number;
  size: number;
  etag: string | null;
  /** The write that stored the part's current bytes (its claim's token). */
  writeId: string | null;
  createdAt: Date;
}
export type FilePartCreation = Optional<FilePartAttributes, 'id' | 'etag' | 'writeId' | 'createdAt'>;
export interface FilePartInstance extends Model<FilePartAttributes, FilePartCreation>, FilePartAttributes {}

export function defineFilePart(sequelize: Sequelize): ModelStatic<FilePartInstance> {
  return sequelize.define<FilePartInstance>(
    'FilePart',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      fileId: { type: DataTypes.UUID, allowNull: false, unique: 'file_parts_file_part' },
      partNumber: { type: DataTypes.INTEGER, allowNull: false, unique: 'file_parts_file_part' },
      size: { type: DataTypes.INTEGER, allowNull: false },
      etag: { type: DataTypes.STRING(255), allowNull: true },
      writeId: { type: DataTypes.STRING(36), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'file_parts', underscored: true, updatedAt: false },
  );
}

export interface FileImportAttributes {
  fileId: string;
  userId: number;
  provider: CloudProvider;
  sourceFileId: string | null;
  sourceLink: string | null;
  /** Encrypted (modules/imports/token-box.ts); cleared once the import is complete. */
  accessToken: string | null;
  status: ImportStatus;
  bytesDone: number;
  bytesPerSecond: number | null;
  error: string | null;
  /** Failures in a row without progress; reset when a part is stored. */
  attempts: number;
  /** Not before this (ms since the epoch, by the database's clock): backoff after a failure. */
  nextAttemptAt: number;
  leaseToken: string | null;
  leaseExpiresAt: number | null;
  createdAt: Date;
  updatedAt: Date;
}
export type FileImportCreation = Optional<
  FileImportAttributes,
  | 'sourceFileId'
  | 'sourceLink'
  | 'accessToken'
  | 'status'
  | 'bytesDone'
  | 'bytesPerSecond'
  | 'error'
  | 'attempts'
  | 'nextAttemptAt'
  | 'leaseToken'
  | 'leaseExpiresAt'
  | 'createdAt'
  | 'updatedAt'
>;
export interface FileImportInstance
  extends Model<FileImportAttributes, FileImportCreation>, FileImportAttributes {}

export function defineFileImport(sequelize: Sequelize): ModelStatic<FileImportInstance> {
  return sequelize.define<FileImportInstance>(
    'FileImport',
    {
      fileId: { type: DataTypes.UUID, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      provider: { type: DataTypes.STRING(16), allowNull: false, validate: { isIn: [CLOUD_PROVIDERS] } },
      sourceFileId: { type: DataTypes.STRING(512), allowNull: true },
      sourceLink: { type: DataTypes.TEXT, allowNull: true },
      accessToken: { type: DataTypes.TEXT, allowNull: true },
      status: {
        type: DataTypes.STRING(16),
        allowNull: false,
        defaultValue: 'queued',
        validate: { isIn: [IMPORT_STATUSES] },
      },
      bytesDone: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      bytesPerSecond: { type: DataTypes.BIGINT, allowNull: true },
      error: { type: DataTypes.STRING(512), allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      nextAttemptAt: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      leaseToken: { type: DataTypes.STRING(36), allowNull: true },
      leaseExpiresAt: { type: DataTypes.BIGINT, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'file_imports', underscored: true },
  );
}

export interface ReviewRoundChange {
  fileId: string;
  name: string;
  version: number;
  state: 'new' | 'accepted' | 'needs_new_version';
  message: string | null;
}

/** The review changes of one submission reported by one client e-mail (#31). */
export interface ReviewRoundAttributes {
  id: number;
  submissionId: string;
  /** The round's outbox row; the round is open while that row is still queued and unclaimed. */
  mailId: number | null;
  changes: ReviewRoundChange[];
  createdAt: Date;
  updatedAt: Date;
}
export type ReviewRoundCreation = Optional<
  ReviewRoundAttributes,
  'id' | 'mailId' | 'createdAt' | 'updatedAt'
>;
export interface ReviewRoundInstance
  extends Model<ReviewRoundAttributes, ReviewRoundCreation>, ReviewRoundAttributes {}

export function defineReviewRound(sequelize: Sequelize): ModelStatic<ReviewRoundInstance> {
  return sequelize.define<ReviewRoundInstance>(
    'ReviewRound',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      submissionId: { type: DataTypes.UUID, allowNull: false },
      mailId: { type: DataTypes.INTEGER, allowNull: true },
      changes: { type: DataTypes.JSON, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'review_rounds', underscored: true },
  );
}
