import { describe, expect, it } from 'vitest';
import { serveUntilStopped } from './serve-until-stopped.ts';

// Signals are emitted to the listeners, not sent: the test process must not be stopped by them.
const signal = (name: 'SIGINT' | 'SIGTERM'): boolean => process.emit(name as never, name as never);

describe('serveUntilStopped', () => {
  it('stops once on the first signal, and a second one while it stops only says so', async () => {
    const lines: string[] = [];
    const stops: string[] = [];
    let release: () => void = () => {};
    const draining = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = process.listenerCount('SIGINT');
    const served = serveUntilStopped(
      {
        name: 'mock',
        start: async () => 'server',
        stop: async (server, stopSignal) => {
          stops.push(`${server} ${stopSignal}`);
          signal('SIGINT');
          await draining;
        },
      },
      { stdout: () => {}, stderr: (text) => lines.push(text) },
    );
    await new Promise((resolve) => setImmediate(resolve));
    signal('SIGTERM');
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await served;
    expect(stops).toEqual(['server SIGTERM']);
    expect(lines).toEqual([
      'pacu mock: SIGTERM: stopping (requests in flight are answered first)\n',
      'pacu mock: SIGINT again: already stopping, answering the requests in flight\n',
    ]);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('stops a server as soon as it is up when the signal came while it started', async () => {
    const stops: string[] = [];
    await serveUntilStopped(
      {
        name: 'proxy',
        start: async () => {
          signal('SIGINT');
          return 'server';
        },
        stop: async (server) => {
          stops.push(server);
        },
      },
      { stdout: () => {}, stderr: () => {} },
    );
    expect(stops).toEqual(['server']);
  });

  it('leaves no listener behind when the server cannot start', async () => {
    const before = process.listenerCount('SIGTERM');
    const failing = serveUntilStopped(
      {
        name: 'proxy',
        start: () => Promise.reject(new Error('cannot listen')),
        stop: async () => {},
      },
      { stdout: () => {}, stderr: () => {} },
    );
    await expect(failing).rejects.toThrow('cannot listen');
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
