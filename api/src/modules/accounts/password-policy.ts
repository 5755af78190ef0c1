import { passwordPolicyError } from '@avp/shared';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** not in SPEC: the policy's refusal of a common, easily guessed password. */
export const PASSWORD_TOO_COMMON =
  'This password is too common and easy to guess. Please choose a different one.';

/**
 * zxcvbn's scores 0 and 1 mean fewer than a million guesses: a leaked password, one with the usual
 * endings or letter swaps ('P@ssw0rd', 'sunshine1'), a keyboard walk, a digit run, a year. Those are the
 * first any guessing attack tries; from score 2 a password outlasts sign-in throttling.
 */
const LOWEST_ACCEPTED_SCORE = 2;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * zxcvbn with the language-neutral dictionaries (about 50,000 leaked passwords, common words for
 * passphrases) and keyboard layouts. They take about half a second to load and build, so that happens on
 * the first check of the process rather than at start-up, and only once.
 */
function passwordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
    ]);
    return new ZxcvbnFactory({ graphs: common.adjacencyGraphs, dictionary: common.dictionary });
  })().catch((error: unknown) => {
    estimator = undefined;
    throw error;
  });
  return estimator;
}

/** Whether zxcvbn finds the password among the first million guesses. Case changes do not help it. */
export async function isCommonPassword(password: string): Promise<boolean> {
  const zxcvbn = await passwordEstimator();
  return zxcvbn.check(password).score < LOWEST_ACCEPTED_SCORE;
}

/**
 * The whole server-side password policy for a new password: shared's length rule (8 to 128 characters,
 * worded as the spec's hint), then the common-password refusal. Undefined when acceptable.
 */
export async function newPasswordError(password: string): Promise<string | undefined> {
  const policy = passwordPolicyError(password);
  if (policy !== undefined) return policy;
  return (await isCommonPassword(password)) ? PASSWORD_TOO_COMMON : undefined;
}
