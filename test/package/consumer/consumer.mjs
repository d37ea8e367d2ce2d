// A plain Node ESM consumer: no TypeScript, no loader, only what `npm install pacu-kit` gives.
import { loadSpec, startMock } from 'pacu-kit';

const spec = await loadSpec();
const mock = await startMock({ log: () => {} });
try {
  const { clientId, clientSecret } = mock.demoClient;
  const token = await fetch(`${mock.url}/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { data } = await token.json();
  const users = await fetch(`${mock.url}/users`, {
    headers: { authorization: `Bearer ${data.access_token}` },
  });
  const body = await users.json();
  console.log(
    JSON.stringify({
      operations: spec.operations.length,
      status: users.status,
      users: body.data.items.length,
    }),
  );
} finally {
  await mock.close();
}
