import { describe, expect, it } from '@jest/globals';
import { EventStreams, StreamBacklog } from './stream-backlog.js';

/** A socket that takes `room` chunks before answering false, and records what it was given. */
function fakeSocket(room: number) {
  const written: string[] = [];
  const socket = {
    written,
    room,
    write: (chunk: string) => {
      written.push(chunk);
      socket.room -= 1;
      return socket.room > 0;
    },
  };
  return socket;
}

describe('StreamBacklog', () => {
  it('writes straight through while the socket has room', () => {
    const socket = fakeSocket(10);
    const backlog = new StreamBacklog(socket.write, 10);
    expect(['a', 'b'].map((chunk) => backlog.send(chunk))).toEqual(['written', 'written']);
    expect(socket.written).toEqual(['a', 'b']);
    expect(backlog.bytes).toBe(0);
  });

  it('stops writing once write answers false, keeps what comes, and sends it in order on drain', () => {
    const socket = fakeSocket(1);
    const backlog = new StreamBacklog(socket.write, 10);
    expect(['a', 'bb', 'ccc'].map((chunk) => backlog.send(chunk))).toEqual(['written', 'waiting', 'waiting']);
    expect(socket.written).toEqual(['a']);
    expect(backlog.bytes).toBe(5);
    socket.room = 1;
    backlog.drain();
    // The socket was full again after 'bb': 'ccc' waits for the next drain.
    expect(socket.written).toEqual(['a', 'bb']);
    expect(backlog.bytes).toBe(3);
    socket.room = 10;
    backlog.drain();
    expect(socket.written).toEqual(['a', 'bb', 'ccc']);
    expect([backlog.bytes, backlog.send('d')]).toEqual([0, 'written']);
  });

  it('overflows for good past its limit, counting bytes, not characters, and lets what waited go', () => {
    const socket = fakeSocket(1);
    const backlog = new StreamBacklog(socket.write, 6);
    expect(['a', 'éé', 'bb', 'c'].map((chunk) => backlog.send(chunk))).toEqual(['written', 'waiting', 'waiting', 'overflow']);
    expect(backlog.bytes).toBe(0);
    socket.room = 10;
    backlog.drain();
    expect([backlog.send('d'), socket.written]).toEqual(['overflow', ['a']]);
  });
});

describe('EventStreams', () => {
  it('counts open streams, the bytes waiting for them, and the ones dropped', () => {
    const streams = new EventStreams();
    const slow = new StreamBacklog(fakeSocket(1).write, 100);
    const fast = new StreamBacklog(fakeSocket(100).write, 100);
    streams.add(slow);
    streams.add(fast);
    slow.send('first');
    slow.send('waits');
    expect(streams.stats()).toEqual({ clients: 2, waitingBytes: 5, dropped: 0 });
    streams.remove(slow, true);
    streams.remove(slow, true);
    streams.remove(fast, false);
    expect(streams.stats()).toEqual({ clients: 0, waitingBytes: 0, dropped: 1 });
  });
});
