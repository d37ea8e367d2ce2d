import { Agent, request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { FRONT_DOOR_DEFAULTS, openFrontDoor } from './front-door.ts';
import type { ListeningServer } from './listen-http.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** One request on `agent`'s kept-alive connection; resolves when its answer is read whole. */
const send = (origin: string, agent: Agent, body: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}/v3/users`, { method: 'POST', agent }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      answer.on('end', () => resolve(text));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });

/** A macrotask, then a full collection: WeakRefs read in this job keep their targets until it ends. */
const collected = async (refs: readonly WeakRef<object>[]): Promise<number> => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  collect();
  await new Promise((resolve) => setTimeout(resolve, 20));
  collect();
  return refs.filter((ref) => ref.deref() === undefined).length;
};

describe('the front door keeps no answered exchange alive', () => {
  let server: ListeningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  // The connection stays open between requests (keep-alive): what the door remembers of it for a
  // parse error's answer must not hold the request, its body and the answer once that answer is out,
  // or every young collection copies one exchange per idle connection (the proxy's and the mock's).
  it('lets each request and answer go once the answer is out, the connection still open', async () => {
    const refs: WeakRef<object>[] = [];
    server = await openFrontDoor({
      host: '127.0.0.1',
      port: 0,
      limits: FRONT_DOOR_DEFAULTS,
      bodyLimit: () => 1024 * 1024,
      errorBody: (_path, status, message) => JSON.stringify({ success: false, status, message }),
      handle(request, response) {
        refs.push(new WeakRef(request.message), new WeakRef(response), new WeakRef(request.body));
        response.end(`{"got":${request.body.length}}`);
      },
      log: () => {},
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i++)
        expect(await send(server.origin, agent, 'x'.repeat(2000 + i))).toBe(`{"got":${2000 + i}}`);
      // Still one open connection: its last exchange is what the door could keep.
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
      expect(await collected(refs)).toBe(refs.length);
    } finally {
      agent.destroy();
    }
  });
});
