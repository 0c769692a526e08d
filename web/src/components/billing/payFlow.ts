/**
 * How the pay page pays, from the browser it runs in: WeChat's own browser (MicroMessenger) pays
 * through JSAPI (WeixinJSBridge, with the payer's open id); a phone browser opens WeChat's H5 cashier
 * and Alipay's wap page; a desktop browser shows WeChat's QR code and Alipay's page pay.
 */
import type { JsapiParams } from '@/api/billing';

export type WechatFlow = 'jsapi' | 'h5' | 'native';
export type AlipayMode = 'wap' | 'page';

const PHONE = /Mobi|Android|iPhone|iPad|iPod|HarmonyOS|Windows Phone/i;

export function inWeChat(userAgent: string): boolean {
  return /MicroMessenger/i.test(userAgent);
}

export function onPhone(userAgent: string): boolean {
  return PHONE.test(userAgent);
}

export function wechatFlow(userAgent: string): WechatFlow {
  if (inWeChat(userAgent)) return 'jsapi';
  return onPhone(userAgent) ? 'h5' : 'native';
}

export function alipayMode(userAgent: string): AlipayMode {
  return onPhone(userAgent) ? 'wap' : 'page';
}

/** WeChat's browser opens no Alipay page: there the payer is told to use another browser. */
export function alipayOffered(userAgent: string): boolean {
  return !inWeChat(userAgent);
}

/** What WeixinJSBridge's getBrandWCPayRequest answered. */
export type JsapiOutcome = 'paid' | 'cancelled' | 'failed';

export function jsapiOutcome(errMsg: string | undefined): JsapiOutcome {
  if (errMsg === 'get_brand_wcpay_request:ok') return 'paid';
  if (errMsg === 'get_brand_wcpay_request:cancel') return 'cancelled';
  return 'failed';
}

interface Bridge {
  invoke: (name: string, params: JsapiParams, done: (answer: { err_msg?: string }) => void) => void;
}

/** Pays in WeChat's browser: waits for the bridge when the page was quicker than it. */
export function payInWeChat(params: JsapiParams, win: Window = window): Promise<JsapiOutcome> {
  return new Promise((resolve) => {
    const invoke = () => {
      const bridge = (win as unknown as { WeixinJSBridge?: Bridge }).WeixinJSBridge;
      if (!bridge) return resolve('failed');
      bridge.invoke('getBrandWCPayRequest', params, (answer) => resolve(jsapiOutcome(answer?.err_msg)));
    };
    if ((win as unknown as { WeixinJSBridge?: Bridge }).WeixinJSBridge) invoke();
    else win.document.addEventListener('WeixinJSBridgeReady', invoke, { once: true });
  });
}
