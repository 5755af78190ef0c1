/**
 * Typed entry shared by the date and time inputs: the text is read when the person commits it (Enter or
 * leaving the field). A good entry becomes the value; a bad one shows its message for `errorClearMs`
 * (SPEC §5: 2500 ms) and then the text reverts to the previous value. Typing again cancels the revert.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type EntryResult = { value: string } | { error: string };

export interface EntryFieldOptions {
  /** The committed value ('' when empty). */
  value: string;
  /** The value as shown in the input. */
  display: (value: string) => string;
  /** Reads the typed text. */
  read: (text: string) => EntryResult;
  commit: (value: string) => void;
  errorClearMs: number;
}

export function useEntryField({ value, display, read, commit, errorClearMs }: EntryFieldOptions) {
  const [draft, setDraft] = useState(() => display(value));
  const [shownValue, setShownValue] = useState(value);
  const [error, setError] = useState<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // A new value from outside (a form reset, the calendar, a default) replaces the text.
  if (value !== shownValue) {
    setShownValue(value);
    setDraft(display(value));
  }

  const cancelRevert = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);

  useEffect(() => cancelRevert, [cancelRevert]);

  const showError = useCallback(
    (message: string, revertTo: string) => {
      cancelRevert();
      setError(message);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        setError(undefined);
        setDraft(revertTo);
      }, errorClearMs);
    },
    [cancelRevert, errorClearMs],
  );

  const onTextChange = useCallback(
    (text: string) => {
      if (timer.current !== undefined) {
        cancelRevert();
        setError(undefined);
      }
      setDraft(text);
    },
    [cancelRevert],
  );

  /** Reads `text` (the current draft unless given) and commits or complains. */
  const commitText = useCallback(
    (text: string = draft) => {
      // While a message shows, the text is the one it is about: reading it again changes nothing.
      if (timer.current !== undefined) return;
      const result = read(text);
      if ('error' in result) {
        showError(result.error, display(value));
        return;
      }
      cancelRevert();
      setError(undefined);
      setDraft(display(result.value));
      if (result.value !== value) commit(result.value);
    },
    [draft, read, showError, display, value, cancelRevert, commit],
  );

  return { draft, error, onTextChange, commitText };
}
