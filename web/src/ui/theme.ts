/**
 * Layout constants of SPEC §9, in one place for the whole web app. CSS reads the same values from the
 * custom properties written by `themeCssVariables()` so that TypeScript and stylesheets never disagree.
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
