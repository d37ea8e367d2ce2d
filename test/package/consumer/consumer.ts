// A TypeScript consumer under the strictest settings users turn on: pacu's declarations must hold.
import {
  type CheckOptions,
  ConformanceError,
  type MockOptions,
  type Report,
  resolveTargetConfig,
  runChecks,
  startMock,
  verifyPacts,
} from 'pacu-kit';
import { MOCK_DEFAULTS } from 'pacu-kit/mock';
import { createApiClient } from 'pacu-kit/suites';

const options: MockOptions = { clock: 'manual', seed: 7 };
const mock = await startMock(options);
const target = resolveTargetConfig({ target: mock.url, controlUrl: mock.origin }, {}, {});
const checks: CheckOptions = { target, runs: 5, rules: ['envelope.success-shape'] };
const report: Report = await runChecks(checks);
const first = report.rules[0];
const status: string | undefined = first?.status;
const api = createApiClient({ baseUrl: mock.url });
const port: number = MOCK_DEFAULTS.port;
void [status, api, port, ConformanceError, verifyPacts];
await mock.close();
