import { describe, expect, it } from 'vitest';
import { runCli } from '../test/helpers/run-cli.ts';

// Every command that judges against the description takes the same --profile, parsed in one place.
describe('--profile', () => {
  it.each([
    ['check'],
    ['proxy', '--upstream', 'http://127.0.0.1:9/v3'],
    ['replay', 'recording.har'],
    ['diff', 'old.yaml', 'new.yaml'],
    ['verify'],
  ])('pacu %s refuses a profile that is not documented or strict, in one line', async (...command) => {
    const { code, stderr } = await runCli([...command, '--profile', 'loose']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "pacu: option '--profile <profile>' argument 'loose' is invalid. Allowed choices are documented, strict.\n",
    );
  });
});
