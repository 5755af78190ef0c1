import { describe, expect, it } from 'vitest';
import { listedStores, searchStores } from './store-search.js';

const stores = [
  { name: 'Demo Expo 2024', store_id: 'demo-expo', is_active: true, is_archived: false },
  { name: 'MedTech Summit', store_id: 'medtech-24', is_active: true, is_archived: false },
  { name: 'Late Show', store_id: 'demo-late', is_active: true, is_archived: false },
  { name: 'Sleeping Fair', store_id: 'demo-inactive', is_active: false, is_archived: false },
  { name: 'Old Fair', store_id: 'demo-archived', is_active: true, is_archived: true },
];

const ids = (list: { store_id: string }[]) => list.map((s) => s.store_id);

describe('SPEC §2 store selector search (more than 2 characters, name lowercased or store id)', () => {
  it.each([
    ['', []],
    ['de', []],
    ['  de  ', []], // padding does not make a short query long enough
    ['dem', ['demo-expo', 'demo-late', 'demo-inactive', 'demo-archived']],
    ['DEMO', ['demo-expo', 'demo-late', 'demo-inactive', 'demo-archived']],
    ['expo', ['demo-expo']],
    ['Expo 2024', ['demo-expo']],
    ['summit', ['medtech-24']],
    ['h-24', ['medtech-24']], // only in the store id
    ['MEDTECH-24', ['medtech-24']], // store id, case-insensitive
    ['fair', ['demo-inactive', 'demo-archived']],
    ['late ', ['demo-late']], // trailing space is ignored
    ['nothing like it', []],
  ] as const)('%j -> %j', (text, expected) => {
    expect(ids(searchStores(stores, text))).toEqual(expected);
  });

  it('lists only active, unarchived stores', () => {
    expect(ids(listedStores(stores))).toEqual(['demo-expo', 'medtech-24', 'demo-late']);
  });
});
