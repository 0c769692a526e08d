import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_READ_TTL_MS, fetchRead, readKey, startRead } from './read';

const client = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('./client', () => ({ ...client, put: vi.fn(), del: vi.fn(), getBlob: vi.fn() }));
const session = vi.hoisted(() => ({ token: 'token-a' as string | null }));
vi.mock('./session', () => ({ getAccessToken: () => session.token }));

const LIST = readKey('/device/Device/page', { start: 1, pageSize: 10 }, 'post');

describe("a page's first reads (started before its hook asks)", () => {
  beforeEach(() => {
    session.token = 'token-a';
    let answers = 0;
    client.post.mockReset().mockImplementation(() => Promise.resolve({ answer: (answers += 1) }));
  });
  afterEach(() => vi.useRealTimers());

  it('the hook takes the read under way, once: the same request is not sent twice', async () => {
    startRead(LIST);
    expect(await fetchRead(readKey('/device/Device/page', { pageSize: 10, start: 1 }, 'post'))).toEqual({ answer: 1 });
    expect(client.post).toHaveBeenCalledTimes(1);
    // Taken once: the next fetch (a refresh) asks the server again.
    expect(await fetchRead(LIST)).toEqual({ answer: 2 });
  });

  it("never hands one account's answer to another (a sign-out and a sign-in in the same tab)", async () => {
    startRead(LIST);
    session.token = 'token-b';
    expect(await fetchRead(LIST)).toEqual({ answer: 2 });
    expect(client.post).toHaveBeenCalledTimes(2);
  });

  it('never hands out an old answer: a page opened later asks again', async () => {
    vi.useFakeTimers();
    startRead(LIST);
    vi.advanceTimersByTime(EARLY_READ_TTL_MS + 1);
    expect(await fetchRead(LIST)).toEqual({ answer: 2 });
  });

  it("a failed early read reaches the page's hook as its failure", async () => {
    client.post.mockReset().mockRejectedValueOnce(new Error('refused'));
    startRead(LIST);
    await expect(fetchRead(LIST)).rejects.toThrow('refused');
  });
});
