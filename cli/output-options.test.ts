import { describe, expect, it } from 'vitest';
import { wantsColour } from './output-options.ts';

describe('wantsColour', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
  ])('env %j on a terminal %s: %s', (env, terminal, colour) => {
    expect(wantsColour(env, terminal)).toBe(colour);
  });
});
