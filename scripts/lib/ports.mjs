// Finds a free TCP port on loopback, starting from a preferred one (8080 for `npm start`).
import { createServer } from 'node:net';

function isFree(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function freePort(preferred = 8080, host = '127.0.0.1', attempts = 50) {
  for (let port = preferred; port < preferred + attempts; port++) {
    if (await isFree(port, host)) return port;
  }
  throw new Error(`No free port in ${preferred}-${preferred + attempts - 1} on ${host}`);
}
