import { afterAll, describe, expect, it } from 'vitest';
import type { Account, P2pStatus, UserList } from '../../spec/index.ts';
import { match } from '../pact-consumer-adapter.ts';
import { PROVIDER_STATES } from '../provider-state-names.ts';
import {
  bearerHeader,
  callApi,
  exampleToken,
  jsonContentType,
  jsonResponseHeaders,
  PACU_CONSUMERS,
  pacuConsumerPact,
  stateRef,
  successEnvelope,
  withClient,
} from './consumer-kit.ts';

const pact = pacuConsumerPact(PACU_CONSUMERS.onboarding);
afterAll(() => pact.save());
const USER_ID = 'usr_3f2a9c1e7b4d5a60';
const rail = (accountNumber: string, routingNumber: string): unknown => ({
  account_number: match.string(accountNumber),
  routing_number: match.string(routingNumber),
});

describe('users and accounts consumer contract', () => {
  it('lists the first page of customers', async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.userExists }),
        description: 'a request for the list of users',
        request: { method: 'GET', path: '/users', headers: bearerHeader },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // "The response carries page, total_count and total_pages"; items and a user's fields have a type only.
          jsonBody: successEnvelope({
            page: match.integer(1),
            total_count: match.integer(1),
            total_pages: match.integer(1),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.listUsers({}, exampleToken));
        const list = (response.json as { data: UserList }).data;
        expect(response.status).toBe(200);
        expect(list.total_pages).toBeGreaterThanOrEqual(0);
      },
    );
  });

  it('creates a US bank account for a customer', async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.userExists }),
        description: 'an account creation for a user',
        request: {
          method: 'POST',
          path: '/accounts',
          headers: { ...bearerHeader, ...jsonContentType },
          jsonBody: {
            hold_balance: match.boolean(true),
            user_id: match.fromProviderState(stateRef('userId'), USER_ID),
          },
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // account_id has a type only; status and balance are stated on creation, numbers per rail.
          jsonBody: successEnvelope({
            account_status: match.string('ACTIVE'),
            balance: match.number(0),
            numbers: {
              ACH: rail('9100000012345678', '021000021'),
              RTP: rail('9100000012345678', '021000021'),
              WIRE: rail('9100000012345678', '026009593'),
            },
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) =>
          api.createAccount({ hold_balance: true, user_id: USER_ID }, exampleToken),
        );
        const account = (response.json as { data: Account }).data;
        expect(response.status).toBe(200);
        expect(Object.keys(account.numbers).sort()).toEqual(['ACH', 'RTP', 'WIRE']);
      },
    );
  });

  it("reads the validation status of a user's p2p identifier", async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.userExists }),
        description: 'a request for the p2p validation status of a user',
        request: {
          method: 'GET',
          path: match.fromProviderState(`/p2p/status/${stateRef('userId')}`, `/p2p/status/${USER_ID}`),
          headers: bearerHeader,
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // p2p_id has a type only; status is stated ("the value VALIDATED is shown").
          jsonBody: successEnvelope({
            status: match.string('VALIDATED'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.getP2pStatus(USER_ID, exampleToken));
        const status = (response.json as { data: P2pStatus }).data;
        expect(response.status).toBe(200);
        expect(status.status).toBe('VALIDATED');
      },
    );
  });
});
