// Short, timed progress lines: "[setup] code-server … 41.2s".
const started = Date.now();

export function logger(tag) {
  const prefix = `[${tag}]`;
  return {
    info: (message) => console.log(`${prefix} ${message}`),
    warn: (message) => console.warn(`${prefix} warning: ${message}`),
    /** Runs `work`, printing its name first and its duration after. */
    async step(name, work) {
      const t0 = Date.now();
      console.log(`${prefix} ${name} …`);
      const result = await work();
      console.log(`${prefix} ${name} done in ${seconds(Date.now() - t0)}`);
      return result;
    },
    elapsed: () => seconds(Date.now() - started),
  };
}

export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)}s`;
}
