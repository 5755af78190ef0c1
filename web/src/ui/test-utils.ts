/** Test helpers of the widget kit (the fake-timer shim they need lives in src/test-setup.ts). */
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

/**
 * user-event driving Vitest's fake clock (call vi.useFakeTimers() first). Its pauses between events are
 * 0 ms, so the clock only moves when a test advances it: delays can be watched from their very start.
 */
export function setupUser() {
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}
