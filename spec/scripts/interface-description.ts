/**
 * Where the tests and `npm run generate` find the interface description (../shared beside the clone,
 * or `PACU_DESCRIPTION_FILE`): read, never retyped. In CI a missing one is an error, so no run passes
 * by skipping the comparisons; a developer's run skips them and says why (docs/decisions/150).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The description's path: `PACU_DESCRIPTION_FILE`, else ../shared/seeds/… beside the clone. */
export const DESCRIPTION_FILE =
  process.env.PACU_DESCRIPTION_FILE ??
  fileURLToPath(new URL('../../../shared/seeds/000_1f34ae346204a62c.txt', import.meta.url));

/** Whether this is a CI run: `CI` is set to anything but `false` or `0`. */
export const IN_CI = ![undefined, '', 'false', '0'].includes(process.env.CI);

/** The interface description's text, or undefined when it is absent (never in CI: there it throws). */
export function readInterfaceDescription(): string | undefined {
  if (existsSync(DESCRIPTION_FILE)) return readFileSync(DESCRIPTION_FILE, 'utf8');
  if (IN_CI)
    throw new Error(
      `the interface description is absent at ${DESCRIPTION_FILE}, and CI=${process.env.CI} needs it: lay shared/ beside the clone or set PACU_DESCRIPTION_FILE`,
    );
  return undefined;
}

/** The interface description, read once at import. */
export const DESCRIPTION_TEXT: string | undefined = readInterfaceDescription();

/** A suffix for the name of a test that needs the description: why it is skipped, when it is. */
export const SKIPPED_WITHOUT_DESCRIPTION =
  DESCRIPTION_TEXT === undefined
    ? ` (skipped: no interface description at ${DESCRIPTION_FILE}; CI fails instead)`
    : '';
