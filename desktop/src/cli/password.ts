import password from '@inquirer/password';
import { CliError, EXIT } from './errors.js';

/**
 * The sign-in password: --password, else AV_UPLOAD_PASSWORD, else stdin when asked (--password-stdin) or
 * when stdin is no terminal (scripts pipe it in; one trailing line end is dropped), else a prompt on the
 * terminal. The prompt writes to stderr so that stdout stays the command's own output, and never shows
 * what is typed.
 */
export async function readPassword(values: {
  password?: string;
  'password-stdin'?: boolean;
}): Promise<string> {
  if (values.password !== undefined) return values.password;
  if (process.env.AV_UPLOAD_PASSWORD !== undefined) return process.env.AV_UPLOAD_PASSWORD;
  if (values['password-stdin'] || !process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.replace(/\r?\n$/, '');
  }
  try {
    return await password({ message: 'Password:', toggleMask: false }, { output: process.stderr });
  } catch (error) {
    // Ctrl-C at the prompt: the terminal is in raw mode, so it reaches the prompt rather than the process.
    if (error instanceof Error && error.name === 'ExitPromptError') {
      throw new CliError(EXIT.interrupted, 'Sign-in cancelled.');
    }
    throw error;
  }
}
