import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pact the broker serves, with the pending flag the broker computes for it. */
export interface BrokerPact {
  readonly consumer: string;
  readonly pact: Readonly<Record<string, unknown>>;
  readonly pending?: boolean;
  readonly wip?: boolean;
}

export interface BrokerCall {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
  readonly body?: unknown;
}

export interface HalBroker {
  readonly url: string;
  /** Every request the broker received, in order. */
  readonly calls: BrokerCall[];
  close(): Promise<void>;
}

const HAL = { 'content-type': 'application/hal+json;charset=utf-8' };

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/**
 * A local stand-in for a Pact Broker (the real one needs Ruby and a network): the broker's documented
 * HAL answers to exactly the calls Pact's verifier makes (index, pacts for verification, each pact,
 * the branch version, the results). Anything else is a 404 the test sees in `calls`.
 */
export async function startHalBroker(provider: string, pacts: readonly BrokerPact[]): Promise<HalBroker> {
  const calls: BrokerCall[] = [];
  let base = '';
  const pactPath = (consumer: string) =>
    `/pacts/provider/${provider}/consumer/${consumer}/pact-version/${consumer}-v1`;
  const send = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, HAL).end(JSON.stringify(body));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body = await readBody(req);
    calls.push({
      method: req.method ?? 'GET',
      path,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      ...(body !== undefined ? { body } : {}),
    });
    if (req.method === 'GET' && path === '/') {
      send(res, 200, {
        _links: {
          self: { href: base, title: 'Index' },
          'pb:provider-pacts-for-verification': {
            href: `${base}/pacts/provider/{provider}/for-verification`,
            title: 'Pact versions to be verified for the specified provider',
            templated: true,
          },
          'pb:pacticipant-branch-version': {
            href: `${base}/pacticipants/{pacticipant}/branches/{branch}/versions/{version}`,
            title: 'Get or add/create a version for a pacticipant branch',
            templated: true,
          },
        },
      });
      return;
    }
    // The verifier first GETs the resource, then POSTs its query to the `self` link.
    if (req.method === 'GET' && path === `/pacts/provider/${provider}/for-verification`) {
      send(res, 200, {
        _links: { self: { href: `${base}${path}`, title: 'Pacts to be verified' } },
      });
      return;
    }
    if (req.method === 'POST' && path === `/pacts/provider/${provider}/for-verification`) {
      send(res, 200, {
        _embedded: {
          pacts: pacts.map((item) => ({
            shortDescription: `latest from ${item.consumer}`,
            verificationProperties: {
              pending: item.pending === true,
              ...(item.wip ? { wip: true } : {}),
              notices: [
                { when: 'before_verification', text: `The pact of ${item.consumer} is being verified` },
              ],
            },
            _links: {
              self: {
                href: `${base}${pactPath(item.consumer)}/metadata/c1`,
                name: `Pact between ${item.consumer} and ${provider}`,
              },
            },
          })),
        },
        _links: { self: { href: `${base}${path}`, title: 'Pacts to be verified' } },
      });
      return;
    }
    const served = pacts.find((item) => path.startsWith(pactPath(item.consumer)));
    if (served && req.method === 'GET') {
      send(res, 200, {
        ...served.pact,
        _links: {
          self: { href: `${base}${pactPath(served.consumer)}` },
          'pb:provider': { title: 'Provider', name: provider, href: `${base}/pacticipants/${provider}` },
          'pb:publish-verification-results': {
            title: 'Publish verification results',
            href: `${base}${pactPath(served.consumer)}/verification-results`,
          },
        },
      });
      return;
    }
    if (served && req.method === 'POST' && path.endsWith('/verification-results')) {
      send(res, 201, {
        success: (body as { success?: boolean })?.success,
        _links: { self: { href: `${base}${path}/1` } },
      });
      return;
    }
    if (req.method === 'GET' && path === `/pacticipants/${provider}`) {
      send(res, 200, {
        name: provider,
        _links: {
          self: { href: `${base}${path}` },
          'pb:branch-version': {
            href: `${base}/pacticipants/${provider}/branches/{branch}/versions/{version}`,
            title: 'Get or add/create a version for a branch of this pacticipant',
            templated: true,
          },
          'pb:version-tag': {
            href: `${base}/pacticipants/${provider}/versions/{version}/tags/{tag}`,
            title: 'Get, create or delete a tag for a version of this pacticipant',
            templated: true,
          },
        },
      });
      return;
    }
    if (req.method === 'PUT' && path.startsWith(`/pacticipants/${provider}/branches/`)) {
      send(res, 201, { number: path.split('/').at(-1), _links: { self: { href: `${base}${path}` } } });
      return;
    }
    send(res, 404, { error: `no ${req.method} ${path} on this broker` });
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
