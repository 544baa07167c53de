import { buildConnector } from 'undici';
import { TargetRefusedError, portOf, type TargetGuard } from './guard';
import { parseIp } from './ip';
import { normalizeHost } from './rules';

/**
 * An undici `connect` function (for an Agent, Pool or Client) that asks the guard before every
 * connection: an IP address is decided at once (net.connect never calls `lookup` for one), a name
 * through the guard's lookup for the connection's port, on the addresses it resolves to at that
 * moment, so a name that is re-pointed at a refused address mid-run is refused too. A refusal fails
 * the connection with TargetRefusedError.
 */
export function guardedConnector(
  guard: TargetGuard,
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const byPort = new Map<number, buildConnector.connector>();
  return (target, callback) => {
    const port = portOf(String(target.port ?? ''), target.protocol);
    const host = normalizeHost(target.hostname);
    if (parseIp(host) !== null) {
      const decision = guard.decide({ host, port, addresses: [host] });
      if (!decision.allowed) {
        const error = new TargetRefusedError(decision.reason);
        // undici expects the callback after connect() has returned, as a socket's error would come.
        queueMicrotask(() => callback(error, null));
        return;
      }
    }
    let connect = byPort.get(port);
    if (connect === undefined) {
      connect = buildConnector({ ...options, lookup: guard.lookupFor(port) });
      byPort.set(port, connect);
    }
    connect(target, callback);
  };
}
