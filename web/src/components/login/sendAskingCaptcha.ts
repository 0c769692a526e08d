import { CAPTCHA_NEEDED_CODE, type CodeCaptcha } from '@/api/account';
import { ApiError } from '@/api/errors';

/**
 * Send a verification code; when the api answers that the address needs the image captcha first
 * (code 1014), `ask` the user for it and send once more with the answer. null: the user cancelled.
 */
export async function sendAskingCaptcha<T>(
  send: (captcha?: CodeCaptcha) => Promise<T>,
  ask: () => Promise<CodeCaptcha | null>,
): Promise<T | null> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ApiError) || error.failure.code !== CAPTCHA_NEEDED_CODE) throw error;
  }
  const answer = await ask();
  return answer ? send(answer) : null;
}
