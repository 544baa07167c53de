import { describe, expect, it } from 'vitest';
import { RemoteError, remoteTarget, serverEvents, type ServerEvent } from './remote-client';

/** A body that arrives in the given pieces, as a network hands it over. */
function body(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  for await (const event of serverEvents(stream)) events.push(event);
  return events;
}

describe('serverEvents', () => {
  it('reads events split anywhere across chunks, skips heartbeats, and takes CRLF lines', async () => {
    const text =
      'event: status\ndata: {"status":"running"}\n\n: heartbeat\n\nevent: snapshot\r\ndata: {"second":1,\r\ndata: "x":"é"}\r\n\r\nevent: end\ndata: not json\n\n';
    const bytes = new TextEncoder().encode(text);
    // Split in a field name, between \r and \n, between events, and inside the two-byte é.
    const inside = bytes.indexOf(0xc3) + 1;
    const crlf = bytes.indexOf(0x0d) + 1;
    for (const at of [1, 7, crlf, inside, bytes.length - 1]) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, at));
          controller.enqueue(bytes.slice(at));
          controller.close();
        },
      });
      expect(await all(stream)).toEqual([
        { event: 'status', data: { status: 'running' } },
        { event: 'snapshot', data: { second: 1, x: 'é' } },
        { event: 'end', data: 'not json' },
      ]);
    }
  });

  it('yields nothing for a stream that ends in the middle of an event', async () => {
    expect(await all(body(['event: end\ndata: {"a":1}']))).toEqual([]);
  });
});

describe('remoteTarget', () => {
  it('takes the flags before the environment and trims the trailing slash', () => {
    expect(
      remoteTarget({ server: 'https://aqa.example.com/base/', token: 'flag' }, { AQA_TOKEN: 'env' }),
    ).toEqual({ server: 'https://aqa.example.com/base', token: 'flag' });
    expect(remoteTarget({}, { AQA_SERVER: 'http://127.0.0.1:5200', AQA_TOKEN: ' aqa_x ' })).toEqual({
      server: 'http://127.0.0.1:5200',
      token: 'aqa_x',
    });
  });

  it('names the workspace from --workspace, else AQA_WORKSPACE, and none when neither is given', () => {
    const env = { AQA_SERVER: 'http://127.0.0.1:5200', AQA_TOKEN: 'aqa_x', AQA_WORKSPACE: ' ws_env ' };
    expect(remoteTarget({ workspace: 'ws_flag' }, env).workspace).toBe('ws_flag');
    expect(remoteTarget({}, env).workspace).toBe('ws_env');
    expect(remoteTarget({}, { ...env, AQA_WORKSPACE: '' })).not.toHaveProperty('workspace');
  });

  it('names what is missing or wrong', () => {
    const message = (flags: { server?: string; token?: string }, env = {}) => {
      try {
        remoteTarget(flags, env);
      } catch (e) {
        expect(e).toBeInstanceOf(RemoteError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(message({ token: 't' })).toContain('give --server URL or set AQA_SERVER');
    expect(message({ server: 'aqa.example.com', token: 't' })).toContain('is not a URL');
    expect(message({ server: 'ftp://aqa.example.com', token: 't' })).toContain('must start with http://');
    expect(message({ server: 'http://aqa.example.com' })).toContain('set AQA_TOKEN (or give --token)');
  });
});
