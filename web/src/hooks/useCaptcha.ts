import { useEffect } from 'react';
import useSWR from 'swr';
import { CAPTCHA_KEY_HEADER, newVerify } from '@/api/account';

export interface Captcha {
  imageUrl: string;
  verifyKey: string;
}

async function fetchCaptcha(): Promise<Captcha> {
  const { data, headers } = await newVerify();
  return { imageUrl: URL.createObjectURL(data), verifyKey: headers[CAPTCHA_KEY_HEADER] ?? '' };
}

/** The image captcha of the sign-in form; `refresh` asks for a new one. */
export function useCaptcha() {
  const { data, error, mutate } = useSWR('account/newVerify', fetchCaptcha, {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
  useEffect(() => () => {
    if (data) URL.revokeObjectURL(data.imageUrl);
  }, [data]);
  return { captcha: data, failed: Boolean(error), refresh: () => void mutate() };
}
