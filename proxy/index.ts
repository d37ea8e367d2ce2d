export { PROXY_DEFAULTS, resolveProxyOptions, upstreamUrl } from './options.ts';
export { startProxy } from './start-proxy.ts';
export type { ProxyOptions, ResolvedProxyOptions, RunningProxy } from './types.ts';
