import { DataTypes } from 'sequelize';
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
  createdAt: Date;
  updatedAt: Date;
}
export type SubmissionCreation = Optional<
  SubmissionAttributes,
  'id' | 'status' | 'submittedAt' | 'handledAt' | 'createdAt' | 'updatedAt'
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
  createdAt: Date;
  updatedAt: Date;
}
export type SubmissionFileCreation = Optional<
  SubmissionFileAttributes,
  'id' | 'lastModified' | 'sha256' | 'storageUploadId' | 'status' | 'completedAt' | 'createdAt' | 'updatedAt'
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
