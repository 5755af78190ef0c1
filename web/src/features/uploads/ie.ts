/** SPEC §2: Internet Explorer users see a dialog saying the upload utility is incompatible. */

/** not in SPEC: the dialog's wording. */
export const IE_INCOMPATIBLE =
  'This file upload utility is not compatible with Internet Explorer. Please use a current version of Chrome, Edge, Firefox or Safari.';

export function isInternetExplorer(userAgent: string): boolean {
  return /MSIE |Trident\//.test(userAgent);
}
