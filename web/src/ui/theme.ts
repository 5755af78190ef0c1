/**
 * Layout constants of SPEC §9 and the widget defaults of SPEC §5, in one place for the whole
 * web app. CSS reads the same values from custom properties: the layout ones are declared in
 * ui/theme.css (shared with the desktop uploader's window), the widget ones in ui/kit.css.
 * `themeCssVariables()` lists every property with the value it must have, and theme.test.ts checks both
 * stylesheets against it, so TypeScript and CSS never disagree.
 */
export const theme = {
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
  breakpoints: {
    /** large from 1080 px */
    large: 1080,
    /** small up to 839 px */
    small: 839,
    /** extra small up to 600 px */
    extraSmall: 600,
  },
} as const;

export const media = {
  large: `(min-width: ${theme.breakpoints.large}px)`,
  small: `(max-width: ${theme.breakpoints.small}px)`,
  extraSmall: `(max-width: ${theme.breakpoints.extraSmall}px)`,
} as const;

/** Defaults of the widget kit (ui/). Widgets read them from here; their props may override most. */
export const widgetDefaults = {
  /** Select and suggestion lists become visible this long after they open. */
  listAppearDelayMs: 150,
  suggestions: {
    /** The whole drop-down panel. */
    panelMaxHeight: 500,
    /** The option list inside it scrolls beyond this. */
    listMaxHeight: 300,
  },
  date: {
    /** Width of the calendar dialog. */
    dialogWidth: 375,
    /** dayjs format of the calendar dialog's title, e.g. 'Fri, Jan 5'. */
    dialogTitleFormat: 'ddd, MMM D',
  },
  time: {
    /** dayjs display formats of the time input per clock. */
    displayFormat12h: 'hh:mm a',
    displayFormat12hNoMeridiem: 'hh:mm',
    displayFormat24h: 'HH:mm',
  },
  /** A date-and-time pair shares its row 60% / 40%. */
  dateTimeSplit: { date: 60, time: 40 },
  slider: {
    min: 0,
    max: 100,
    precision: 0,
    /** Thumb size in px. */
    handleSize: 20,
    /** Minimum gap between the two handles of a range. */
    snap: 1,
    /** Where a single-value fill starts. */
    origin: 50,
    /** The handles' value bubbles stay visible this long after the last change... */
    activationTimeoutMs: 2000,
    /** ...or this long after the slider's range (its min or max, or 'Unlimited Max') changed. */
    rangeChangeActivationTimeoutMs: 500,
  },
  fillChart: { min: 0, max: 100 },
} as const;

/**
 * Every CSS custom property whose value comes from this file, with that value. Layout properties live in
 * ui/theme.css, kit properties in ui/kit.css; theme.test.ts reads both and compares.
 */
export function themeCssVariables(): Record<string, string> {
  const px = (n: number) => `${n}px`;
  return {
    '--space': px(theme.baseSpacing),
    '--gutter': px(theme.formGutter),
    '--app-bar': px(theme.appBarHeight),
    '--content-top': px(theme.contentTopPadding),
    '--button-height': px(theme.buttonHeight),
    '--button-height-dense': px(theme.buttonHeightDense),
    '--kit-list-panel-max-height': px(widgetDefaults.suggestions.panelMaxHeight),
    '--kit-list-max-height': px(widgetDefaults.suggestions.listMaxHeight),
    '--kit-calendar-dialog-width': px(widgetDefaults.date.dialogWidth),
    '--kit-slider-handle': px(widgetDefaults.slider.handleSize),
    '--kit-date-share': `${widgetDefaults.dateTimeSplit.date}%`,
    '--kit-time-share': `${widgetDefaults.dateTimeSplit.time}%`,
  };
}
