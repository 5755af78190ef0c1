/**
 * What a failed call means, in words: the system's codes for a request that got no answer become a
 * sentence naming the server; the engine waits on no answer and 5xx, stops on a refused token, and fails
 * with the server's own message on any other refusal.
 */
import { UploadError } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { NetworkError, networkWords } from '../src/engine/index.js';
import { verdict } from '../src/engine/failures.js';

const server = 'https://uploads.example.com';

describe('failures in words', () => {
  it('names the cause of a request that got no answer, never the bare code', () => {
    const words = (code: string, extra: object = {}) =>
      networkWords({ code, ...extra }, server, { connectMs: 10_000 }).message;
    expect(words('ECONNREFUSED')).toBe(`Nothing answers at ${server} (the connection was refused).`);
    expect(words('ETIMEDOUT', { event: 'connect' })).toBe(`No answer from ${server} within 10 s.`);
    expect(words('ETIMEDOUT', { event: 'socket' })).toBe(
      `${server} stopped answering (no data for too long).`,
    );
    expect(words('ECONNRESET')).toBe(`The connection to ${server} was cut.`);
    expect(words('ENOTFOUND')).toBe(
      `The name of ${server} could not be looked up (no network, or a wrong address).`,
    );
    expect(words('ENETUNREACH')).toBe(`${server} cannot be reached from this network.`);
    expect(words('SOMETHING_NEW')).toBe(`No answer from ${server}.`);
    for (const code of ['ECONNREFUSED', 'ETIMEDOUT', 'ECONNRESET', 'ENOTFOUND'])
      expect(words(code)).not.toContain(code);
  });

  it('waits on no answer and on 5xx, stops on a refused token, fails with the server’s message otherwise', () => {
    expect(verdict(new NetworkError('Nothing answers.', 'ECONNREFUSED'), null)).toEqual({
      kind: 'wait',
      failure: { reason: 'unreachable', message: 'Nothing answers.' },
    });
    expect(verdict(new UploadError(0, 'network', 'The connection was cut.'), null)).toEqual({
      kind: 'wait',
      failure: { reason: 'unreachable', message: 'The connection was cut.' },
    });
    expect(verdict(new UploadError(503, 'unavailable', 'Back at 10:00.'), null)).toEqual({
      kind: 'wait',
      failure: { reason: 'server-error', message: 'The server answered 503: Back at 10:00.' },
    });
    expect(verdict(new UploadError(401, 'unauthenticated', 'Sign in.'), null)).toEqual({
      kind: 'auth',
      error: { code: 'auth', message: 'The session has expired, please relogin and try again.' },
    });
    expect(verdict(new UploadError(403, 'forbidden', 'Not yours.'), null)).toEqual({
      kind: 'auth',
      error: { code: 'auth', message: 'Not yours.' },
    });
    expect(
      verdict(new UploadError(413, 'quota_exceeded', 'Your uploads in progress exceed 500 GB.'), null),
    ).toEqual({
      kind: 'server',
      error: { code: 'server', message: 'Your uploads in progress exceed 500 GB.' },
    });
    expect(verdict(new UploadError(0, 'file_changed', 'changed'), null)).toEqual({ kind: 'local' });
  });
});
