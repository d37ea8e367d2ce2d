import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { jsonProblem, yamlProblem } from './syntax-problem.ts';

const problem = (text: string): string => {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonProblem(text, error);
  }
  throw new Error('parsed');
};

describe('jsonProblem: why a text is not JSON, in a reader words, with where', () => {
  it.each([
    ['not a har', 'it is not JSON (line 1, column 2: unexpected "o"; it begins "not a har")'],
    [
      '<html><body>It works',
      'it is not JSON (line 1, column 1: unexpected "<"; it begins "<html><body>It works")',
    ],
    ['', 'it is empty'],
    [
      '{"log": {"entries": [\n',
      'it is not valid JSON (it stops at line 2, column 1 before the JSON ends: cut short?)',
    ],
    ['{\n  "a": 1,\n}', 'it is not valid JSON (line 3, column 1: expected double-quoted property name)'],
    ['{"log": {\n  "entries": [,]\n}}', 'it is not valid JSON (line 2, column 15: unexpected ",")'],
    [
      '{"a": 1}\n{"b": 2}',
      'it is not valid JSON (line 2, column 1: unexpected non-whitespace character after the JSON value)',
    ],
    ['\ufeff{}', 'it starts with a byte-order mark: save it as UTF-8 without one'],
  ])('%j', (text, expected) => {
    expect(problem(text)).toBe(expected);
  });

  it('points at the character the parser stopped at, wherever it is', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('}', ']', ',', ':', '#'), (json, at, bad) => {
        const text = JSON.stringify(JSON.parse(json), null, 2);
        const offset = at % (text.length + 1);
        const broken = `${text.slice(0, offset)}${bad}${text.slice(offset)}`;
        let error: unknown;
        try {
          JSON.parse(broken);
          return;
        } catch (caught) {
          error = caught;
        }
        const said = jsonProblem(broken, error);
        expect(said.split('\n')).toHaveLength(1);
        const place = /line (\d+), column (\d+)/.exec(said);
        if (!place) return void expect(said).toMatch(/cut short|is empty/);
        // Everything before the inserted character was JSON so far: the parser stops there or later.
        const lines = broken.split('\n');
        const line = Number(place[1]);
        const stopped =
          lines.slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0) + Number(place[2]) - 1;
        expect(stopped).toBeGreaterThanOrEqual(offset);
        expect(stopped).toBeLessThanOrEqual(broken.length);
      }),
      { seed: 39, numRuns: 200 },
    );
  });
});

describe('yamlProblem', () => {
  it('gives the line, the column and the parser message on one line, without its code frame', () => {
    let error: unknown;
    try {
      parse('paths:\n  /users: get: x');
    } catch (caught) {
      error = caught;
    }
    expect(yamlProblem(error)).toBe(
      'it is not valid YAML (line 2, column 11: nested mappings are not allowed in compact mappings)',
    );
  });
});
