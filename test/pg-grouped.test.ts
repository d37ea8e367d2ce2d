// Writes grouped into one statement: what each caller gets is what it would get alone.
import { describe, expect, it } from 'vitest';
import { grouped } from '../mock/internal/store/pg/pg-grouped.ts';
import { StoreUnavailableError } from '../mock/internal/store/store-unavailable.ts';

/** A statement that answers when let go, remembering every group it was sent. */
function held() {
  const sent: string[][] = [];
  const waiting: Array<() => void> = [];
  const send = (items: readonly string[]): Promise<string[]> => {
    sent.push([...items]);
    return new Promise((resolve, reject) =>
      waiting.push(() =>
        items.includes('bad') && items.length > 1
          ? reject(new Error('one row broke the statement'))
          : items.includes('bad')
            ? reject(new Error('bad row'))
            : resolve(items.map((item) => `done ${item}`)),
      ),
    );
  };
  const letGo = async (): Promise<void> => {
    while (waiting.length > 0) {
      waiting.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { sent, send, letGo };
}

describe('grouped writes', () => {
  it('sends at once while a statement is free, and groups what arrives while all are busy', async () => {
    const { sent, send, letGo } = held();
    const write = grouped(send, (item: string) => item, { inFlight: 1, most: 100 });
    const answers = ['a', 'b', 'c', 'd'].map(write);
    await letGo();
    expect(await Promise.all(answers)).toEqual(['done a', 'done b', 'done c', 'done d']);
    expect(sent).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('never puts two items of one key in one statement, and keeps to the most per statement', async () => {
    const { sent, send, letGo } = held();
    const write = grouped(send, (item: string) => item.split(':')[0] as string, { inFlight: 1, most: 2 });
    const answers = ['x:1', 'x:2', 'y:1', 'x:3', 'z:1'].map(write);
    await letGo();
    await Promise.all(answers);
    expect(sent).toEqual([['x:1'], ['x:2', 'y:1'], ['x:3', 'z:1']]);
  });

  it('a statement one item broke is tried item by item; the database away fails every item', async () => {
    const { send, letGo } = held();
    const write = grouped(send, (item: string) => item, { inFlight: 1, most: 100 });
    const answers = ['a', 'b', 'bad', 'c'].map((item) => write(item).catch((error: Error) => error.message));
    await letGo();
    expect(await Promise.all(answers)).toEqual(['done a', 'done b', 'bad row', 'done c']);

    const away = grouped(
      async () => {
        throw new StoreUnavailableError('the database is away');
      },
      (item: string) => item,
      { inFlight: 1, most: 100 },
    );
    const failed = await Promise.allSettled(['a', 'b', 'c'].map(away));
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
