import type { Io } from '../io.js';

/** What every command is given: the parsed flags, the words after its name, the home folder, the output. */
export interface CommandInput {
  values: Record<string, unknown>;
  args: string[];
  home: string;
  o: Io;
}

/** A command resolves with its exit code; a CliError it throws names one too. */
export type Command = (input: CommandInput) => Promise<number>;
