import { randomBytes } from 'node:crypto';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import express from 'express';
import type { Router } from 'express';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import { recordChange } from './audit.js';
import type { Actor } from './audit.js';

/**
 * Images staff upload: store images, the 'Image' of SPEC §2's store form ('a file name under the
 * e-mail images directory'), kept as sent after checking they are images; product images, resized to fit
 * 800×800 and stored as WebP. Both live under DATA_DIR/media and are served at /media/stores/ and
 * /media/products/, where the store pages look for them.
 */

/** sharp (libvips) is loaded with the first image, not with the server: a smaller heap, cheaper GCs. */
async function loadSharp() {
  return (await import('sharp')).default;
}

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
const EXTENSION: Record<string, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };
export const PRODUCT_IMAGE_SIZE = 800;
const BASE_NAME_MAX = 40;

// not in SPEC: the staff screens' own texts.
export const IMAGE_NOT_AN_IMAGE = 'This file is not a PNG, JPEG, WebP or GIF image.';
export const IMAGE_TOO_LARGE = 'Images may be at most 5 MB.';
export const IMAGE_EMPTY = 'The upload was empty.';

export function mediaDir(config: Pick<Config, 'DATA_DIR'>, kind: 'stores' | 'products'): string {
  return path.join(config.DATA_DIR, 'media', kind);
}

/** The raw body of an image upload (Content-Type image/…), at most 5 MB. */
export const imageBody = express.raw({ type: () => true, limit: IMAGE_MAX_BYTES });

/**
 * A safe file name from what the browser called the file: lowercase letters, digits, dots, dashes and
 * underscores, no leading dot, the extension of the detected format. The base is short enough that the
 * whole name, with a '-2' or a random suffix and the extension, fits the audit log's 64-character entity id.
 */
export function safeBaseName(original: string | undefined): string {
  const base = path
    .basename(original ?? '')
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .slice(0, BASE_NAME_MAX)
    .replace(/^[-_]+|[-_]+$/g, '');
  return base === '' ? 'image' : base;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function detectFormat(bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw new AppError(400, 'image_empty', IMAGE_EMPTY);
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata();
    const ext = meta.format ? EXTENSION[meta.format] : undefined;
    if (ext) return ext;
  } catch {
    // not an image sharp can read
  }
  throw new AppError(415, 'not_an_image', IMAGE_NOT_AN_IMAGE);
}

function bodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

/** The store images staff have uploaded, by name: what a store's Image may name. */
export async function listStoreImages(config: Pick<Config, 'DATA_DIR'>): Promise<string[]> {
  try {
    const entries = await readdir(mediaDir(config, 'stores'), { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort((a, b) => a.localeCompare(b));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export async function storeImageExists(config: Pick<Config, 'DATA_DIR'>, name: string): Promise<boolean> {
  // The form's schema already refuses slashes; a dot-file is never served, so it is no image either.
  if (name.startsWith('.') || path.basename(name) !== name) return false;
  try {
    return (await stat(path.join(mediaDir(config, 'stores'), name))).isFile();
  } catch {
    return false;
  }
}

/** Stores a store image under its own (made safe) name; a name already taken gets -2, -3… */
export async function saveStoreImage(
  deps: { config: Config; db: Database },
  actor: Actor,
  body: unknown,
  originalName: string | undefined,
): Promise<{ image: string; url: string }> {
  const bytes = bodyOf(body);
  const ext = await detectFormat(bytes);
  const dir = mediaDir(deps.config, 'stores');
  await mkdir(dir, { recursive: true });
  const base = safeBaseName(originalName);
  let name = `${base}.${ext}`;
  for (let n = 2; await exists(path.join(dir, name)); n++) name = `${base}-${n}.${ext}`;
  await writeFile(path.join(dir, name), bytes, { flag: 'wx' });
  await recordChange(deps.db, actor, {
    action: 'store_image_upload',
    entity: 'media',
    entityId: name,
    after: { image: name, bytes: bytes.length },
  });
  return { image: name, url: `/media/stores/${name}` };
}

/** Resizes a product image to fit 800×800 (never enlarging) and stores it as WebP under a fresh name. */
export async function saveProductImage(
  deps: { config: Config; db: Database },
  actor: Actor,
  body: unknown,
  originalName: string | undefined,
): Promise<{ url: string; width: number; height: number }> {
  const bytes = bodyOf(body);
  await detectFormat(bytes);
  const sharp = await loadSharp();
  // The format check reads the header only; a header whose pixel data is missing or corrupt fails here.
  const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize(PRODUCT_IMAGE_SIZE, PRODUCT_IMAGE_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw new AppError(415, 'not_an_image', IMAGE_NOT_AN_IMAGE);
    });
  const dir = mediaDir(deps.config, 'products');
  await mkdir(dir, { recursive: true });
  const name = `${safeBaseName(originalName)}-${randomBytes(4).toString('hex')}.webp`;
  await writeFile(path.join(dir, name), data, { flag: 'wx' });
  const url = `/media/products/${name}`;
  await recordChange(deps.db, actor, {
    action: 'product_image_upload',
    entity: 'media',
    entityId: name,
    after: { url, width: info.width, height: info.height, bytes: data.length },
  });
  return { url, width: info.width, height: info.height };
}

/** GET /media/stores/* and /media/products/*: the uploaded images, never a directory listing or a dotfile. */
export function staffMediaRoutes(config: Pick<Config, 'DATA_DIR'>): Router {
  const router = express.Router();
  const options = { index: false, dotfiles: 'ignore', fallthrough: true, maxAge: '1h' } as const;
  router.use('/media/stores', express.static(mediaDir(config, 'stores'), options));
  router.use('/media/products', express.static(mediaDir(config, 'products'), options));
  return router;
}
