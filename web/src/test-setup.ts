import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no layout engine: scrolling is a no-op there, and the real behaviour is checked in Chromium.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

afterEach(() => cleanup());
