import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

export interface ContactMessageAttributes {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  company: string | null;
  phone: string | null;
  title: string | null;
  /** Empty for a newsletter sign-up (SPEC §2 'Contact form': the newsletter variant hides the message). */
  message: string | null;
  subject: string;
  hottrends: 'YES' | 'NO';
  ip: string | null;
  createdAt: Date;
}
export type ContactMessageCreation = Optional<
  ContactMessageAttributes,
  'id' | 'company' | 'phone' | 'title' | 'message' | 'hottrends' | 'ip' | 'createdAt'
>;
export interface ContactMessageInstance
  extends Model<ContactMessageAttributes, ContactMessageCreation>, ContactMessageAttributes {}

export function defineContactMessage(sequelize: Sequelize): ModelStatic<ContactMessageInstance> {
  return sequelize.define<ContactMessageInstance>(
    'ContactMessage',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      email: { type: DataTypes.STRING(254), allowNull: false },
      firstName: { type: DataTypes.STRING(100), allowNull: false },
      lastName: { type: DataTypes.STRING(100), allowNull: false },
      company: { type: DataTypes.STRING(200), allowNull: true },
      phone: { type: DataTypes.STRING(40), allowNull: true },
      title: { type: DataTypes.STRING(200), allowNull: true },
      message: { type: DataTypes.TEXT, allowNull: true },
      subject: { type: DataTypes.STRING(255), allowNull: false },
      hottrends: {
        type: DataTypes.STRING(3),
        allowNull: false,
        defaultValue: 'NO',
        validate: { isIn: [['YES', 'NO']] },
      },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'contact_messages', underscored: true, updatedAt: false },
  );
}
