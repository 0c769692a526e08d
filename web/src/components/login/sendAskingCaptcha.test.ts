import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiFailure } from '@/api/errors';
import { sendAskingCaptcha } from './sendAskingCaptcha';

const failure = (code: number): ApiError =>
  new ApiError({ kind: 'business', messageKey: 'errors.requestFailed', code, endSession: false } as ApiFailure);

describe('sendAskingCaptcha', () => {
  it('sends once without asking when the address is not hot', async () => {
    const send = vi.fn().mockResolvedValue({ resendAfter: 60 });
    const ask = vi.fn();
    expect(await sendAskingCaptcha(send, ask)).toEqual({ resendAfter: 60 });
    expect(ask).not.toHaveBeenCalled();
    expect(send).toHaveBeenCalledWith();
  });

  it('asks for the image captcha on 1014 and sends again with the answer', async () => {
    const send = vi.fn().mockRejectedValueOnce(failure(1014)).mockResolvedValueOnce({ resendAfter: 60 });
    const ask = vi.fn().mockResolvedValue({ verifyKey: 'k', verifyCode: 'AB34' });
    expect(await sendAskingCaptcha(send, ask)).toEqual({ resendAfter: 60 });
    expect(send).toHaveBeenLastCalledWith({ verifyKey: 'k', verifyCode: 'AB34' });
  });

  it('sends nothing more when the user cancels', async () => {
    const send = vi.fn().mockRejectedValueOnce(failure(1014));
    expect(await sendAskingCaptcha(send, vi.fn().mockResolvedValue(null))).toBeNull();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('passes any other failure on', async () => {
    const ask = vi.fn();
    await expect(sendAskingCaptcha(vi.fn().mockRejectedValue(failure(429)), ask)).rejects.toBeInstanceOf(ApiError);
    expect(ask).not.toHaveBeenCalled();
  });
});
