import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback that a test stops and starts again on the same port: the database (or
 * any peer) behind it becomes unreachable, connections open through it are cut, and new ones are
 * refused, as when a network link or the database host goes away. `cut` ends the connections
 * open now and goes on taking new ones: closed (the peer reads the end of the stream) or reset
 * (ECONNRESET), as a failover or a middlebox dropping them does.
 */
export type TcpProxy = {
  port: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
  cut: (how: 'close' | 'reset') => number;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as { port: number }).port;
        server = next;
        resolve();
      });
    });
  await listen();
  const stop = async () => {
    const open = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (open ? open.close(() => resolve()) : resolve()));
  };
  /** Ends every connection open now; returns how many sockets were ended. */
  const cut = (how: 'close' | 'reset') => {
    const open = [...sockets];
    for (const socket of open) {
      if (how === 'reset') socket.resetAndDestroy();
      else socket.destroy();
    }
    return open.length;
  };
  return { port, stop, start: listen, close: stop, cut };
}
