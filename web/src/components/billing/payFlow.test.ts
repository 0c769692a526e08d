import { describe, expect, it, vi } from 'vitest';
import { alipayMode, alipayOffered, jsapiOutcome, payInWeChat, wechatFlow } from './payFlow';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; V2227A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';
const WECHAT_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.46(0x18002e2c) NetType/WIFI Language/zh_CN';
const DESKTOP_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('the pay flow from the user agent', () => {
  it('pays WeChat through JSAPI in its own browser, H5 in a phone browser, a QR code on a desktop', () => {
    expect(wechatFlow(WECHAT_ANDROID)).toBe('jsapi');
    expect(wechatFlow(WECHAT_IPHONE)).toBe('jsapi');
    expect(wechatFlow(IPHONE_SAFARI)).toBe('h5');
    expect(wechatFlow(ANDROID_CHROME)).toBe('h5');
    expect(wechatFlow(DESKTOP_CHROME)).toBe('native');
  });

  it('pays Alipay on its wap page on a phone, its page pay on a desktop, never inside WeChat', () => {
    expect(alipayMode(IPHONE_SAFARI)).toBe('wap');
    expect(alipayMode(ANDROID_CHROME)).toBe('wap');
    expect(alipayMode(DESKTOP_CHROME)).toBe('page');
    expect(alipayOffered(WECHAT_IPHONE)).toBe(false);
    expect(alipayOffered(IPHONE_SAFARI)).toBe(true);
  });

  it("reads WeixinJSBridge's answer", () => {
    expect(jsapiOutcome('get_brand_wcpay_request:ok')).toBe('paid');
    expect(jsapiOutcome('get_brand_wcpay_request:cancel')).toBe('cancelled');
    expect(jsapiOutcome('get_brand_wcpay_request:fail')).toBe('failed');
    expect(jsapiOutcome(undefined)).toBe('failed');
  });

  it('invokes getBrandWCPayRequest with the signed parameters, once the bridge is ready', async () => {
    const params = {
      appId: 'wx1',
      timeStamp: '1700000000',
      nonceStr: 'n',
      package: 'prepay_id=wx2',
      signType: 'RSA',
      paySign: 's',
    };
    const listeners: Record<string, () => void> = {};
    const invoke = vi.fn((_name: string, _p: unknown, done: (a: { err_msg: string }) => void) =>
      done({ err_msg: 'get_brand_wcpay_request:ok' }),
    );
    const win = {
      document: { addEventListener: (name: string, fn: () => void) => (listeners[name] = fn) },
    } as unknown as Window & { WeixinJSBridge?: unknown };
    const paying = payInWeChat(params, win);
    expect(invoke).not.toHaveBeenCalled();
    win.WeixinJSBridge = { invoke };
    listeners.WeixinJSBridgeReady();
    await expect(paying).resolves.toBe('paid');
    expect(invoke).toHaveBeenCalledWith('getBrandWCPayRequest', params, expect.any(Function));
  });
});
