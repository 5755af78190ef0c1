import { useCallback, useState } from 'react';

/**
 * A value that is either controlled (value given) or kept here (defaultValue), with one setter that
 * always reports to onChange. Lets every widget work inside a form and stand-alone on the showcase.
 */
export function useControllable<V>(
  value: V | undefined,
  defaultValue: V,
  onChange: ((value: V) => void) | undefined,
): [V, (next: V) => void] {
  const [own, setOwn] = useState<V>(defaultValue);
  const controlled = value !== undefined;
  const set = useCallback(
    (next: V) => {
      if (!controlled) setOwn(next);
      onChange?.(next);
    },
    [controlled, onChange],
  );
  return [controlled ? value : own, set];
}
