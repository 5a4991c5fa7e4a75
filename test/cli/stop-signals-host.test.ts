// Taking stop requests (src/cli/stop-signals.ts) leaves a host's IPC channel as it found it. A
// process whose parent talks to it over that channel (vitest's forks among them: `zecrpc import`
// runs in-process in several tests) keeps waiting for its parent's messages after an import, and a
// process whose channel nobody listens on still ends by itself.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FIXTURE = join(import.meta.dirname, 'stop-signals-host-fixture.ts');

function start(mode: 'host' | 'bare') {
  const child = fork(FIXTURE, [mode], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages: unknown[] = [];
  child.on('message', (m) => messages.push(m));
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => child.on('message', (m) => m === 'ready' && resolve()));
  return { child, messages, ended, ready };
}

describe('stop requests and a host IPC channel', () => {
  it("a host's own listener still holds the channel: the process is alive to answer its parent", async () => {
    const { child, messages, ended, ready } = start('host');
    await ready;
    // Sent only after 'ready': a child whose channel no longer held it would have ended by now or
    // end before answering, and `ended` would come without the echo.
    child.send({ ping: 1 });
    expect(await ended).toBe(0);
    expect(messages).toEqual(['ready', { echoed: { ping: 1 } }]);
  });

  it('a process whose channel has no listener of its own ends by itself once requests are no longer taken', async () => {
    const { messages, ended } = start('bare');
    expect(await ended).toBe(0);
    expect(messages).toEqual(['ready']);
  });
});
