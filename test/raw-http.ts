// Raw bytes over one TCP connection: for what fetch cannot send (pipelining, header floods, CONNECT).
import { connect } from 'node:net';

/** Send `chunks` (pausing between them) and collect what comes back until the server closes. */
export function raw(
  port: number,
  chunks: Array<string | Buffer>,
  pauseMs = 0,
  options: { halfClose?: boolean; giveUpMs?: number } = {},
): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (data) => {
      text += data.toString('latin1');
    });
    socket.on('error', () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (pauseMs) await new Promise((done) => setTimeout(done, pauseMs));
      }
      // A half-close: the client is done sending, and still reads.
      if (options.halfClose) socket.end();
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server never closed the connection; it sent: ${text.slice(0, 200)}`));
    }, options.giveUpMs ?? 15_000).unref();
  });
}

/** The status lines of every answer in `text`, in order. */
export const statusLines = (text: string): string[] => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];
