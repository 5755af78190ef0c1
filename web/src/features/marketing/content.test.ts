import { galleryItemSchema, HOT_TRENDS_ARCHIVE_COUNT, PUBLIC_ROUTES, thumbnailName } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hotTrendsIssues } from '../../content/hottrends';
import { canonicalUrl, documentTitle, PAGES, pageMeta } from '../../content/pages';
import { site } from '../../content/site';
import {
  creativeServicesGallery,
  eventProductionGallery,
  thumbnailName as localThumbnailName,
} from './gallery/media';

const entrySchema = galleryItemSchema.extend({
  title: z.string().min(20),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

describe('content as data', () => {
  it('has a title, description and canonical URL for every public route', () => {
    for (const route of PUBLIC_ROUTES) {
      const meta = pageMeta(route);
      expect(meta, route).toBeDefined();
      expect(meta!.description.length, route).toBeGreaterThan(50);
      expect(meta!.description.length, route).toBeLessThanOrEqual(200);
    }
    expect(PAGES.map((p) => p.path).sort()).toEqual([...PUBLIC_ROUTES].sort());
    expect(canonicalUrl(pageMeta('/social')!, site.url)).toBe(`${site.url}/contact`);
    expect(canonicalUrl(pageMeta('/home')!, site.url)).toBe(`${site.url}/`);
    expect(documentTitle(pageMeta('/privacy')!)).toBe(`Privacy Policy | ${site.name}`);
    expect(pageMeta('/contact/')?.path).toBe('/contact');
  });

  it('lists about 34 videos and 90 photos as gallery items of SPEC §3', () => {
    expect(creativeServicesGallery).toHaveLength(34);
    expect(eventProductionGallery).toHaveLength(90);
    for (const item of [...creativeServicesGallery, ...eventProductionGallery]) entrySchema.parse(item);
    expect(creativeServicesGallery.every((v) => v.type === 'video' && v.name.endsWith('.mp4'))).toBe(true);
    expect(eventProductionGallery.every((p) => p.type === 'image' && p.name.endsWith('.jpg'))).toBe(true);
    expect(new Set(eventProductionGallery.map((p) => p.orient))).toEqual(new Set(['landscape', 'portrait']));
    expect(thumbnailName(creativeServicesGallery[0]!.name)).toBe('cs-01_thumb.jpg');
    for (const item of [...creativeServicesGallery, ...eventProductionGallery]) {
      expect(localThumbnailName(item.name)).toBe(thumbnailName(item.name));
    }
  });

  it('keeps ten Hot Trends issues, newest first', () => {
    expect(hotTrendsIssues).toHaveLength(HOT_TRENDS_ARCHIVE_COUNT);
    const dates = hotTrendsIssues.map((i) => i.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('names two offices, a phone, an e-mail and the outside products in one place', () => {
    expect(site.offices).toHaveLength(2);
    expect(site.phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
    expect(site.email).toContain('@');
    expect(site.externalAdminUrl).toMatch(/^https:\/\//);
    expect(site.streamingProduct.url).toMatch(/^https:\/\//);
    expect(site.meetingPlanner.url).toMatch(/^https:\/\//);
  });
});
