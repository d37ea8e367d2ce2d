import type { Spec } from '../spec/index.ts';
import type { PrismRequestCheck } from './prism-adapter.ts';

/**
 * Prism's request check, loaded after the mock listens. Importing Prism's validator compiles a
 * CommonJS tree of about a second (decision 093): a mock that loaded it first was ready in 2.4 s,
 * against 0.3 s for `node -e 0`. Requests that arrive before it is loaded wait for it, in order.
 */
export interface DeferredRequestCheck {
  /** The check; only called once {@link DeferredRequestCheck.loaded} is true. */
  readonly check: PrismRequestCheck;
  readonly loaded: boolean;
  /** Start loading (once); resolves when the check can be called, or when loading failed (logged). */
  load(): Promise<void>;
}

export function deferRequestCheck(
  spec: Pick<Spec, 'document' | 'file' | 'digest'>,
  log: (line: string) => void,
): DeferredRequestCheck {
  let ready: PrismRequestCheck | undefined;
  let loading: Promise<void> | undefined;
  return {
    check: (operationId, input) => {
      // The request core answers an exception with a logged 500: never a hang.
      if (!ready) throw new Error("pacu mock: Prism's request validator could not be loaded");
      return ready(operationId, input);
    },
    get loaded() {
      return ready !== undefined;
    },
    load() {
      loading ??= import('./prism-adapter.ts')
        .then(({ loadPrismRequestCheck }) => loadPrismRequestCheck(spec))
        .then(
          (check) => {
            ready = check;
          },
          (error: Error) => log(`pacu mock: cannot load Prism's request validator: ${error.message}`),
        );
      return loading;
    },
  };
}
