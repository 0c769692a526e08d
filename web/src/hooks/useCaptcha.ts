import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { CAPTCHA_KEY_HEADER, CAPTCHA_REQUIRED_HEADER, newVerify } from '@/api/account';

export interface Captcha {
  imageUrl: string;
  verifyKey: string;
  /** The api asks for the captcha at sign-in (X-Captcha-Required; CAPTCHA_REQUIRED on the api). */
  required: boolean;
}

let forms = 0;

async function fetchCaptcha(): Promise<Captcha> {
  const { data, headers } = await newVerify();
  return {
    imageUrl: URL.createObjectURL(data),
    verifyKey: headers[CAPTCHA_KEY_HEADER] ?? '',
    required: headers[CAPTCHA_REQUIRED_HEADER] !== '0',
  };
}

/**
 * The image captcha of the sign-in form; `refresh` asks for a new one. Each form has its own (a
 * captcha is single use, and its blob URL is revoked when the form goes away), so the SWR key is
 * per mounted form and no later form is handed a revoked image.
 */
export function useCaptcha() {
  const [form] = useState(() => (forms += 1));
  const { data, error, mutate } = useSWR(['account/newVerify', form], fetchCaptcha, {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
  useEffect(
    () => () => {
      if (data) URL.revokeObjectURL(data.imageUrl);
    },
    [data],
  );
  // Unknown while loading; a failed call keeps asking (the api decides at sign-in anyway).
  const required = error ? true : data?.required;
  return { captcha: data, failed: Boolean(error), required, refresh: () => void mutate() };
}
