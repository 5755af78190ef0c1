import { beforeAll, describe, expect, it } from 'vitest';
import { media, theme, themeCssVariables, widgetDefaults } from './theme';

// Vitest stubs stylesheets (even '?raw' imports come back empty), so the test reads the files. It runs in
// Node; the lint rule against node: imports guards the app code, which this is not.
let appCss = '';
let themeCss = '';
let kitCss = '';
beforeAll(async () => {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  appCss = await readFile(join(import.meta.dirname, '../app/styles.css'), 'utf8');
  themeCss = await readFile(join(import.meta.dirname, 'theme.css'), 'utf8');
  kitCss = await readFile(join(import.meta.dirname, 'kit.css'), 'utf8');
});

/** The custom properties declared in a stylesheet's :root blocks. */
function rootProperties(css: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const block of css.matchAll(/:root\s*{([^}]*)}/g)) {
    for (const declaration of (block[1] ?? '').matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) {
      properties.set(declaration[1] ?? '', (declaration[2] ?? '').trim());
    }
  }
  return properties;
}

describe('theme (SPEC §9 layout constants, one file for the web app)', () => {
  it('has the spec’s numbers', () => {
    expect(theme).toMatchObject({
      minPageWidth: 360,
      minPageHeight: 500,
      appBarHeight: 64,
      breadcrumbHeight: 32,
      resizeThreshold: 1260,
      maxTrailerHeight: 600,
      baseSpacing: 8,
      formGutter: 16,
      contentTopPadding: 60,
      buttonHeight: 40,
      buttonHeightDense: 32,
      breakpoints: { large: 1080, small: 839, extraSmall: 600 },
    });
    expect(media).toEqual({
      large: '(min-width: 1080px)',
      small: '(max-width: 839px)',
      extraSmall: '(max-width: 600px)',
    });
  });

  it('has the widget defaults of the kit', () => {
    expect(widgetDefaults.listAppearDelayMs).toBe(150);
    expect(widgetDefaults.suggestions).toEqual({ panelMaxHeight: 500, listMaxHeight: 300 });
    expect(widgetDefaults.date).toEqual({ dialogWidth: 375, dialogTitleFormat: 'ddd, MMM D' });
    expect(widgetDefaults.time.displayFormat12h).toBe('hh:mm a');
    expect(widgetDefaults.dateTimeSplit).toEqual({ date: 60, time: 40 });
    expect(widgetDefaults.slider).toEqual({
      min: 0,
      max: 100,
      precision: 0,
      handleSize: 20,
      snap: 1,
      origin: 50,
      activationTimeoutMs: 2000,
      rangeChangeActivationTimeoutMs: 500,
    });
    expect(widgetDefaults.fillChart).toEqual({ min: 0, max: 100 });
  });

  it('every CSS custom property from the theme has the theme’s value in ui/theme.css or ui/kit.css', () => {
    const declared = new Map([...rootProperties(themeCss), ...rootProperties(kitCss)]);
    for (const [property, value] of Object.entries(themeCssVariables())) {
      expect(declared.get(property), property).toBe(value);
    }
  });

  it('the page minimums in ui/theme.css are the theme’s, and the app’s stylesheet imports it', () => {
    expect(themeCss).toMatch(new RegExp(`min-width:\\s*${theme.minPageWidth}px`));
    expect(themeCss).toMatch(new RegExp(`min-height:\\s*${theme.minPageHeight}px`));
    expect(appCss).toMatch(/@import '\.\.\/ui\/theme\.css';/);
  });

  it('every media query of the stylesheets uses a theme breakpoint', () => {
    const allowed = new Set<string>(Object.values(media));
    for (const css of [appCss, themeCss, kitCss]) {
      for (const query of css.matchAll(/@media\s*([^{]+){/g)) {
        expect(allowed.has((query[1] ?? '').trim()), query[1]).toBe(true);
      }
    }
  });
});
