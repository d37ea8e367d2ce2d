import { createRing, type RequestObserver } from '../../http/index.ts';
import type { ObservedExchange } from './exchange-judge.ts';
import { forgetParsed } from './lazy-answer.ts';
import { exchangeOf } from './traffic-exchange.ts';

/** The last exchanges a surface saw, newest last: `GET /__pacu/exchanges` of a proxy. */
export interface ExchangeRing extends RequestObserver {
  /** Oldest first, unredacted. */
  exchanges(): ObservedExchange[];
}

/**
 * Keep the last `keep` exchanges as they settle. Register it after the judges: what it keeps keeps
 * its answer's text, not its parse (a tree of small objects every young collection would copy
 * while the exchange is kept); it is parsed again if read again.
 */
export function createExchangeRing(keep: number, basePath: string): ExchangeRing {
  const ring = createRing<ObservedExchange>(keep);
  return {
    settled(event) {
      const exchange = exchangeOf(event, basePath);
      forgetParsed(exchange.response);
      ring.push(exchange);
    },
    exchanges: () => ring.items(),
  };
}
