/** Choices of a Select or a Suggestions list: plain strings, or an id with the text shown for it. */
export interface ListOption {
  id: string;
  label: string;
  isDisabled?: boolean;
}

export type ListOptions = readonly (string | ListOption)[];

export function normalizeOptions(options: ListOptions): ListOption[] {
  return options.map((option) => (typeof option === 'string' ? { id: option, label: option } : option));
}

/** SPEC §5: suggestions match case-insensitively on a substring. */
export function matchesSuggestion(text: string, input: string): boolean {
  return text.toLocaleLowerCase().includes(input.toLocaleLowerCase());
}
