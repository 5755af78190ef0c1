import { describe, expect, it } from 'vitest';
import { isKnownRoute, matchRoute, usesBareLayout } from './routes.js';

describe('SPEC §2 Screens and routes: known routes (anything else is the 404 page)', () => {
  it.each([
    '/',
    '/home',
    '/creative_services',
    '/event_production',
    '/online_meetings',
    '/hottrends',
    '/about',
    '/event_planner',
    '/privacy',
    '/contact',
    '/social',
    '/blog',
    '/coming_soon',
    '/client',
    '/client_test',
    '/register',
    '/exhibitor_order',
    '/exhibitor_order/demo-expo',
    '/exhibitor_order/demo-expo/checkout',
    '/exhibitor_order/demo-expo/',
    '/payment',
    '/confirmation',
    '/manage_order_forms',
    '/staff',
    '/staff/products',
    '/staff/orders',
    '/staff/orders/12',
    '/staff/payment-test',
    '/staff/pull-sheet',
    '/staff/audit',
    '/staff/uploads',
    '',
  ])('%j is known', (path) => {
    expect(isKnownRoute(path)).toBe(true);
  });

  it.each([
    '/nope',
    '/about/team',
    '/exhibitor_order/demo-expo/pay',
    '/exhibitor_order//checkout',
    '/Contact',
    '/staff/nothing',
    '/staff/orders/12/lines',
  ])('%j is unknown', (path) => {
    expect(isKnownRoute(path)).toBe(false);
  });
});

describe('matchRoute', () => {
  it.each([
    ['/exhibitor_order/:storeId', '/exhibitor_order/x', true],
    ['/exhibitor_order/:storeId', '/exhibitor_order', false],
    ['/exhibitor_order/:storeId', '/exhibitor_order/', false],
    ['/staff/*', '/staff/a/b', true],
    ['/staff/*', '/staff', false],
    ['/about', '/about/', true],
    ['/about', '/about/x', false],
  ] as const)('%s vs %s -> %s', (pattern, path, expected) => {
    expect(matchRoute(pattern, path)).toBe(expected);
  });
});

describe('SPEC §2 Layout elements: header, contact and footer hidden on admin and order pages', () => {
  it.each([
    ['/manage_order_forms', true],
    ['/exhibitor_order', true],
    ['/exhibitor_order/demo-expo/checkout', true],
    ['/payment', true],
    ['/confirmation/', true],
    ['/staff/orders', true],
    ['/', false],
    ['/contact', false],
    ['/payments', false],
    ['/exhibitor_orders', false],
  ] as const)('%s -> %s', (path, bare) => {
    expect(usesBareLayout(path)).toBe(bare);
  });
});
